#include "apps/plan_report.h"

#include "apps/atomic_file.h"
#include "apps/svg_plot.h"
#include "apps/sweep.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace uniference {

namespace fs = std::filesystem;

namespace {

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string ms(double ns) { return format("%.3f", ns / 1e6); }

double latency_of(const PlanFigures& f, PlanObjective objective) {
  return objective == PlanObjective::kTtft ? double(f.ttft_ns) : f.tpot_ns;
}

const char* latency_name(PlanObjective objective) { return objective == PlanObjective::kTtft ? "TTFT" : "TPOT"; }

std::string layout_text(const PlanCandidate& c) {
  std::string text = c.parallel.strategy;
  for (const auto& [key, value] : c.assignments()) {
    if (key == "/collectives/preset") text += ", preset " + value.get<std::string>();
    if (key == "/network/placement") text += ", placement " + c.placement;
  }
  return text;
}

std::string figures_csv(const PlanFigures& f) {
  if (f.exit_code < 0) return ",,,,,";
  if (!f.ran) return std::to_string(f.exit_code) + ",,,,,";
  return "0," + std::to_string(f.ttft_ns) + "," + format("%.3f", f.tpot_ns) + "," + format("%.6g", f.tokens_per_s) +
         "," + format("%.6g", f.goodput_per_s) + "," + (f.meets_slo ? "yes" : "no");
}

std::string row(const PlanEntry& e, const PlanFigures& f, const std::string& level) {
  char text[256];
  std::snprintf(text, sizeof text, "  %-28s %7d %10.2f %11s %11s %12.4g %10.4g  %s%s\n", e.candidate.name.c_str(),
                e.candidate.devices(), double(e.memory_bytes) / 1e9, ms(double(f.ttft_ns)).c_str(),
                ms(f.tpot_ns).c_str(), f.tokens_per_s, f.goodput_per_s, level.c_str(), f.meets_slo ? "" : ", misses the targets");
  return text;
}

// The plot's colours, one per kind of plan (the SVG's legend and gnuplot's series).
const std::string kWinner = "#e15759", kDefault = "#f28e2b", kChecked = "#4e79a7", kEstimated = "#bab0ac";

const char* kHeader = "  plan                         devices  memory GB     TTFT ms     TPOT ms     tokens/s    goodput  level\n";

}  // namespace

const PlanFigures& best_figures(const PlanEntry& entry) { return entry.packet.ran ? entry.packet : entry.estimate; }

std::vector<size_t> pareto_front(const PlanResult& result, PlanObjective objective) {
  std::vector<size_t> front;
  for (size_t i = 0; i < result.entries.size(); ++i) {
    const PlanFigures& a = best_figures(result.entries[i]);
    if (!a.ran) continue;
    bool dominated = false;
    for (size_t j = 0; j < result.entries.size() && !dominated; ++j) {
      const PlanFigures& b = best_figures(result.entries[j]);
      if (j == i || !b.ran) continue;
      const bool no_worse = b.tokens_per_s >= a.tokens_per_s && latency_of(b, objective) <= latency_of(a, objective);
      const bool better = b.tokens_per_s > a.tokens_per_s || latency_of(b, objective) < latency_of(a, objective);
      dominated = no_worse && better;
    }
    if (!dominated) front.push_back(i);
  }
  std::sort(front.begin(), front.end(), [&](size_t a, size_t b) {
    return best_figures(result.entries[a]).tokens_per_s < best_figures(result.entries[b]).tokens_per_s;
  });
  return front;
}

std::string plan_table(const PlanSpec& spec, const PlanResult& result) {
  std::vector<size_t> checked, estimated;
  size_t pruned_invalid = 0, pruned_memory = 0, failed = 0;
  for (size_t i = 0; i < result.entries.size(); ++i) {
    const PlanEntry& e = result.entries[i];
    if (!e.pruned.empty()) (e.pruned.rfind("memory", 0) == 0 ? pruned_memory : pruned_invalid)++;
    else if (e.packet.ran) checked.push_back(i);
    else if (e.estimate.ran) estimated.push_back(i);
    else if (e.estimate.exit_code > 0) ++failed;
  }
  const auto by = [&](auto figures) {
    return [&, figures](size_t a, size_t b) {
      return ranks_before(result.entries[a], result.entries[a].*figures, result.entries[b], result.entries[b].*figures,
                          spec.objective);
    };
  };
  std::sort(checked.begin(), checked.end(), by(&PlanEntry::packet));
  std::sort(estimated.begin(), estimated.end(), by(&PlanEntry::estimate));
  std::string out = "Plans simulated as the scenario runs them (objective: " + std::string(objective_name(spec.objective)) +
                    "; serving runs: P99 TTFT and TPOT):\n" + kHeader;
  for (size_t i : checked) {
    out += row(result.entries[i], result.entries[i].packet, "packet");
  }
  if (!estimated.empty()) {
    out += "\nThe best of the others by the " + result.estimate_level + "-level estimate:\n" + kHeader;
    for (size_t k = 0; k < std::min<size_t>(estimated.size(), 10); ++k) {
      out += row(result.entries[estimated[k]], result.entries[estimated[k]].estimate, result.estimate_level);
    }
  }
  const size_t passed = result.entries.size() - pruned_invalid - pruned_memory;
  out += "\n" + std::to_string(result.entries.size()) + " candidates, " + std::to_string(passed) +
         " fitting the model, workload and memory: " + std::to_string(checked.size()) +
         " checked at packet level, " + std::to_string(checked.size() + estimated.size()) + " estimated, " +
         std::to_string(pruned_invalid) + " invalid for the model or workload, " + std::to_string(pruned_memory) +
         " beyond the devices' memory, " + std::to_string(failed) + " failed in simulation (plan.csv says why)\n";
  if (!result.estimate_note.empty()) out += "Note: " + result.estimate_note + "\n";
  if (result.budget_reached) out += "Note: the budget ran out; candidates not simulated are in plan.csv without figures\n";
  return out;
}

std::string plan_explanation(const PlanSpec& spec, const PlanResult& result) {
  if (result.winner < 0) return "No plan ran to its end at packet level; plan.csv says why.\n";
  const PlanEntry& w = result.entries[size_t(result.winner)];
  const PlanEntry& d = result.entries[size_t(result.default_plan)];
  const auto where = [](const PlanFigures& f) {
    std::string text = format("%.0f%%", 100 * f.compute_share) + " of its time computing and " +
                       format("%.0f%%", 100 * f.wait_share) + " waiting on communication";
    if (!f.busiest_link.empty()) text += ", busiest link " + f.busiest_link + " at " + format("%.0f%%", 100 * f.busiest_utilisation);
    return text;
  };
  std::string out = "Winner: " + w.candidate.name + " (" + layout_text(w.candidate) + ", " +
                    std::to_string(w.candidate.devices()) + (w.candidate.devices() == 1 ? " device). " : " devices). ");
  const auto value = [&](const PlanFigures& f) {
    switch (spec.objective) {
      case PlanObjective::kTtft: return "TTFT " + ms(double(f.ttft_ns)) + " ms";
      case PlanObjective::kGoodput: return "goodput " + format("%.4g", f.goodput_per_s) + "/s";
      case PlanObjective::kDevices:  // told by devices below; ties go by TPOT
      case PlanObjective::kTpot: break;
    }
    return "TPOT " + ms(f.tpot_ns) + " ms";
  };
  if (&w == &d) {
    out += "No plan checked beats the default (tensor parallelism over every device) on " +
           std::string(objective_name(spec.objective)) + ".\n";
  } else if (d.packet.ran) {
    if (spec.objective == PlanObjective::kDevices) {
      out += "It meets the targets on " + std::to_string(w.candidate.devices()) + " devices; the default uses " +
             std::to_string(d.candidate.devices()) + (d.packet.meets_slo ? "" : " and misses them") + ".\n";
    } else {
      const double a = latency_of(w.packet, spec.objective), b = latency_of(d.packet, spec.objective);
      out += value(w.packet) + " against " + value(d.packet).substr(value(d.packet).find(' ') + 1) + " for the default plan (" +
             d.candidate.name + ")";
      if (spec.objective != PlanObjective::kGoodput && b > 0) out += format(" (%.1f%% lower)", 100 * (b - a) / b);
      out += ".\n";
    }
  } else {
    out += "The default plan did not run at packet level (" +
           (d.pruned.empty() ? d.packet.message.substr(0, d.packet.message.find('\n')) : d.pruned) + ").\n";
  }
  out += "  its slowest rank: " + where(w.packet) + "\n";
  if (&w != &d && d.packet.ran) out += "  the default's:    " + where(d.packet) + "\n";
  out += "Deploy it: " + result.deploy_command + "\n";
  return out;
}

std::string plan_csv(const PlanResult& result) {
  std::string csv =
      "plan,strategy,tp,pp,dp,sp,ep,stages,micro_batches,preset,placement,devices,memory_bytes,memory_limit_bytes,"
      "pruned,estimate_exit,estimate_ttft_ns,estimate_tpot_ns,estimate_tokens_per_s,estimate_goodput_per_s,"
      "estimate_meets_slo,packet_exit,packet_ttft_ns,packet_tpot_ns,packet_tokens_per_s,packet_goodput_per_s,"
      "packet_meets_slo,winner,message\n";
  for (size_t i = 0; i < result.entries.size(); ++i) {
    const PlanEntry& e = result.entries[i];
    const ParallelDegrees& p = e.candidate.parallel;
    std::string stages;
    for (int64_t s : p.stages) stages += (stages.empty() ? "" : " ") + std::to_string(s);
    const std::string message = !e.pruned.empty()        ? e.pruned
                                : !e.packet.message.empty() ? e.packet.message
                                                            : e.estimate.message;
    csv += csv_field(e.candidate.name) + "," + p.strategy + "," + std::to_string(p.tp) + "," + std::to_string(p.pp) +
           "," + std::to_string(p.dp) + "," + std::to_string(p.sp) + "," + std::to_string(p.ep) + "," + stages + "," +
           std::to_string(p.micro_batches) + "," + e.candidate.preset + "," + e.candidate.placement + "," +
           std::to_string(e.candidate.devices()) + "," + std::to_string(e.memory_bytes) + "," +
           std::to_string(e.memory_limit) + "," + csv_field(e.pruned.empty() ? "" : e.pruned.substr(0, e.pruned.find(':'))) +
           "," + figures_csv(e.estimate) + "," + figures_csv(e.packet) + "," +
           (int(i) == result.winner ? "yes" : "") + "," + csv_field(message.substr(0, message.find('\n'))) + "\n";
  }
  return csv;
}

void write_plan_outputs(const PlanSpec& spec, const PlanResult& result) {
  const fs::path dir = result.folder;
  write_file_atomically((dir / "plan.csv").string(), plan_csv(result));

  const std::vector<size_t> front = pareto_front(result, spec.objective);
  const std::string latency = latency_name(spec.objective);
  std::vector<ScatterPoint> points;
  std::vector<std::pair<double, double>> front_line;
  for (size_t i = 0; i < result.entries.size(); ++i) {
    const PlanEntry& e = result.entries[i];
    const PlanFigures& f = best_figures(e);
    if (!f.ran) continue;
    const bool on_front = std::find(front.begin(), front.end(), i) != front.end();
    const std::string colour = int(i) == result.winner   ? kWinner
                               : e.candidate.is_default ? kDefault
                               : e.packet.ran           ? kChecked
                                                        : kEstimated;
    points.push_back({f.tokens_per_s, latency_of(f, spec.objective) / 1e6, e.candidate.name, colour,
                      on_front || int(i) == result.winner || e.candidate.is_default});
  }
  for (size_t i : front) {
    const PlanFigures& f = best_figures(result.entries[i]);
    front_line.emplace_back(f.tokens_per_s, latency_of(f, spec.objective) / 1e6);
  }
  const std::string title = latency + " against throughput, " + std::to_string(points.size()) + " plans";
  const std::string svg = scatter_plot(title, points, front_line, "tokens per second", latency + " (ms)",
                                       {{"winner", kWinner}, {"default plan", kDefault},
                                        {"checked at packet level", kChecked}, {"estimated", kEstimated}});
  std::string rows;
  for (const std::string& line : {plan_table(spec, result), plan_explanation(spec, result)}) rows += line + "\n";
  const std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Plan: " +
      escape_markup(fs::path(spec.source).stem().string()) +
      "</title></head>\n<body style=\"font-family: sans-serif; max-width: 70em; margin: 2em auto\">\n<h1>Plan: " +
      escape_markup(fs::path(spec.source).stem().string()) + "</h1>\n<p>Objective: " + objective_name(spec.objective) +
      ". The dashed line joins the Pareto front: no other plan is both faster per token and of higher throughput. "
      "Grey plans are " + escape_markup(result.estimate_level) +
      "-level estimates; the others ran as the scenario runs them.</p>\n" + svg + "\n<pre>" + escape_markup(rows) +
      "</pre>\n</body></html>\n";
  write_file_atomically((dir / "plan.html").string(), html);

  if (points.empty() || std::system("command -v gnuplot > /dev/null 2>&1") != 0) return;
  const std::string data = (dir / ".plan-plot.dat").string(), script = (dir / ".plan-plot.gp").string();
  {
    std::ofstream out(data);
    for (const char* set : {"estimated", "checked", "front", "labels", "winner"}) {
      out << "# " << set << "\n";
      if (std::string(set) == "front") {
        for (const auto& [x, y] : front_line) out << x << " " << y << "\n";
      } else if (std::string(set) == "winner") {
        for (const ScatterPoint& p : points) {
          if (p.colour == kWinner) out << p.x << " " << p.y << "\n";
        }
      } else if (std::string(set) == "labels") {
        for (const ScatterPoint& p : points) {
          if (p.labelled) out << p.x << " " << p.y << " \"" << p.name << "\"\n";
        }
      } else {
        for (const ScatterPoint& p : points) {
          if ((p.colour == kEstimated) == (std::string(set) == "estimated")) out << p.x << " " << p.y << "\n";
        }
      }
      out << "\n\n";
    }
  }
  {
    std::ofstream out(script);
    out << "set terminal pngcairo size 900,560\nset output '" << (dir / "plan.png").string() << "'\n"
        << "set title '" << title << "'\nset xlabel 'tokens per second'\nset ylabel '" << latency << " (ms)'\n"
        << "set grid\nset key top right\nset xrange [0:*]\nset yrange [0:*]\n"
        << "plot '" << data << "' index 0 with points pt 7 ps 0.8 lc rgb '" << kEstimated << "' title 'estimated', "
        << "'' index 1 with points pt 7 ps 1.2 lc rgb '" << kChecked << "' title 'checked at packet level', "
        << "'' index 2 with linespoints dt 2 lc rgb '#555555' title 'Pareto front', "
        << "'' index 3 using 1:2:3 with labels offset 1,0.8 left font ',9' notitle, "
        << "'' index 4 with points pt 7 ps 1.6 lc rgb '" << kWinner << "' title 'winner'\n";
  }
  const int status = std::system(("gnuplot '" + script + "' 2>/dev/null").c_str());
  fs::remove(data);
  fs::remove(script);
  if (status != 0) std::fprintf(stderr, "uniference: gnuplot could not draw %s\n", (dir / "plan.png").c_str());
}

}  // namespace uniference

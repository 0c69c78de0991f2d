#include "apps/scenario_jobs.h"

#include "apps/scenario_keys.h"
#include "apps/scenario_network.h"
#include "apps/scenario_values.h"

#include <algorithm>

namespace uniference {

namespace {

// The top-level sections a job may give its own of.
const std::vector<std::string>& job_sections() {
  static const std::vector<std::string> sections = {"model", "parallel", "workload", "compute", "devices"};
  return sections;
}

// "/model/preset" -> "model".
std::string first_segment(const std::string& pointer) {
  const size_t end = pointer.find('/', 1);
  return pointer.substr(1, end == std::string::npos ? std::string::npos : end - 1);
}

TrafficSpec read_traffic(const Checker& check, const json& value, const std::string& pointer) {
  check.object(value, pointer, scenario_keys_under("/jobs/<n>/traffic"));
  TrafficSpec traffic;
  traffic.pattern = check.choice(check.require(value, pointer, "pattern", "a traffic pattern"),
                                 child(pointer, "pattern"), {"all_reduce", "all_to_all", "permutation"});
  const std::string bytes_at = child(pointer, "bytes");
  traffic.bytes = uint64_t(check.integer(check.require(value, pointer, "bytes", "bytes per rank"), bytes_at,
                                         4, int64_t(1) << 40, "bytes from 4 to 2^40"));
  if (traffic.bytes % 4 != 0) {
    check.fail(bytes_at, "is " + std::to_string(traffic.bytes) + " bytes; fp32 elements need a multiple of 4");
  }
  std::string text;
  traffic.period_ns = read_duration(check, check.require(value, pointer, "period", "a duration"),
                                    child(pointer, "period"), &text, false);
  if (const json* v = Checker::find(value, "ranks")) {
    traffic.ranks = int(check.integer(*v, child(pointer, "ranks"), 2, 1000000, "2 to 1000000 ranks"));
  }
  return traffic;
}

}  // namespace

ScenarioError JobSpec::at_job(const ScenarioError& e) const {
  if (e.pointer().empty()) return e;
  const std::string placement = "/network/placement";
  if (!this->placement.packed && e.pointer().rfind(placement, 0) == 0) {
    return ScenarioError(e.source(), pointer + "/placement" + e.pointer().substr(placement.size()), e.detail());
  }
  const std::string section = first_segment(e.pointer());
  if (std::find(own_sections.begin(), own_sections.end(), section) == own_sections.end()) return e;
  return ScenarioError(e.source(), pointer + e.pointer(), e.detail());
}

std::vector<JobSpec> read_jobs(const Checker& check, const json& document, const json& value,
                               const std::string& source,
                               Scenario (*parse_alone)(const json&, const std::string&)) {
  if (!value.is_array() || value.empty()) check.fail_found("/jobs", "a non-empty array of jobs", value);
  // Each link keeps which jobs sent on it in 64 bits (bridge/link_sampler.h).
  if (value.size() > 64) check.fail("/jobs", "holds " + std::to_string(value.size()) + " jobs; at most 64 are supported");
  std::vector<JobSpec> jobs;
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string at = child("/jobs", std::to_string(i));
    const json& entry = value[i];
    check.object(entry, at, scenario_keys_under("/jobs/<n>"));
    JobSpec job;
    job.pointer = at;
    const std::string name_at = child(at, "name");
    job.name = check.string(check.require(entry, at, "name", "the job's name"), name_at);
    const bool usable = !job.name.empty() && job.name != "." && job.name != ".." &&
                        std::none_of(job.name.begin(), job.name.end(), [](char c) {
                          return c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
                        });
    if (!usable) check.fail_found(name_at, "a name usable as a folder name", entry["name"]);
    for (const JobSpec& earlier : jobs) {
      if (earlier.name == job.name) check.fail(name_at, "\"" + job.name + "\" is the name of " + earlier.pointer + " too");
    }
    if (const json* v = Checker::find(entry, "start")) {
      std::string text;
      job.start_ns = read_duration(check, *v, child(at, "start"), &text, true);
    }
    if (const json* v = Checker::find(entry, "placement")) {
      job.placement = read_placement(check, *v, child(at, "placement"), true);
    }
    if (const json* v = Checker::find(entry, "traffic")) {
      for (const std::string& section : job_sections()) {
        if (Checker::find(entry, section.c_str()) != nullptr) {
          check.fail(child(at, section), "a job with traffic runs no model; it takes no /" + section);
        }
      }
      job.traffic = read_traffic(check, *v, child(at, "traffic"));
      if (job.traffic->ranks == 0) {
        if (job.placement.packed || job.placement.spread) {
          check.fail(child(at, "traffic"), "give \"ranks\", or the endpoints of each rank as placement");
        }
        job.traffic->ranks = int(job.placement.endpoint.size());
      }
      jobs.push_back(std::move(job));
      continue;
    }
    // The job alone: the document with the job's own sections in place of the top-level ones.
    json alone = document;
    alone.erase("jobs");
    alone.erase("faults");
    alone["name"] = job.name;
    for (const std::string& section : job_sections()) {
      if (const json* v = Checker::find(entry, section.c_str())) {
        alone[section] = *v;
        job.own_sections.push_back(section);
      }
    }
    if (const json* v = Checker::find(entry, "seed")) {
      alone["seed"] = *v;
      job.own_sections.push_back("seed");
    }
    if (!job.placement.packed) alone["network"]["placement"] = job.placement.endpoint;
    try {
      job.alone = std::make_shared<const Scenario>(parse_alone(alone, source));
    } catch (const ScenarioError& e) {
      throw job.at_job(e);
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

Scenario job_alone(const Scenario& scenario, const std::string& job) {
  std::string names;
  for (const JobSpec& spec : scenario.jobs) names += (names.empty() ? "" : ", ") + spec.name;
  if (job.empty()) {
    if (scenario.jobs.empty()) return scenario;
    throw ScenarioError(scenario.source, "/jobs", "holds several jobs (" + names + "); deploy one with --job NAME");
  }
  for (const JobSpec& spec : scenario.jobs) {
    if (spec.name != job) continue;
    if (!spec.alone) {
      throw ScenarioError(scenario.source, spec.pointer, "job \"" + job + "\" is background traffic, with no model to deploy");
    }
    return *spec.alone;
  }
  throw ScenarioError(scenario.source, "/jobs",
                      "has no job \"" + job + "\"" + (names.empty() ? std::string(" (it has no /jobs)") : "; its jobs: " + names));
}

}  // namespace uniference

// The HTML report and its SVG plots, from hand-made output folders whose figures the tests
// know: what each plot draws is checked against numbers computed here, not read back from the
// report's own code.
#include "apps/html_report.h"
#include "apps/svg_plot.h"
#include "apps/test/test_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

namespace uniference {
namespace {

using json = nlohmann::json;

size_t count(const std::string& text, const std::string& piece) {
  size_t n = 0;
  for (size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) ++n;
  return n;
}

// Two ranks: rank 0 computes 2 ms and waits 1 ms of its 4 ms; rank 1 computes 3 ms, waits 0.5.
json two_ranks() {
  return {{"format", "uniference-results"},
          {"scenario", "hand"},
          {"total_ns", 4000000},
          {"setup", {{"model", "tiny"}, {"tp", 2}}},
          {"ranks",
           {{{"rank", 0},
             {"compute_ns", 2000000},
             {"comm_wait_ns", 1000000},
             {"finish_ns", 4000000},
             {"compute_ns_by_label", {{"layer0.mlp", 1500000}, {"head", 500000}}}},
            {{"rank", 1},
             {"compute_ns", 3000000},
             {"comm_wait_ns", 500000},
             {"finish_ns", 4000000},
             {"compute_ns_by_label", {{"layer0.mlp", 1000000}, {"layer1.mlp", 2000000}}}}}}};
}

json event(const std::string& name, const std::string& cat, const std::string& ph, double ts_us, int tid,
           json args = nullptr) {
  json e = {{"name", name}, {"cat", cat}, {"ph", ph}, {"ts", ts_us}, {"pid", 1}, {"tid", tid}};
  if (!args.is_null()) e["args"] = args;
  return e;
}

TEST(SvgPlot, AxisStepsAreOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(axis_step(7, 6), 2);      // 7/6 = 1.17 -> 2
  EXPECT_DOUBLE_EQ(axis_step(100, 5), 20);   // 20 exactly
  EXPECT_DOUBLE_EQ(axis_step(0.03, 6), 0.005);
  EXPECT_DOUBLE_EQ(axis_step(9000, 6), 2000);  // 1500 -> 2000
}

TEST(SvgPlot, MarkupIsEscapedInLabels) {
  EXPECT_EQ(escape_markup("a<b & \"c\" 'd'>"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
  const std::string svg = stacked_bars("t", {"<rank>"}, {{"x&y", "#000"}}, {{1}}, "ms");
  EXPECT_EQ(svg.find("<rank>"), std::string::npos);
  EXPECT_NE(svg.find("&lt;rank&gt;"), std::string::npos);
}

TEST(SvgPlot, BarWidthsAreProportionalToTheirValues) {
  // Values 1 and 3 on one bar: the second segment is three times as wide as the first.
  const std::string svg = stacked_bars("t", {"r"}, {{"a", "#111111"}, {"b", "#222222"}}, {{1, 3}}, "ms");
  const std::regex width("width=\"([0-9.]+)\" height=\"[0-9.]+\" fill=\"#(111111|222222)\"><title>");
  std::vector<double> widths;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), width); it != std::sregex_iterator(); ++it) {
    widths.push_back(std::stod((*it)[1]));
  }
  ASSERT_EQ(widths.size(), 2u);
  EXPECT_NEAR(widths[1] / widths[0], 3.0, 0.01);
}

TEST(HtmlReport, RankBarsShowComputeWaitAndTheRest) {
  RunFolder run{"dir", two_ranks(), nullptr};
  const std::string page = html_report(run);
  // rank 0: 4 - 2 - 1 = 1 ms neither computing nor waiting; rank 1: 4 - 3 - 0.5 = 0.5 ms.
  EXPECT_NE(page.find("rank 0: compute 2 ms"), std::string::npos);
  EXPECT_NE(page.find("rank 0: communication wait 1 ms"), std::string::npos);
  EXPECT_NE(page.find("rank 0: other 1 ms"), std::string::npos);
  EXPECT_NE(page.find("rank 1: other 0.5 ms"), std::string::npos);
  // Compute by operation over both ranks and layers: mlp 1.5 + 1 + 2 = 4.5 ms, head 0.5 ms;
  // by layer: layer0 2.5 ms, layer1 2 ms.
  EXPECT_NE(page.find("mlp: compute 4.5 ms (all ranks)"), std::string::npos);
  EXPECT_NE(page.find("head: compute 0.5 ms (all ranks)"), std::string::npos);
  EXPECT_NE(page.find("layer0: compute 2.5 ms (all ranks)"), std::string::npos);
  EXPECT_NE(page.find("layer1: compute 2 ms (all ranks)"), std::string::npos);
  // No trace: no communication or link plots; three plots in all, and the page says so.
  EXPECT_NE(page.find("data-plots=\"3\""), std::string::npos);
  EXPECT_EQ(count(page, "<svg class=\"plot\""), 3u);
}

TEST(HtmlReport, TimesAreShownInTheUnitTheirLargestCallsFor) {
  json results = two_ranks();
  // 300 s in all: seconds, not 300000 ms.
  for (json& rank : results["ranks"]) rank["finish_ns"] = int64_t(300) * 1000000000;
  results["ranks"][0]["compute_ns"] = int64_t(200) * 1000000000;
  const std::string page = html_report({"dir", results, nullptr});
  EXPECT_NE(page.find("rank 0: compute 200 s"), std::string::npos);
  EXPECT_NE(page.find("rank 1: compute 0.003 s"), std::string::npos);
}

TEST(HtmlReport, CommunicationWaitComesFromTheRanksOwnSlicesNotFlights) {
  RunFolder run{"dir", two_ranks(), json::object()};
  json events = json::array();
  // Rank 0 waits 3 us and 5 us in all_reduce; rank 1 waits 2 us in recv. A flight (an
  // asynchronous call's issue to completion, on a lane of its own) of 100 us is not waiting.
  events.push_back(event("all_reduce", "comm", "B", 10, 0));
  events.push_back(event("all_reduce", "comm", "E", 13, 0));
  events.push_back(event("all_reduce", "comm", "B", 20, 0));
  events.push_back(event("all_reduce", "comm", "E", 25, 0));
  events.push_back(event("recv", "comm", "B", 1, 1));
  events.push_back(event("recv", "comm", "E", 3, 1));
  events.push_back(event("all_gather", "comm", "B", 0, 2, {{"flight", true}}));
  events.push_back(event("all_gather", "comm", "E", 100, 2));
  run.trace["traceEvents"] = events;
  const std::string page = html_report(run);
  // The largest is 8 us: the plot is in microseconds.
  EXPECT_NE(page.find("all_reduce: wait 8 µs (all ranks)"), std::string::npos);
  EXPECT_NE(page.find("recv: wait 2 µs (all ranks)"), std::string::npos);
  EXPECT_EQ(page.find("all_gather:"), std::string::npos);
}

TEST(HtmlReport, LinkHeatMapShadesTheTimeALinkWasBusy) {
  RunFolder run{"dir", two_ranks(), json::object()};
  // One direction busy at 100% for the run's first half (0 to 2 ms), idle after; another at
  // 25% from 1 ms to the end.
  json events = json::array();
  const auto counter = [](const std::string& name, double ts_us, double utilisation) {
    return json{{"name", name}, {"cat", "link"}, {"ph", "C"}, {"ts", ts_us}, {"pid", 2}, {"tid", 0},
                {"args", {{"bytes", 1000}, {"utilisation", utilisation}}}};
  };
  events.push_back(counter("rank0 -> hub", 0, 1.0));
  events.push_back(counter("rank0 -> hub", 2000, 0.0));
  events.push_back(counter("hub -> rank1", 0, 0.0));
  events.push_back(counter("hub -> rank1", 1000, 0.25));
  events.push_back(counter("hub -> rank1", 4000, 0.0));
  run.trace["traceEvents"] = events;
  const std::string page = html_report(run);
  // 120 columns over 4 ms: the first link's first 60 columns fully busy, the second link's
  // last 90 a quarter busy (white to dark red: green and blue 235 x 0.75, red 255 - 25).
  // (Cells carry a tooltip; the legend's swatches do not.)
  EXPECT_EQ(count(page, "fill=\"#9b0000\"><title>"), 60u);
  EXPECT_EQ(count(page, "fill=\"#e6b0b0\"><title>"), 90u);
  EXPECT_NE(page.find("rank0 -&gt; hub at 0 ms: 100%"), std::string::npos);
}

TEST(HtmlReport, OutagesShowWhenEachLinkWasOut) {
  RunFolder run{"dir", two_ranks(), json::object()};
  // "edge <-> cloud" out from 0 to 1 ms and from 3 to 3.5 ms of the 4 ms run.
  json events = json::array();
  events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 2}, {"tid", 1048576},
                    {"args", {{"name", "outages: edge <-> cloud"}}}});
  for (const auto& [from_us, to_us] : {std::pair<double, double>{0, 1000}, {3000, 3500}}) {
    events.push_back({{"name", "outage"}, {"cat", "link"}, {"ph", "B"}, {"ts", from_us}, {"pid", 2}, {"tid", 1048576}});
    events.push_back({{"name", "outage"}, {"cat", "link"}, {"ph", "E"}, {"ts", to_us}, {"pid", 2}, {"tid", 1048576}});
  }
  run.trace["traceEvents"] = events;
  const std::string page = html_report(run);
  ASSERT_NE(page.find("Link outages over time"), std::string::npos);
  // 120 columns of 1/30 ms: 30 + 15 of them wholly out.
  EXPECT_EQ(count(page, "fill=\"#9b0000\"><title>"), 45u);
  EXPECT_NE(page.find("<td>edge &lt;-&gt; cloud</td><td>2</td><td>1.500 ms</td>"), std::string::npos);
}

TEST(HtmlReport, ServingRunsGetCdfsWithTheirSlo) {
  json results = two_ranks();
  json requests = json::array();
  // Four requests, TTFT 10, 20, 30, 40 ms; 5 tokens each, 4 ms apart: TPOT 4 ms.
  for (int i = 0; i < 4; ++i) {
    const int64_t arrival = int64_t(i) * 100000000;
    const int64_t first = arrival + int64_t(i + 1) * 10000000;
    requests.push_back({{"id", i}, {"arrival_ns", arrival}, {"scheduled_ns", arrival + 1000000},
                        {"first_token_ns", first}, {"finish_ns", first + 16000000}, {"new_tokens", 5}});
  }
  results["serving"] = {{"per_request", requests},
                        {"slo", {{"ttft_ns", 25000000}, {"tpot_ns", 0}}},
                        {"queueing_model", {{"md1_wait_ns", 2000000}}}};
  const std::string page = html_report({"dir", results, nullptr});
  EXPECT_EQ(count(page, "<svg class=\"plot\""), 3u + 4u);
  EXPECT_NE(page.find("SLO 25"), std::string::npos);          // TTFT's target, in ms
  EXPECT_NE(page.find("M/D/1 mean wait 2"), std::string::npos);
  // The TTFT steps reach 1/4, 2/4, 3/4 and 1 at 10, 20, 30 and 40 ms: the CDF polyline of TTFT
  // holds a rise at each. (The axis spans 0 to 40 ms, x = 56 + 684 * t / 40; the last rise is
  // at the plot's right edge, where the line also ends, so the first three are counted.)
  const size_t ttft = page.find("Time to first token");
  ASSERT_NE(ttft, std::string::npos);
  const std::string plot = page.substr(ttft, page.find("</svg>", ttft) - ttft);
  for (const char* x : {"227.0,", "398.0,", "569.0,"}) {
    EXPECT_EQ(count(plot, std::string(" ") + x), 2u) << x;  // the step's foot and top
  }
}

TEST(HtmlReport, ComparisonShowsTheChangeFromAToB) {
  json faster = two_ranks();
  faster["total_ns"] = 3000000;
  const std::string page = html_comparison({"a", two_ranks(), nullptr}, {"b", faster, nullptr});
  EXPECT_NE(page.find("-25.0%"), std::string::npos);  // total 4 ms -> 3 ms
  EXPECT_NE(page.find("A rank 0"), std::string::npos);
  EXPECT_NE(page.find("B rank 1"), std::string::npos);
}

// What read_run_folder refuses `dir` with; "" when it reads it.
std::string refusal(const std::string& dir) {
  try {
    read_run_folder(dir);
  } catch (const ReportInputError& e) {
    return e.what();
  }
  return "";
}

TEST(HtmlReport, FoldersThatAreNotRunsAreRefusedByName) {
  const TestDir dir;
  EXPECT_NE(refusal(dir / "missing").find("missing: not a folder"), std::string::npos);
  EXPECT_NE(refusal(dir.path().string()).find("results.json: cannot be read"), std::string::npos);
  std::ofstream(dir / "results.json") << "{\"format\": \"other\"}";
  EXPECT_NE(refusal(dir.path().string()).find("results.json: not a results.json of uniference"),
            std::string::npos);
  std::ofstream(dir / "results.json") << "{\"format\": ";
  EXPECT_NE(refusal(dir.path().string()).find("results.json: not JSON"), std::string::npos);
}

}  // namespace
}  // namespace uniference

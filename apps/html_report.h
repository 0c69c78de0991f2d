// The HTML report of a run (docs/report.md): one self-contained page beside results.json that
// shows where the time went, with plots as inline SVG (apps/svg_plot.h) and no reference to
// anything outside the file, so it opens offline and can be mailed.
//
// It is a function of the run's output folder alone, results.json and, when present,
// trace.json (its communication spans and link counters), so it reads a simulation's folder
// and a deployment's alike, and can be made again, or for a run of an older build, with
// `uniference report OUT_DIR`. Equal folders give byte-identical pages (a page made by the run
// itself also names the ns-3 build, which the folder's files leave out).
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace uniference {

// A folder the report cannot be made from: what() names the file and what is wrong with it.
class ReportInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a report is made of: one run's output folder, read.
struct RunFolder {
  std::string path;
  nlohmann::json results;
  nlohmann::json trace;  // null when the folder has no trace.json
  // The ns-3 build that ran it ("ns-3 3.37: ..."), known only to the run that makes its page;
  // empty for a folder read later, whose files do not record it.
  std::string ns3_build;
};

// Reads DIR/results.json and, if present, DIR/trace.json. Throws ReportInputError.
RunFolder read_run_folder(const std::string& dir);

// The page for one run. Its <body> carries data-plots, the number of plots it holds.
std::string html_report(const RunFolder& run);

// Two runs side by side (a before and after, packet against flow level, a simulation against
// its deployment): their headline figures with the change, and each plot with both runs.
std::string html_comparison(const RunFolder& a, const RunFolder& b);

}  // namespace uniference

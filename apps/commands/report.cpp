// uniference report: a run's output folder as one self-contained HTML page, or two side by side.
#include "apps/atomic_file.h"
#include "apps/command_line.h"
#include "apps/commands/command.h"
#include "apps/commands/command_support.h"
#include "apps/html_report.h"

#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace uniference {

namespace {

int report(const std::vector<std::string>& args, const char*) {
  std::vector<std::string> folders;
  std::string out;
  bool compare = false;
  try {
    for_each_argument(args, 0, [&](const std::string& a, const auto& value) {
      if (a == "--compare") compare = true;
      else if (a == "--out") out = value();
      else if (a == "--quiet") {}
      else if (!a.empty() && a[0] == '-') throw std::invalid_argument("unknown option '" + a + "'");
      else folders.push_back(a);
    });
    if (folders.size() != (compare ? 2u : 1u)) {
      throw std::invalid_argument(compare ? "report --compare needs two output folders"
                                          : "report needs one output folder (or --compare A B)");
    }
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }
  return reporting_errors([&] {
    try {
      std::string page;
      if (compare) {
        page = html_comparison(read_run_folder(folders[0]), read_run_folder(folders[1]));
        if (out.empty()) out = "compare.html";
      } else {
        page = html_report(read_run_folder(folders[0]));
        if (out.empty()) out = (std::filesystem::path(folders[0]) / "report.html").string();
      }
      write_file_atomically(out, page);
      std::cout << "uniference: wrote " << out << "\n";
      return 0;
    } catch (const ReportInputError& e) {
      std::cerr << "uniference: " << e.what() << "\n";
      return kExitUsage;
    }
  });
}

}  // namespace

Command report_command() {
  return {"report",
          {"OUT_DIR [--out FILE]", "--compare A_DIR B_DIR [--out FILE]"},
          {{"report OUT_DIR",
            "one self-contained HTML page (plots inline, nothing fetched) from a\n"
            "run's output folder, a simulation's or a deployment's: setup, headline\n"
            "figures, compute against communication per rank, compute by operation\n"
            "and layer, communication wait by operation, serving CDFs with the SLOs,\n"
            "link utilisation over time (docs/report.md). Writes OUT_DIR/report.html\n"
            "unless --out; /outputs/report makes the same page at the end of a run"},
           {"report --compare A B",
            "two runs on one page, headline figures with the change from A to B and\n"
            "each plot with both (default file: compare.html)"}},
          report, kQuietOption};
}

}  // namespace uniference

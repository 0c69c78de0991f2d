#include "apps/progress_line.h"

#include "compute/compute_meter.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace uniference {

namespace {

int64_t wall_ns() { return steady_clock_ns(); }

std::string seconds(const char* format, double s) {
  char text[48];
  std::snprintf(text, sizeof text, format, s);
  return text;
}

}  // namespace

// Whether UNIFERENCE_PROGRESS asks for the lines in a pipe or a log too.
static bool progress_asked() {
  const char* value = std::getenv("UNIFERENCE_PROGRESS");
  return value != nullptr && std::string(value) == "1";
}

ProgressLine::ProgressLine(bool quiet)
    : quiet_(quiet),
      log_lines_(::isatty(STDERR_FILENO) != 1 && progress_asked()),
      enabled_(!quiet && (::isatty(STDERR_FILENO) == 1 || log_lines_)),
      start_ns_(wall_ns()),
      last_ns_(start_ns_) {}

ProgressLine::~ProgressLine() { clear(); }

void ProgressLine::clear() {
  if (width_ > 0) std::cerr << "\r" << std::string(width_, ' ') << "\r" << std::flush;
  width_ = 0;
}

void ProgressLine::note(const std::string& text) {
  if (quiet_) return;
  clear();
  std::cerr << text << "\n" << std::flush;
}

bool ProgressLine::due() const { return enabled_ && wall_ns() - last_ns_ >= 1'000'000'000; }

double ProgressLine::wall_s() const { return double(wall_ns() - start_ns_) / 1e9; }

void ProgressLine::show(const std::string& text, bool now) {
  if (!enabled_ || !(now || due())) return;
  write("  " + text + seconds(", %.1f s wall", wall_s()));
}

void ProgressLine::step(size_t done, size_t total, const std::string& text) {
  if (!enabled_) return;
  std::string line = "  [" + std::to_string(done) + "/" + std::to_string(total) + " done] " +
                     text + seconds(", %.1f s wall", wall_s());
  if (done > 0 && done < total) {
    line += seconds(", about %.0f s left", wall_s() * double(total - done) / double(done));
  }
  write(line);
}

void ProgressLine::write(const std::string& line) {
  last_ns_ = wall_ns();
  if (log_lines_) {
    std::cerr << line << "\n" << std::flush;
    return;
  }
  std::string padded = line;
  padded.resize(std::max(line.size(), width_), ' ');
  width_ = line.size();
  std::cerr << "\r" << padded << std::flush;
}

}  // namespace uniference

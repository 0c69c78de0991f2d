// A progress line for long commands: on a terminal, one line rewritten in place at most once
// a wall second and blanked when the work is done; in a pipe, a log or with --quiet, nothing,
// so CI output and scripts see only what the command prints as its result. The environment
// variable UNIFERENCE_PROGRESS=1 asks for the lines where stderr is not a terminal too (a log
// kept on purpose, a test watching a run), one per update, each on a line of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace uniference {

class ProgressLine {
 public:
  // Writes only when not `quiet` and stderr is a terminal.
  explicit ProgressLine(bool quiet);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool enabled() const { return enabled_; }

  // Whether a line is due (a second since the last); callers with costly text ask first.
  bool due() const;

  // Shows "  TEXT, W s wall" when due, or at once with `now` (a new step).
  void show(const std::string& text, bool now = false);

  // `done` of `total` steps finished: "  [done/total done] TEXT, W s wall, about L s left"
  // (from the finished steps' mean), shown at once.
  void step(size_t done, size_t total, const std::string& text);

  // A line that stays (a failure, a warning): printed unless quiet, terminal or not, with the
  // progress line cleared first and shown again at its next update.
  void note(const std::string& text);

  // Takes the line off the screen, before the command prints its results (shown again at its
  // next update).
  void clear();

  // Seconds since the line was made.
  double wall_s() const;

 private:
  void write(const std::string& line);

  bool quiet_;
  bool log_lines_;  // UNIFERENCE_PROGRESS=1 without a terminal: plain lines
  bool enabled_;
  int64_t start_ns_;
  int64_t last_ns_ = 0;
  size_t width_ = 0;  // of the line on screen, to blank it
};

}  // namespace uniference

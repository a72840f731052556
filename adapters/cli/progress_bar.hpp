#pragma once
// ProgressBar: one line on the operator's terminal, redrawn in place ("\r"), for large imports
// (docs/decisions/progress-bar.md). Draws only when enabled (stderr is a terminal): at once on
// the first update, then at most every 100 ms, and the last state at finish.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace petstore::adapters::cli {

enum class ProgressUnit { bytes, pets };

// render_progress: one state without "\r",
// e.g. "writing  [#########---------------------]  30%  300000/1000000 pets"; a total of 0
// (unknown) shows the count only ("reading  12.5 MiB").
[[nodiscard]] std::string render_progress(std::string_view label, std::uint64_t done,
                                          std::uint64_t total, ProgressUnit unit,
                                          std::size_t bar_width = 30);

class ProgressBar {
 public:
  ProgressBar(std::ostream& out, bool enabled);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar();

  // start: a new phase; ends the previous phase's line.
  void start(std::string label, std::uint64_t total, ProgressUnit unit);
  void update(std::uint64_t done);
  // finish: draws the last state and ends the line, if anything was drawn.
  void finish();

 private:
  void draw();

  using Clock = std::chrono::steady_clock;
  std::ostream& out_;
  bool enabled_;
  std::string label_;
  std::uint64_t total_ = 0;
  std::uint64_t done_ = 0;
  ProgressUnit unit_ = ProgressUnit::pets;
  Clock::time_point drawn_at_;
  bool drawn_ = false;
  std::size_t width_ = 0;  // of the last line drawn, to blank out what a shorter one leaves
};

}  // namespace petstore::adapters::cli

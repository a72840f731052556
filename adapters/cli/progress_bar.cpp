#include "adapters/cli/progress_bar.hpp"

#include <cstdio>
#include <utility>

namespace petstore::adapters::cli {
namespace {

constexpr std::chrono::milliseconds redraw_every{100};

std::string amount(std::uint64_t value, ProgressUnit unit) {
  if (unit == ProgressUnit::pets) {
    return std::to_string(value);
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", static_cast<double>(value) / (1024.0 * 1024.0));
  return text;
}

}  // namespace

std::string render_progress(std::string_view label, std::uint64_t done, std::uint64_t total,
                            ProgressUnit unit, std::size_t bar_width) {
  const std::string unit_name = unit == ProgressUnit::pets ? " pets" : " MiB";
  std::string line(label);
  line += "  ";
  if (total == 0) {
    return line + amount(done, unit) + unit_name;
  }
  done = std::min(done, total);
  const auto filled = static_cast<std::size_t>(
      static_cast<double>(bar_width) * static_cast<double>(done) / static_cast<double>(total));
  const auto percent =
      static_cast<unsigned>(100.0 * static_cast<double>(done) / static_cast<double>(total));
  char percent_text[8];
  std::snprintf(percent_text, sizeof percent_text, "%3u%%", percent);
  line += '[';
  line.append(filled, '#');
  line.append(bar_width - filled, '-');
  line += "]  ";
  line += percent_text;
  line += "  " + amount(done, unit) + "/" + amount(total, unit) + unit_name;
  return line;
}

ProgressBar::ProgressBar(std::ostream& out, bool enabled) : out_(out), enabled_(enabled) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::start(std::string label, std::uint64_t total, ProgressUnit unit) {
  finish();
  label_ = std::move(label);
  total_ = total;
  unit_ = unit;
  done_ = 0;
}

void ProgressBar::update(std::uint64_t done) {
  done_ = done;
  if (!enabled_) {
    return;
  }
  const auto now = Clock::now();
  if (drawn_ && now - drawn_at_ < redraw_every) {
    return;
  }
  draw();
  drawn_at_ = now;
}

void ProgressBar::finish() {
  if (drawn_) {
    draw();
    out_ << '\n' << std::flush;
    drawn_ = false;
    width_ = 0;
  }
}

void ProgressBar::draw() {
  const std::string line = render_progress(label_, done_, total_, unit_);
  out_ << '\r' << line;
  if (line.size() < width_) {
    out_ << std::string(width_ - line.size(), ' ');
  }
  out_ << std::flush;
  width_ = line.size();
  drawn_ = true;
}

}  // namespace petstore::adapters::cli

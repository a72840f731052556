#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

#include "adapters/metrics/metrics.hpp"
#include "domain/whole_number.hpp"

namespace petstore::adapters::metrics {
namespace {

struct ProcessStat {
  std::uint64_t user_ticks = 0;
  std::uint64_t system_ticks = 0;
  std::uint64_t start_ticks = 0;  // after boot
  std::uint64_t virtual_bytes = 0;
  std::uint64_t resident_pages = 0;
};

// read_stat: /proc/self/stat (proc(5)). The command name, field 2, may hold spaces and
// parentheses, so the fields are counted from the last ')'.
std::optional<ProcessStat> read_stat() {
  std::ifstream file("/proc/self/stat");
  std::string text;
  if (!std::getline(file, text)) {
    return std::nullopt;
  }
  const auto name_end = text.rfind(')');
  if (name_end == std::string::npos) {
    return std::nullopt;
  }
  std::istringstream fields(text.substr(name_end + 1));
  std::vector<std::string> after_name;  // field 3 (state) onwards
  for (std::string field; fields >> field;) {
    after_name.push_back(field);
  }
  // Fields 14 utime, 15 stime, 22 starttime, 23 vsize, 24 rss: at 11, 12, 19, 20, 21 here.
  constexpr std::size_t utime = 11;
  constexpr std::size_t stime = 12;
  constexpr std::size_t starttime = 19;
  constexpr std::size_t vsize = 20;
  constexpr std::size_t rss = 21;
  if (after_name.size() <= rss) {
    return std::nullopt;
  }
  const auto number = [&](std::size_t index) {
    return domain::parse_whole<std::uint64_t>(after_name[index]).value_or(0);
  };
  return ProcessStat{number(utime), number(stime), number(starttime), number(vsize), number(rss)};
}

// boot_time_seconds: the btime line of /proc/stat, seconds since the epoch.
std::optional<std::uint64_t> boot_time_seconds() {
  std::ifstream file("/proc/stat");
  for (std::string line; std::getline(file, line);) {
    if (line.starts_with("btime ")) {
      return domain::parse_whole<std::uint64_t>(std::string_view(line).substr(6));
    }
  }
  return std::nullopt;
}

std::optional<std::uint64_t> open_fds() {
  std::error_code error;
  std::uint64_t count = 0;
  for (std::filesystem::directory_iterator entry("/proc/self/fd", error), end;
       !error && entry != end; entry.increment(error)) {
    ++count;
  }
  if (error) {
    return std::nullopt;
  }
  return count > 0 ? count - 1 : 0;  // the directory's own descriptor, open while counting
}

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text.precision(15);
  text << seconds;
  return text.str();
}

}  // namespace

void append_process_metrics(std::string& out) {
  const auto ticks_per_second = static_cast<double>(::sysconf(_SC_CLK_TCK));
  const auto page_bytes = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  if (const auto stat = read_stat(); stat && ticks_per_second > 0) {
    append_scalar(out, "process_cpu_seconds_total", "counter",
                  "Total user and system CPU time spent in seconds.",
                  seconds_text(static_cast<double>(stat->user_ticks + stat->system_ticks) /
                               ticks_per_second));
    append_scalar(out, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.",
                  std::to_string(stat->virtual_bytes));
    append_scalar(out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
                  std::to_string(stat->resident_pages * page_bytes));
    if (const auto boot = boot_time_seconds()) {
      append_scalar(out, "process_start_time_seconds", "gauge",
                    "Start time of the process since unix epoch in seconds.",
                    seconds_text(static_cast<double>(*boot) +
                                 static_cast<double>(stat->start_ticks) / ticks_per_second));
    }
  }
  if (const auto fds = open_fds()) {
    append_scalar(out, "process_open_fds", "gauge", "Number of open file descriptors.",
                  std::to_string(*fds));
  }
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    append_scalar(out, "process_max_fds", "gauge", "Maximum number of open file descriptors.",
                  std::to_string(limit.rlim_cur));
  }
}

}  // namespace petstore::adapters::metrics

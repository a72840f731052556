#pragma once
// RepeatedFailures: which of a retried failure's log lines to write. While a database is out, each
// pooled connection retries its connect every second or so; a line per attempt would bury the log.
// Per source (a host, a replica) and message: the first failure is written at once, and repeats
// within `quiet_for` of the line are counted instead, their count going with the message's next
// line. A success forgets the source, so that its next failure is written at once, and returns
// the repeats still unwritten, for the recovery line to report. Not thread-safe: the caller
// decides and writes a line under one lock, so that lines keep the order of their decisions.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace petstore::bootstrap {

class RepeatedFailures {
 public:
  using Clock = std::chrono::steady_clock;

  explicit RepeatedFailures(Clock::duration quiet_for) : quiet_for_(quiet_for) {}

  // failed: how many repeats the line to write now reports, or nullopt when this failure is a
  // repeat to count, not write.
  std::optional<std::int64_t> failed(std::string_view source, std::string_view reason,
                                     Clock::time_point now) {
    auto& failing = sources_.try_emplace(std::string(source)).first->second;
    auto& reasons = failing.reasons;
    auto found = reasons.find(reason);
    if (found == reasons.end()) {
      failing.unwritten_of_forgotten += forget_oldest_if_full(reasons);
      reasons.emplace(std::string(reason), Written{now, 0});
      return 0;
    }
    if (now - found->second.at < quiet_for_) {
      ++found->second.repeats;
      return std::nullopt;
    }
    const std::int64_t repeats = found->second.repeats;
    found->second = Written{now, 0};
    return repeats;
  }

  // succeeded: forgets `source`; nullopt when it was not failing, else the repeats counted since
  // their messages' last lines and never written (its recovery line reports them).
  std::optional<std::int64_t> succeeded(std::string_view source) {
    const auto found = sources_.find(source);
    if (found == sources_.end()) {
      return std::nullopt;
    }
    std::int64_t unwritten = found->second.unwritten_of_forgotten;
    for (const auto& [reason, written] : found->second.reasons) {
      unwritten += written.repeats;
    }
    sources_.erase(found);
    return unwritten;
  }

 private:
  struct Written {
    Clock::time_point at;
    std::int64_t repeats = 0;  // since `at`, not written
  };
  using Reasons = std::map<std::string, Written, std::less<>>;
  struct Failing {
    Reasons reasons;
    std::int64_t unwritten_of_forgotten = 0;  // the repeats of messages forgotten to make room
  };

  // A source's messages kept at once: a message that varies (a timing in it) must not grow the
  // map while the source stays down.
  static constexpr std::size_t reasons_kept = 8;

  // forget_oldest_if_full: makes room for a message; the repeats of the one forgotten, unwritten.
  static std::int64_t forget_oldest_if_full(Reasons& reasons) {
    if (reasons.size() < reasons_kept) {
      return 0;
    }
    const auto oldest =
        std::min_element(reasons.begin(), reasons.end(),
                         [](const auto& a, const auto& b) { return a.second.at < b.second.at; });
    const std::int64_t unwritten = oldest->second.repeats;
    reasons.erase(oldest);
    return unwritten;
  }

  const Clock::duration quiet_for_;
  std::map<std::string, Failing, std::less<>> sources_;
};

}  // namespace petstore::bootstrap

#pragma once
// Metrics: the service's counters, gauges and histograms, and their Prometheus text exposition
// (format 0.0.4) for GET /metrics. Updates are lock-free atomics, so that any server thread may
// record at any time; a scrape reads them without stopping anyone. Labels are operation names
// and status codes only: nothing a client sends, and never a key, reaches a label.

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace petstore::adapters::metrics {

enum class Operation : std::size_t { list_pets, create_pet, get_pet, list_orders, other };
inline constexpr std::size_t operation_count = 5;

// operation_of: the OpenAPI operationId of `method` on `route` (a route template), else other.
[[nodiscard]] Operation operation_of(std::string_view method, std::string_view route);
[[nodiscard]] std::string_view operation_name(Operation operation);

// Histogram: cumulative-bucket latency histogram in seconds, lock-free.
class Histogram {
 public:
  static constexpr std::array<double, 12> bounds{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                                 0.05,   0.1,   0.25,   0.5,   1,    5};
  void observe(std::chrono::nanoseconds duration);
  // append_exposition: the _bucket, _sum and _count lines of `name`, with `labels` (already
  // formatted, e.g. `operation="getPet"`, or empty) before `le`.
  void append_exposition(std::string& out, std::string_view name, std::string_view labels) const;

 private:
  std::array<std::atomic<std::uint64_t>, bounds.size()> buckets_{};  // not cumulative
  std::atomic<std::uint64_t> count_{0};
  std::atomic<std::uint64_t> sum_nanoseconds_{0};
};

struct BuildInfo {
  std::string version;
  std::string commit;
};

class Metrics {
 public:
  explicit Metrics(BuildInfo build);

  void connection_opened() { connections_open_.fetch_add(1, std::memory_order_relaxed); }
  void connection_closed() { connections_open_.fetch_sub(1, std::memory_order_relaxed); }
  void request_started() { in_flight_.fetch_add(1, std::memory_order_relaxed); }
  // request_finished: one answered request; a status outside 100..599 counts as 0.
  void request_finished(Operation operation, unsigned status, std::chrono::nanoseconds duration);
  // storage_committed: one storage commit (one batch of creates) took `duration`.
  void storage_committed(std::chrono::nanoseconds duration) { commits_.observe(duration); }
  // set_pets_stored: the count of stored pets, read once from storage (at start); a scrape
  // shows the gauge only once it is known, and never asks storage itself.
  void set_pets_stored(std::int64_t count) {
    pets_stored_.store(count, std::memory_order_relaxed);
    pets_stored_known_.store(true, std::memory_order_release);
  }
  // pet_stored: one more pet stored by this process.
  void pet_stored() { pets_stored_.fetch_add(1, std::memory_order_relaxed); }

  // exposition: every metric in Prometheus text format 0.0.4.
  [[nodiscard]] std::string exposition() const;

 private:
  static constexpr std::size_t status_slots = 600;
  BuildInfo build_;
  std::array<std::array<std::atomic<std::uint64_t>, status_slots>, operation_count> requests_{};
  std::array<Histogram, operation_count> durations_;
  std::atomic<std::int64_t> in_flight_{0};
  std::atomic<std::int64_t> connections_open_{0};
  Histogram commits_;
  std::atomic<std::int64_t> pets_stored_{0};
  std::atomic<bool> pets_stored_known_{false};
};

}  // namespace petstore::adapters::metrics

#pragma once
// Metrics: the service's counters, gauges and histograms, and their Prometheus text exposition
// (format 0.0.4). Updates are lock-free atomics; a scrape stops no one. Labels come from fixed sets
// only: nothing a client sends, and never a key, reaches a label.

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace petstore::adapters::metrics {

// The text format's lines (metrics.cpp, process_metrics.cpp): a metric's HELP and TYPE lines; one
// sample, `name{labels} value` (no braces when `labels` is empty); both, for a one-sample metric.
void append_header(std::string& out, std::string_view name, std::string_view type,
                   std::string_view help);
void append_sample(std::string& out, std::string_view name, std::string_view labels,
                   std::string_view value);
void append_scalar(std::string& out, std::string_view name, std::string_view type,
                   std::string_view help, std::string_view value);

// append_process_metrics (process_metrics.cpp): the standard Linux process metrics of Prometheus
// client libraries, read from /proc at scrape time. A value /proc does not give (a hardened
// sandbox) is left out rather than guessed.
void append_process_metrics(std::string& out);

// Per-thread slots for counters every serving thread updates on every request: one shared atomic
// would move its cache line between cores at each update (docs/dependencies.md). A scrape sums the
// slots. Threads are dealt slots in turn, once each.
inline constexpr std::size_t shard_count = 16;

// this_threads_shard: the calling thread's slot, from 0 to shard_count - 1.
[[nodiscard]] inline std::size_t this_threads_shard() noexcept {
  static std::atomic<std::size_t> next{0};
  thread_local const std::size_t shard = next.fetch_add(1, std::memory_order_relaxed) % shard_count;
  return shard;
}

// Sharded: `T` a thread (its cache line alone), shard_count of them; `T` holds atomics.
template <class T>
class Sharded {
 public:
  [[nodiscard]] T& mine() noexcept { return shards_[this_threads_shard()].value; }
  // sum: `read` of every shard, added up (a scrape).
  template <class Read>
  [[nodiscard]] auto sum(Read read) const {
    decltype(read(shards_[0].value)) total{};
    for (const auto& shard : shards_) {
      total += read(shard.value);
    }
    return total;
  }

 private:
  struct alignas(64) Padded {
    T value{};
  };
  std::array<Padded, shard_count> shards_{};
};

// WordCounts: a lock-free counter for each word of a fixed set, as an adapter names its reasons;
// a word outside the set counts as the last one, so that nothing else ever becomes a label.
template <std::size_t N>
class WordCounts {
 public:
  explicit WordCounts(const std::array<std::string_view, N>& words) : words_(words) {}
  void add(std::string_view word) {
    const auto slot = std::find(words_.begin(), words_.end() - 1, word) - words_.begin();
    counts_.at(static_cast<std::size_t>(slot)).fetch_add(1, std::memory_order_relaxed);
  }
  // append_samples: `name{labels"WORD"} COUNT` for each word in order (`labels` ends in `=`).
  void append_samples(std::string& out, std::string_view name, std::string_view labels) const {
    for (std::size_t i = 0; i < N; ++i) {
      append_sample(out, name, std::string(labels) + '"' + std::string(words_.at(i)) + '"',
                    std::to_string(counts_.at(i).load(std::memory_order_relaxed)));
    }
  }

 private:
  std::array<std::string_view, N> words_;
  std::array<std::atomic<std::uint64_t>, N> counts_{};
};

// Histogram: cumulative-bucket latency histogram in seconds, lock-free, a slot a thread
// (Sharded); buckets from 25 us to 10 s in 1-2.5-5 steps (docs/decisions/latency-buckets.md).
class Histogram {
 public:
  static constexpr std::array<double, 18> bounds{0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001,
                                                 0.0025,   0.005,   0.01,   0.025,   0.05,   0.1,
                                                 0.25,     0.5,     1,      2.5,     5,      10};
  void observe(std::chrono::nanoseconds duration);
  // append_exposition: `name`'s _bucket, _sum and _count lines, `labels` (formatted) before `le`.
  void append_exposition(std::string& out, std::string_view name, std::string_view labels) const;
  // append_family: a histogram without labels, its HELP and TYPE lines first.
  void append_family(std::string& out, std::string_view name, std::string_view help) const {
    append_header(out, name, "histogram", help);
    append_exposition(out, name, "");
  }

 private:
  struct Counts {
    std::array<std::atomic<std::uint64_t>, bounds.size()> buckets{};  // not cumulative
    std::atomic<std::uint64_t> count{0};
    std::atomic<std::uint64_t> sum_nanoseconds{0};
  };
  Sharded<Counts> counts_;
};

// BuildInfo: the labels of petstore_build_info, named as Prometheus's own build_info names them.
struct BuildInfo {
  std::string version;
  std::string revision;  // the source's git commit
};

class Metrics {
 public:
  // `operations`: the values the operation label takes (the router's operation ids), besides
  // "other" for a request that reached none. A fixed set, so a client can never add a label.
  Metrics(BuildInfo build, std::span<const std::string_view> operations);

  void connection_opened() { connections_open_.fetch_add(1, std::memory_order_relaxed); }
  void connection_closed() { connections_open_.fetch_sub(1, std::memory_order_relaxed); }
  void request_started() { in_flight_.mine().fetch_add(1, std::memory_order_relaxed); }
  // request_finished: an unknown operation counts as "other", a status outside 100..599 as 0.
  // Returns the operation label counted (valid as long as this object), for the log line.
  std::string_view request_finished(std::string_view operation, std::string_view protocol,
                                    unsigned status, std::chrono::nanoseconds duration);
  // storage_committed: one storage commit (one batch of creates) took `duration`.
  void storage_committed(std::chrono::nanoseconds duration) { commits_.observe(duration); }
  // set_pets_stored: as storage last answered (PetsStoredSampler); shown only once known.
  void set_pets_stored(std::int64_t count) {
    pets_stored_.store(count, std::memory_order_relaxed);
    pets_stored_known_.store(true, std::memory_order_release);
  }

  // Database connections (PostgreSQL storage), shown once track_database() was called.
  void track_database() { database_tracked_.store(true, std::memory_order_release); }
  void set_database_connections(std::size_t open, std::size_t in_use) {
    database_open_.store(static_cast<std::int64_t>(open), std::memory_order_relaxed);
    database_in_use_.store(static_cast<std::int64_t>(in_use), std::memory_order_relaxed);
  }
  // database_connection_waited: how long one call waited for a free connection.
  void database_connection_waited(std::chrono::nanoseconds waited) {
    database_waits_.observe(waited);
  }
  // database_query_finished: one read's round trip to the database.
  void database_query_finished(std::chrono::nanoseconds took) { database_queries_.observe(took); }
  void database_connection_lost() { database_lost_.fetch_add(1, std::memory_order_relaxed); }
  void database_reconnected() { database_reconnects_.fetch_add(1, std::memory_order_relaxed); }
  // read_served: a get or list answered by a replica, or by the primary for `reason`.
  void read_served(bool replica, std::string_view reason) {
    if (replica) {
      replica_reads_.fetch_add(1, std::memory_order_relaxed);
    } else {
      primary_reads_.add(reason);
    }
  }
  // position_queried: a flush-position query for replica freshness (its ratio to reads: the cost).
  void position_queried() { freshness_queries_.fetch_add(1, std::memory_order_relaxed); }
  // replica_refused: a replica does not replay the primary's history (ReplicaRefusal's words).
  void replica_refused(std::string_view refusal) { replica_refusals_.add(refusal); }
  // storage_commit_resolved: a batch whose COMMIT's answer was lost was resolved with `outcome`
  // ("committed", "not_committed", anything else counts as "unknown").
  void storage_commit_resolved(std::string_view outcome) { commits_resolved_.add(outcome); }

  // set_log_lines_dropped: read at scrape time; unset, the metric is absent.
  void set_log_lines_dropped(std::function<std::uint64_t()> source) {
    log_lines_dropped_ = std::move(source);
  }

  // exposition: every metric in Prometheus text format 0.0.4.
  [[nodiscard]] std::string exposition() const;

 private:
  void append_database(std::string& out) const;

  static constexpr std::size_t status_slots = 600;
  // The statuses the service answers with, counted a slot a thread; any other (a status the
  // service does not send today) is counted in `rare`, shared.
  static constexpr std::array<unsigned, 22> usual_statuses{200, 201, 204, 304, 400, 401, 403, 404,
                                                           405, 408, 411, 413, 414, 415, 417, 422,
                                                           429, 431, 500, 501, 503, 505};
  // The protocol label's values; the sessions name no other (one would count as the first).
  static constexpr std::array<std::string_view, 3> protocols{"HTTP/1.1", "HTTP/2", "HTTP/1.0"};
  struct OperationMetrics {
    std::string name;
    // By protocol, then status.
    Sharded<std::array<std::atomic<std::uint64_t>, protocols.size() * usual_statuses.size()>> usual;
    std::array<std::atomic<std::uint64_t>, protocols.size() * status_slots> rare{};
    Histogram durations;
  };
  BuildInfo build_;
  std::vector<OperationMetrics> operations_;  // sized once; the last is "other"
  Sharded<std::atomic<std::int64_t>> in_flight_;
  std::atomic<std::int64_t> connections_open_{0};
  Histogram commits_;
  std::atomic<std::int64_t> pets_stored_{0};
  std::atomic<bool> pets_stored_known_{false};
  std::atomic<bool> database_tracked_{false};
  std::atomic<std::int64_t> database_open_{0};
  std::atomic<std::int64_t> database_in_use_{0};
  Histogram database_waits_;
  Histogram database_queries_;
  std::atomic<std::uint64_t> database_lost_{0};
  std::atomic<std::uint64_t> database_reconnects_{0};
  std::atomic<std::uint64_t> replica_reads_{0};
  WordCounts<4> primary_reads_{
      {"no_replica", "replica_down", "replica_lagging", "position_unknown"}};
  std::atomic<std::uint64_t> freshness_queries_{0};
  WordCounts<4> replica_refusals_{
      {"not_a_replica", "other_cluster", "other_database", "other_timeline"}};
  WordCounts<3> commits_resolved_{{"committed", "not_committed", "unknown"}};
  std::function<std::uint64_t()> log_lines_dropped_;
};

}  // namespace petstore::adapters::metrics

#include "adapters/metrics/metrics.hpp"

#include <algorithm>
#include <charconv>
#include <utility>

namespace petstore::adapters::metrics {
namespace {

// Shortest round-trip digits without an exponent: le="0.000025", as Prometheus clients write it.
std::string number_text(double value) {
  std::array<char, 400> text{};  // room for any fixed-notation double
  const auto [end, error] =
      std::to_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed);
  return {text.data(), error == std::errc{} ? end : text.data()};
}

// Label values here are fixed literals or build strings; escaped all the same, as the format asks.
std::string escape_label(std::string_view value) {
  std::string escaped;
  for (const char c : value) {
    if (c == '\\' || c == '"') {
      escaped.push_back('\\');
      escaped.push_back(c);
    } else if (c == '\n') {
      escaped.append("\\n");
    } else {
      escaped.push_back(c);
    }
  }
  return escaped;
}

}  // namespace

void append_header(std::string& out, std::string_view name, std::string_view type,
                   std::string_view help) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

void append_sample(std::string& out, std::string_view name, std::string_view labels,
                   std::string_view value) {
  out.append(name);
  if (!labels.empty()) {
    out.append("{").append(labels).append("}");
  }
  out.append(" ").append(value).append("\n");
}

void append_scalar(std::string& out, std::string_view name, std::string_view type,
                   std::string_view help, std::string_view value) {
  append_header(out, name, type, help);
  append_sample(out, name, "", value);
}

void Histogram::observe(std::chrono::nanoseconds duration) {
  Counts& mine = counts_.mine();
  const double seconds = std::chrono::duration<double>(duration).count();
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    if (seconds <= bounds.at(i)) {
      mine.buckets.at(i).fetch_add(1, std::memory_order_relaxed);
      break;
    }
  }
  mine.sum_nanoseconds.fetch_add(
      static_cast<std::uint64_t>(std::max<std::int64_t>(0, duration.count())),
      std::memory_order_relaxed);
  mine.count.fetch_add(1, std::memory_order_relaxed);
}

void Histogram::append_exposition(std::string& out, std::string_view name,
                                  std::string_view labels) const {
  const std::string prefix = labels.empty() ? std::string() : std::string(labels) + ",";
  // The count read first, each shard's before its buckets, so the buckets stay at or below it
  // (and monotonic) under concurrent updates.
  const std::uint64_t count = counts_.sum(
      [](const Counts& counts) { return counts.count.load(std::memory_order_relaxed); });
  std::uint64_t cumulative = 0;
  const std::string bucket = std::string(name) + "_bucket";
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    cumulative = std::min(count, cumulative + counts_.sum([i](const Counts& counts) {
      return counts.buckets.at(i).load(std::memory_order_relaxed);
    }));
    append_sample(out, bucket, prefix + "le=\"" + number_text(bounds.at(i)) + "\"",
                  std::to_string(cumulative));
  }
  append_sample(out, bucket, prefix + "le=\"+Inf\"", std::to_string(count));
  const std::uint64_t sum = counts_.sum(
      [](const Counts& counts) { return counts.sum_nanoseconds.load(std::memory_order_relaxed); });
  append_sample(out, std::string(name) + "_sum", labels,
                number_text(static_cast<double>(sum) / 1e9));
  append_sample(out, std::string(name) + "_count", labels, std::to_string(count));
}

Metrics::Metrics(BuildInfo build, std::span<const std::string_view> operations)
    : build_(std::move(build)), operations_(operations.size() + 1) {
  for (std::size_t i = 0; i < operations.size(); ++i) {
    operations_.at(i).name = operations[i];
  }
  operations_.back().name = "other";
}

std::string_view Metrics::request_finished(std::string_view operation, std::string_view protocol,
                                           unsigned status, std::chrono::nanoseconds duration) {
  // A handful of names: a linear search is cheaper than hashing one.
  auto found = std::find_if(operations_.begin(), operations_.end() - 1,
                            [&](const OperationMetrics& known) { return known.name == operation; });
  const auto named = std::find(protocols.begin(), protocols.end(), protocol);
  const std::size_t by_protocol =
      named == protocols.end() ? 0 : static_cast<std::size_t>(named - protocols.begin());
  const auto usual = std::find(usual_statuses.begin(), usual_statuses.end(), status);
  if (usual != usual_statuses.end()) {
    found->usual.mine()
        .at((by_protocol * usual_statuses.size()) +
            static_cast<std::size_t>(usual - usual_statuses.begin()))
        .fetch_add(1, std::memory_order_relaxed);
  } else {
    const std::size_t slot = status >= 100 && status < status_slots ? status : 0;
    found->rare.at((by_protocol * status_slots) + slot).fetch_add(1, std::memory_order_relaxed);
  }
  found->durations.observe(duration);
  in_flight_.mine().fetch_sub(1, std::memory_order_relaxed);
  return found->name;
}

std::string Metrics::exposition() const {
  std::string out;
  append_header(out, "petstore_http_requests_total", "counter",
                "HTTP requests answered, by operation, protocol and status code.");
  for (const OperationMetrics& operation : operations_) {
    for (std::size_t by_protocol = 0; by_protocol < protocols.size(); ++by_protocol) {
      for (std::size_t status = 0; status < status_slots; ++status) {
        const auto usual = std::find(usual_statuses.begin(), usual_statuses.end(), status);
        const std::size_t index = (by_protocol * usual_statuses.size()) +
                                  static_cast<std::size_t>(usual - usual_statuses.begin());
        const auto value = usual == usual_statuses.end()
                               ? operation.rare.at((by_protocol * status_slots) + status)
                                     .load(std::memory_order_relaxed)
                               : operation.usual.sum([index](const auto& counts) {
                                   return counts.at(index).load(std::memory_order_relaxed);
                                 });
        if (value != 0) {
          append_sample(out, "petstore_http_requests_total",
                        "operation=\"" + escape_label(operation.name) + "\",protocol=\"" +
                            std::string(protocols.at(by_protocol)) + "\",status=\"" +
                            std::to_string(status) + "\"",
                        std::to_string(value));
        }
      }
    }
  }
  append_header(out, "petstore_http_request_duration_seconds", "histogram",
                "Time from a request's headers read to its response written, by operation.");
  for (const OperationMetrics& operation : operations_) {
    operation.durations.append_exposition(out, "petstore_http_request_duration_seconds",
                                          "operation=\"" + escape_label(operation.name) + "\"");
  }
  append_scalar(
      out, "petstore_http_requests_in_flight", "gauge", "Requests read and not yet answered.",
      std::to_string(
          in_flight_.sum([](const auto& count) { return count.load(std::memory_order_relaxed); })));
  append_scalar(out, "petstore_http_connections_open", "gauge", "Open client connections.",
                std::to_string(connections_open_.load(std::memory_order_relaxed)));
  if (pets_stored_known_.load(std::memory_order_acquire)) {
    append_scalar(out, "petstore_pets_stored", "gauge", "Pets in storage.",
                  std::to_string(pets_stored_.load(std::memory_order_relaxed)));
  }
  commits_.append_family(out, "petstore_storage_commit_seconds",
                         "Time of one storage commit (a group of creates, synced).");
  if (database_tracked_.load(std::memory_order_acquire)) {
    append_database(out);
  }
  if (log_lines_dropped_) {
    append_scalar(out, "petstore_log_lines_dropped_total", "counter",
                  "Log lines dropped because stdout was not being read.",
                  std::to_string(log_lines_dropped_()));
  }
  append_header(out, "petstore_build_info", "gauge", "Always 1; the labels name the build.");
  append_sample(out, "petstore_build_info",
                "version=\"" + escape_label(build_.version) + "\",revision=\"" +
                    escape_label(build_.revision) + "\"",
                "1");
  append_process_metrics(out);
  return out;
}

void Metrics::append_database(std::string& out) const {
  const auto load = [](const auto& value) {
    return std::to_string(value.load(std::memory_order_relaxed));
  };
  append_scalar(out, "petstore_database_connections_open", "gauge",
                "Database connections open (connected and set up).", load(database_open_));
  append_scalar(out, "petstore_database_connections_in_use", "gauge",
                "Database connections running statements.", load(database_in_use_));
  database_waits_.append_family(out, "petstore_database_connection_wait_seconds",
                                "Time a storage call waited for a free database connection.");
  database_queries_.append_family(out, "petstore_database_query_seconds",
                                  "Round trip of one read (get, list, count) to the database.");
  append_scalar(out, "petstore_database_connections_lost_total", "counter",
                "Open database connections that broke.", load(database_lost_));
  append_scalar(out, "petstore_database_reconnects_total", "counter",
                "Database connections made again after failing.", load(database_reconnects_));
  append_header(out, "petstore_storage_reads_total", "counter",
                "Gets and lists answered by a replica, or by the primary and why not a replica.");
  append_sample(out, "petstore_storage_reads_total", "served_by=\"replica\",reason=\"\"",
                load(replica_reads_));
  primary_reads_.append_samples(out, "petstore_storage_reads_total",
                                "served_by=\"primary\",reason=");
  append_scalar(out, "petstore_storage_freshness_queries_total", "counter",
                "Flush-position queries sent to the primary so that replicas serve fresh reads.",
                load(freshness_queries_));
  append_header(out, "petstore_storage_replica_refusals_total", "counter",
                "Replicas found not to replay the primary's history (or to be no replica), once "
                "per finding until trusted again.");
  replica_refusals_.append_samples(out, "petstore_storage_replica_refusals_total", "reason=");
  append_header(out, "petstore_storage_commit_outcomes_resolved_total", "counter",
                "Create batches whose COMMIT's answer was lost, by the outcome learned after.");
  commits_resolved_.append_samples(out, "petstore_storage_commit_outcomes_resolved_total",
                                   "outcome=");
}

}  // namespace petstore::adapters::metrics

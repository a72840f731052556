#include "adapters/metrics/read_routing.hpp"

namespace petstore::adapters::metrics {

namespace {

// slot_of: the index of `word` in `words`, or the last index when it is not there.
template <std::size_t N>
std::size_t slot_of(const std::array<std::string_view, N>& words, std::string_view word) {
  for (std::size_t i = 0; i < N; ++i) {
    if (words.at(i) == word) {
      return i;
    }
  }
  return N - 1;
}

}  // namespace

void ReadRouting::served(bool replica, std::string_view reason) {
  if (replica) {
    replica_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  primary_.at(slot_of(reasons, reason)).fetch_add(1, std::memory_order_relaxed);
}

void ReadRouting::replica_refused(std::string_view refusal) {
  refused_.at(slot_of(refusals, refusal)).fetch_add(1, std::memory_order_relaxed);
}

void ReadRouting::append_exposition(std::string& out) const {
  out.append(
      "# HELP petstore_storage_reads_total Gets and lists answered by a replica, or by the "
      "primary and why not a replica.\n"
      "# TYPE petstore_storage_reads_total counter\n");
  out.append("petstore_storage_reads_total{served_by=\"replica\",reason=\"\"} ")
      .append(std::to_string(replica_.load(std::memory_order_relaxed)))
      .append("\n");
  for (std::size_t i = 0; i < reasons.size(); ++i) {
    out.append("petstore_storage_reads_total{served_by=\"primary\",reason=\"")
        .append(reasons.at(i))
        .append("\"} ")
        .append(std::to_string(primary_.at(i).load(std::memory_order_relaxed)))
        .append("\n");
  }
  out.append(
         "# HELP petstore_storage_freshness_queries_total Flush-position queries sent to the "
         "primary "
         "so that replicas serve fresh reads.\n"
         "# TYPE petstore_storage_freshness_queries_total counter\n"
         "petstore_storage_freshness_queries_total ")
      .append(std::to_string(positions_.load(std::memory_order_relaxed)))
      .append("\n");
  out.append(
      "# HELP petstore_storage_replica_refusals_total Replicas found not to replay the "
      "primary's history (or to be no replica), once per finding until trusted again.\n"
      "# TYPE petstore_storage_replica_refusals_total counter\n");
  for (std::size_t i = 0; i < refusals.size(); ++i) {
    out.append("petstore_storage_replica_refusals_total{reason=\"")
        .append(refusals.at(i))
        .append("\"} ")
        .append(std::to_string(refused_.at(i).load(std::memory_order_relaxed)))
        .append("\n");
  }
}

}  // namespace petstore::adapters::metrics

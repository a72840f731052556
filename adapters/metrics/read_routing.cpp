#include "adapters/metrics/read_routing.hpp"

namespace petstore::adapters::metrics {

void ReadRouting::served(bool replica, std::string_view reason) {
  if (replica) {
    replica_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  std::size_t slot = reasons.size() - 1;
  for (std::size_t i = 0; i < reasons.size(); ++i) {
    if (reasons.at(i) == reason) {
      slot = i;
    }
  }
  primary_.at(slot).fetch_add(1, std::memory_order_relaxed);
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
}

}  // namespace petstore::adapters::metrics

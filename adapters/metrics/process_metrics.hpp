#pragma once
// The standard process metrics that Prometheus client libraries export on Linux, read from
// /proc at scrape time: process_cpu_seconds_total, process_resident_memory_bytes,
// process_virtual_memory_bytes, process_open_fds, process_max_fds, process_start_time_seconds.
// A value /proc does not give (a hardened sandbox) is left out rather than guessed.

#include <string>

namespace petstore::adapters::metrics {

// append_process_metrics: their HELP, TYPE and sample lines, for this process.
void append_process_metrics(std::string& out);

}  // namespace petstore::adapters::metrics

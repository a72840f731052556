#pragma once
// The standard Linux process metrics of Prometheus client libraries, read from /proc at scrape
// time. A value /proc does not give (a hardened sandbox) is left out rather than guessed.

#include <string>

namespace petstore::adapters::metrics {

// append_process_metrics: their HELP, TYPE and sample lines, for this process.
void append_process_metrics(std::string& out);

}  // namespace petstore::adapters::metrics

#pragma once
// ServiceObserver: what the HTTP server reports about connections and requests, turned into
// metrics and request log lines. The one place that joins the logging and metrics adapters.

#include <string>
#include <string_view>

#include "adapters/http/server/http_observer.hpp"
#include "adapters/logging/logger.hpp"
#include "adapters/metrics/metrics.hpp"

namespace petstore::bootstrap {

class ServiceObserver final : public adapters::http::HttpObserver {
 public:
  ServiceObserver(adapters::metrics::Metrics& metrics, adapters::logging::Logger& logger)
      : metrics_(metrics), logger_(logger) {}

  void connection_opened() override { metrics_.connection_opened(); }
  void connection_closed() override { metrics_.connection_closed(); }
  void connection_failed() override {
    logger_.error("connection_error",
                  {{"message", "a connection closed after an unexpected error"}});
  }
  void request_started() override { metrics_.request_started(); }
  void request_finished(const adapters::http::ExchangeRecord& record) override {
    // Named by the metric's own label ("other" when none), so the log's operations are its values.
    const std::string_view operation = metrics_.request_finished(record.operation, record.protocol,
                                                                 record.status, record.duration);
    // Probes, every few seconds from every balancer, would drown the rest. A failed call's line is
    // an error, so that an errors-only log still says what failed, and for which request.
    using adapters::logging::LogLevel;
    const bool probe = operation == "getHealth" || operation == "getReadiness";
    const LogLevel level =
        !record.fault.empty() ? LogLevel::error : (probe ? LogLevel::debug : LogLevel::info);
    logger_.request(
        adapters::logging::RequestLine{record.request_id, record.trace_id, record.span_id,
                                       record.method, record.protocol, record.route, operation,
                                       record.client_address, record.principal, record.key_label,
                                       record.status, record.duration, record.bytes, record.fault},
        level);
  }
  void accept_failing(std::string_view reason) override {
    // Once per episode: the server retries every 50 ms, and a line per retry would flood.
    const std::string message = "cannot accept connections (" + std::string(reason) +
                                "); retrying every 50 ms until it works again";
    logger_.error("accept_failing", {{"message", message}});
  }
  void accept_resumed() override {
    logger_.info("accept_resumed", {{"message", "accepting connections again"}});
  }

 private:
  adapters::metrics::Metrics& metrics_;
  adapters::logging::Logger& logger_;
};

}  // namespace petstore::bootstrap

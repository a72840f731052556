#pragma once
// ServiceObserver: what the HTTP server reports about connections and requests, turned into
// metrics and request log lines. The one place that joins the logging and metrics adapters.

#include "adapters/http/http_observer.hpp"
#include "adapters/logging/logger.hpp"
#include "adapters/metrics/metrics.hpp"

namespace petstore::bootstrap {

class ServiceObserver final : public adapters::http::HttpObserver {
 public:
  ServiceObserver(adapters::metrics::Metrics& metrics, adapters::logging::Logger& logger)
      : metrics_(metrics), logger_(logger) {}

  // HttpObserver
  void connection_opened() override { metrics_.connection_opened(); }
  // HttpObserver
  void connection_closed() override { metrics_.connection_closed(); }
  // HttpObserver
  void connection_failed() override {
    logger_.error("connection_error",
                  {{"message", "a connection closed after an unexpected error"}});
  }
  // HttpObserver
  void request_started() override { metrics_.request_started(); }
  // HttpObserver
  void request_finished(const adapters::http::ExchangeRecord& record) override {
    metrics_.request_finished(adapters::metrics::operation_of(record.method, record.route),
                              record.status, record.duration);
    logger_.request(adapters::logging::RequestLine{record.request_id, record.method, record.route,
                                                   record.status, record.duration, record.bytes});
  }

 private:
  adapters::metrics::Metrics& metrics_;
  adapters::logging::Logger& logger_;
};

}  // namespace petstore::bootstrap

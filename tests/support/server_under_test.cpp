#include "support/server_under_test.hpp"

#include <chrono>
#include <stdexcept>
#include <utility>

#include "support/fake_key_verifier.hpp"

namespace petstore::tests {

ServerUnderTest::ServerUnderTest(const ServerSetup& setup) {
  auto clock = std::make_unique<FakeClock>();
  clock_ = clock.get();
  if (setup.make_pets) {
    service_ = std::make_unique<bootstrap::Service>(
        bootstrap::ServiceParts{setup.make_pets(), make_fake_key_verifier(), std::move(clock)},
        setup.settings);
    service_->set_ready(true);
  } else {
    service_ = bootstrap::build_component_service(make_fake_key_verifier(), std::move(clock),
                                                  setup.settings);
  }
  adapters::http::HttpServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.threads = setup.threads;
  options.limits = setup.limits;
  options.tls = setup.tls;
  options.http2 = setup.http2;
  auto server = adapters::http::start_http_server(options, service_->router());
  if (!server) {
    throw std::runtime_error("the server did not start: " + server.error().message);
  }
  server_ = std::move(*server);
  address_ = server_->local_address();
}

ServerUnderTest::~ServerUnderTest() {
  // Each test closes its connections before this runs; draining first lets the server notice
  // those closes, so that no test depends on how the server tears down open connections (a
  // concern of its own, tested in http_server_drain_test.cpp).
  server_->drain();
  static_cast<void>(server_->wait_until_idle(std::chrono::seconds(5)));
  server_->stop();
  server_.reset();
  service_.reset();
}

}  // namespace petstore::tests

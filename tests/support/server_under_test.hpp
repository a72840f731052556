#pragma once
// ServerUnderTest: the whole service on memory storage, test keys and a fake clock, served over
// real HTTP on 127.0.0.1 with a free port and the limits a test chooses. On destruction the
// server drains (up to 5 s for the connections still open), stops and joins its threads, all
// before the service it serves is destroyed.

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "adapters/http/server/http_server.hpp"
#include "bootstrap/service.hpp"
#include "support/fake_clock.hpp"
#include "support/raw_http_connection.hpp"

namespace petstore::tests {

// ServerSetup: what a test may choose beyond the limits: threads, TLS, service settings, the
// storage (empty memory storage when `make_pets` is unset), and whether HTTP/2 is on.
struct ServerSetup {
  adapters::http::HttpLimits limits;
  unsigned threads = 2;
  std::optional<adapters::http::TlsFiles> tls;
  bootstrap::ServiceSettings settings;
  std::function<std::unique_ptr<ports::PetRepository>()> make_pets;
  bool http2 = true;
};

class ServerUnderTest {
 public:
  // Starts serving at once; throws std::runtime_error when the server cannot listen.
  explicit ServerUnderTest(adapters::http::HttpLimits limits = {}, unsigned threads = 2)
      : ServerUnderTest(ServerSetup{limits, threads, std::nullopt, {}, {}}) {}
  explicit ServerUnderTest(const ServerSetup& setup);
  ServerUnderTest(const ServerUnderTest&) = delete;
  ServerUnderTest& operator=(const ServerUnderTest&) = delete;
  ~ServerUnderTest();

  // address: "127.0.0.1:PORT", with the port the server got.
  [[nodiscard]] const std::string& address() const { return address_; }
  [[nodiscard]] adapters::http::HttpServer& server() { return *server_; }
  [[nodiscard]] FakeClock& clock() { return *clock_; }

  // connect: a new raw connection to the server.
  [[nodiscard]] RawConnection connect(int receive_buffer = 0) const {
    return RawConnection::connect(address_, receive_buffer);
  }

 private:
  FakeClock* clock_ = nullptr;  // owned by service_
  std::unique_ptr<bootstrap::Service> service_;
  std::unique_ptr<adapters::http::HttpServer> server_;
  std::string address_;
};

}  // namespace petstore::tests

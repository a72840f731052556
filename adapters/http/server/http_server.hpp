#pragma once
// HttpServer: serves a Router over HTTP/1.1 with keep-alive and pipelining, and over HTTP/2
// (h2_protocol.hpp), on one io_context per thread. Its options are contract section 2's limits and
// timeouts. Beast and Asio stay inside its .cpp files.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "adapters/http/api/router.hpp"
#include "adapters/http/server/http_observer.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::http {

struct HttpLimits {
  std::size_t body_bytes = std::size_t{64} * 1024;
  std::size_t header_bytes = std::size_t{16} * 1024;
  std::chrono::milliseconds header_timeout{std::chrono::seconds(10)};
  std::chrono::milliseconds body_timeout{std::chrono::seconds(30)};
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(60)};
  // A response the client does not read within this time closes the connection.
  std::chrono::milliseconds write_timeout{std::chrono::seconds(30)};
  // A request whose answer storage has not given within this time is answered 503.
  std::chrono::milliseconds storage_timeout{std::chrono::seconds(5)};
  std::size_t max_connections = 10'000;
};

// TlsFiles: where the certificate chain and its private key are, both PEM.
struct TlsFiles {
  std::filesystem::path certificate_chain;
  std::filesystem::path private_key;
};

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;  // 0: any free port
  unsigned threads = 1;
  HttpLimits limits;
  std::optional<TlsFiles> tls;  // HTTPS when set; the handshake has the header timeout
  // observer: when set, told of connections and requests; outlives the server.
  HttpObserver* observer = nullptr;
  // HTTP/2 beside HTTP/1.1: h2c with prior knowledge on plain connections, h2 by ALPN over TLS.
  bool http2 = true;
};

class HttpServer {
 public:
  HttpServer() = default;
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  virtual ~HttpServer() = default;  // stops at once, as stop() does

  // The address it listens on, with the real port: "127.0.0.1:8080", "[::1]:8080".
  [[nodiscard]] virtual std::string local_address() const = 0;

  // drain: stops accepting; each connection closes once its request in flight is answered.
  // Returns at once.
  virtual void drain() = 0;

  // wait_until_idle: blocks until no connection is open or `timeout` passes; true when idle.
  [[nodiscard]] virtual bool wait_until_idle(std::chrono::milliseconds timeout) = 0;

  // refuse_waiting_requests: for a drain out of time: every request waiting for storage, now or
  // later, is answered 503 with Connection: close; storage's later answer is dropped. A request
  // still arriving or a response being written is left as it is. Drains too. Returns at once.
  virtual void refuse_waiting_requests() = 0;

  // reload_tls: re-reads the certificate and key for new connections; on failure the old ones
  // stay in use. Succeeds at once without TLS.
  [[nodiscard]] virtual domain::Result<void> reload_tls() = 0;

  // stop: closes everything now and joins the threads. Idempotent.
  virtual void stop() = 0;
};

// start_http_server: binds, listens and serves `router`. Errors, one line each: invalid_argument
// for TLS files that cannot be used; unavailable when the address cannot be listened on.
[[nodiscard]] domain::Result<std::unique_ptr<HttpServer>> start_http_server(
    const HttpServerOptions& options, const Router& router);

}  // namespace petstore::adapters::http

#pragma once
// TlsContext: the server's TLS settings and certificate, reloadable while serving
// (docs/decisions/tls-settings.md). Each new connection takes the context current at its accept.
// ALPN (RFC 7301) chooses h2 when the client offers it and HTTP/2 is on, else http/1.1.

#include <filesystem>
#include <memory>
#include <mutex>

#include <boost/asio/ssl/context.hpp>

#include "adapters/http/server/http_server.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::http {

class TlsContext {
 public:
  // load: a context from `files`, offering h2 by ALPN when `http2`; invalid_argument with one line
  // when they cannot be used.
  [[nodiscard]] static domain::Result<std::unique_ptr<TlsContext>> load(const TlsFiles& files,
                                                                        bool http2);

  // current: the context for a new connection; it stays alive as long as the connection holds it.
  [[nodiscard]] std::shared_ptr<boost::asio::ssl::context> current() const;

  // reload: reads the files again; on failure the current context stays in use.
  [[nodiscard]] domain::Result<void> reload();

 private:
  TlsContext(TlsFiles files, bool http2, std::shared_ptr<boost::asio::ssl::context> context)
      : files_(std::move(files)), http2_(http2), context_(std::move(context)) {}

  const TlsFiles files_;
  const bool http2_;
  mutable std::mutex mutex_;
  std::shared_ptr<boost::asio::ssl::context> context_;
};

// chose_h2: whether a connection's handshake chose HTTP/2 by ALPN (a TlsContext offers it).
[[nodiscard]] bool chose_h2(const SSL* connection);

}  // namespace petstore::adapters::http

#include "adapters/http/server/http_server.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "adapters/http/server/connection.hpp"
#include "adapters/http/server/h2_session.hpp"
#include "adapters/http/server/session.hpp"
#include "adapters/http/server/tls_context.hpp"

namespace petstore::adapters::http {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
using Tcp = asio::ip::tcp;
using TlsStream = beast::ssl_stream<DeadlineStream>;

constexpr std::chrono::seconds tls_shutdown_timeout{2};

std::string format_endpoint(const Tcp::endpoint& endpoint) {
  const auto address = endpoint.address();
  const std::string host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  return host + ":" + std::to_string(endpoint.port());
}

class BeastHttpServer final : public HttpServer {
 public:
  BeastHttpServer(const HttpServerOptions& options, const Router& router,
                  std::unique_ptr<TlsContext> tls)
      : options_(options),
        router_(router),
        tls_(std::move(tls)),
        contexts_(make_contexts(options.threads)),
        accept_strand_(asio::make_strand(*contexts_.front())),
        acceptor_(accept_strand_),
        registry_(options.limits.max_connections) {}

  ~BeastHttpServer() override { stop(); }

  domain::Result<void> listen() {
    boost::system::error_code error;
    const std::string host = options_.host == "localhost" ? "127.0.0.1" : options_.host;
    const auto address = asio::ip::make_address(host, error);
    if (error) {
      return unavailable("cannot listen on " + options_.host + ": not an IP address");
    }
    const Tcp::endpoint endpoint{address, options_.port};
    try {
      acceptor_.open(endpoint.protocol());
      acceptor_.set_option(asio::socket_base::reuse_address(true));
      acceptor_.bind(endpoint);
      acceptor_.listen(asio::socket_base::max_listen_connections);
    } catch (const boost::system::system_error& failure) {
      return unavailable("cannot listen on " + format_endpoint(endpoint) + ": " +
                         failure.code().message());
    }
    return {};
  }

  void run_threads() {
    asio::co_spawn(accept_strand_, accept_loop(), asio::detached);
    for (const auto& context : contexts_) {
      // Until stop(): a context that holds no connection yet must not end its thread.
      keep_running_.push_back(asio::make_work_guard(*context));
      threads_.emplace_back([&context = *context] { context.run(); });
    }
  }

  [[nodiscard]] std::string local_address() const override {
    boost::system::error_code error;
    return format_endpoint(acceptor_.local_endpoint(error));
  }

  void drain() override {
    asio::post(accept_strand_, [this] {
      boost::system::error_code ignored;
      acceptor_.close(ignored);
    });
    registry_.drain();
  }

  [[nodiscard]] bool wait_until_idle(std::chrono::milliseconds timeout) override {
    return registry_.wait_until_empty(timeout);
  }

  void refuse_waiting_requests() override { registry_.refuse_waiting_requests(); }

  [[nodiscard]] domain::Result<void> reload_tls() override {
    return tls_ ? tls_->reload() : domain::Result<void>{};
  }

  void stop() override {
    const std::lock_guard lock(stop_mutex_);
    for (const auto& context : contexts_) {
      context->stop();
    }
    for (auto& thread : threads_) {
      thread.join();
    }
    threads_.clear();
    keep_running_.clear();
    // No thread runs a context now, so their sockets may be closed from here.
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    registry_.close_all();
  }

 private:
  static domain::Error unavailable(std::string message) {
    return domain::make_error(domain::ErrorCode::unavailable, "listen", std::move(message));
  }

  [[nodiscard]] SessionContext session_context() {
    return SessionContext{router_, options_.limits, registry_, options_.observer, options_.http2};
  }

  // One io_context a thread (concurrency hint 1), connections dealt in turn, no strand:
  // docs/decisions/io-context-per-thread.md.
  static std::vector<std::unique_ptr<asio::io_context>> make_contexts(unsigned threads) {
    std::vector<std::unique_ptr<asio::io_context>> contexts;
    for (unsigned i = 0; i < std::max(1U, threads); ++i) {
      contexts.push_back(std::make_unique<asio::io_context>(1));
    }
    return contexts;
  }

  asio::awaitable<void> accept_loop() {
    bool failing = false;  // within an episode of failed accepts, told to the observer once
    for (std::size_t next = 0;; next = (next + 1) % contexts_.size()) {  // contexts in turn
      auto [error, socket] =
          co_await acceptor_.async_accept(contexts_[next]->get_executor(), use_tuple);
      if (error == asio::error::operation_aborted || !acceptor_.is_open()) {
        co_return;
      }
      if (error) {
        if (!failing && options_.observer != nullptr) {
          options_.observer->accept_failing(error.message());
        }
        failing = true;
        // Out of file descriptors, most likely: let some connections close before trying again.
        asio::steady_timer pause(accept_strand_, std::chrono::milliseconds(50));
        co_await pause.async_wait(use_tuple);
        continue;
      }
      if (failing && options_.observer != nullptr) {
        options_.observer->accept_resumed();
      }
      failing = false;
      if (tls_) {
        auto tls_context = tls_->current();
        auto& context = *tls_context;
        start(std::make_shared<Connection<TlsStream>>(std::move(tls_context), std::move(socket),
                                                      context));
      } else {
        start(std::make_shared<Connection<DeadlineStream>>(nullptr, std::move(socket)));
      }
    }
  }

  template <class Stream>
  void start(const std::shared_ptr<Connection<Stream>>& connection) {
    boost::system::error_code error;
    const auto peer = beast::get_lowest_layer(connection->stream()).socket().remote_endpoint(error);
    connection->state().client_address = error ? "unknown" : peer.address().to_string();
    if (!registry_.add(connection)) {
      beast::get_lowest_layer(connection->stream()).close();  // over the cap, or draining
      return;
    }
    if (options_.observer != nullptr) {
      options_.observer->connection_opened();
    }
    const auto executor = connection->stream().get_executor();
    asio::co_spawn(executor, serve(connection),
                   [this, connection](const std::exception_ptr& failure) {
                     // Failures too go to the observer alone: the adapter never writes to a
                     // stream of the process's own choosing.
                     if (options_.observer != nullptr) {
                       if (failure) {
                         options_.observer->connection_failed();
                       }
                       options_.observer->connection_closed();
                     }
                     registry_.remove(connection);
                   });
  }

  asio::awaitable<void> serve(std::shared_ptr<Connection<DeadlineStream>> connection) {
    auto& stream = connection->stream();
    std::string h2_received;
    {
      Session<DeadlineStream> session(stream, connection->state(), session_context());
      co_await session.run();
      h2_received = std::move(session).h2_preface();
    }
    if (!h2_received.empty()) {
      Http2Session<DeadlineStream> session(stream, connection->state(), session_context());
      co_await session.run(std::move(h2_received));
    }
    boost::system::error_code ignored;
    stream.socket().shutdown(asio::socket_base::shutdown_send, ignored);
  }

  asio::awaitable<void> serve(std::shared_ptr<Connection<TlsStream>> connection) {
    auto& stream = connection->stream();
    auto& socket_layer = beast::get_lowest_layer(stream);
    socket_layer.expires_after(options_.limits.header_timeout);
    const auto [handshake_error] =
        co_await stream.async_handshake(asio::ssl::stream_base::server, use_tuple);
    if (handshake_error) {
      co_return;  // not TLS, a refused protocol version, or too slow
    }
    if (chose_h2(stream.native_handle())) {
      Http2Session<TlsStream> session(stream, connection->state(), session_context());
      co_await session.run({});
    } else {
      Session<TlsStream> session(stream, connection->state(), session_context());
      co_await session.run();
    }
    socket_layer.expires_after(tls_shutdown_timeout);
    co_await stream.async_shutdown(use_tuple);
  }

  const HttpServerOptions options_;
  const Router& router_;
  std::unique_ptr<TlsContext> tls_;
  std::vector<std::unique_ptr<asio::io_context>> contexts_;
  // The acceptor's strand (on the first context): accepts and drain's close never overlap.
  asio::strand<asio::io_context::executor_type> accept_strand_;
  Tcp::acceptor acceptor_;
  // After the io_contexts: the connections they still hold must close before the contexts go.
  ConnectionRegistry registry_;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> keep_running_;
  std::vector<std::thread> threads_;
  std::mutex stop_mutex_;
};

}  // namespace

domain::Result<std::unique_ptr<HttpServer>> start_http_server(const HttpServerOptions& options,
                                                              const Router& router) {
  std::unique_ptr<TlsContext> tls;
  if (options.tls) {
    auto loaded = TlsContext::load(*options.tls, options.http2);
    if (!loaded) {
      return loaded.error();
    }
    tls = std::move(*loaded);
  }
  auto server = std::make_unique<BeastHttpServer>(options, router, std::move(tls));
  if (auto listening = server->listen(); !listening) {
    return listening.error();
  }
  server->run_threads();
  return std::unique_ptr<HttpServer>(std::move(server));
}

}  // namespace petstore::adapters::http

#include "adapters/http/http_server.hpp"

#include <exception>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/tcp_stream.hpp>

#include "adapters/http/session.hpp"

namespace petstore::adapters::http {
namespace {

namespace asio = boost::asio;
using Tcp = asio::ip::tcp;

// TcpConnection: a plain TCP connection, registered so that draining can close it when idle.
class TcpConnection final : public ConnectionControl,
                            public std::enable_shared_from_this<TcpConnection> {
 public:
  explicit TcpConnection(Tcp::socket socket) : stream_(std::move(socket)) {}

  // ConnectionControl
  void close_if_idle() override {
    asio::post(stream_.get_executor(), [self = shared_from_this()] {
      if (self->state_.idle) {
        self->stream_.close();
      }
    });
  }

  boost::beast::tcp_stream& stream() { return stream_; }
  ConnectionState& state() { return state_; }

 private:
  boost::beast::tcp_stream stream_;
  ConnectionState state_;
};

std::string format_endpoint(const Tcp::endpoint& endpoint) {
  const auto address = endpoint.address();
  const std::string host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  return host + ":" + std::to_string(endpoint.port());
}

class BeastHttpServer final : public HttpServer {
 public:
  BeastHttpServer(const HttpServerOptions& options, const Router& router)
      : options_(options),
        router_(router),
        registry_(options.limits.max_connections),
        acceptor_(context_) {}

  ~BeastHttpServer() override { stop(); }

  domain::Result<void> listen() {
    boost::system::error_code error;
    const auto address = resolve_host(error);
    if (error) {
      return unavailable("cannot resolve listen host " + options_.host);
    }
    const Tcp::endpoint endpoint{address, options_.port};
    const std::string where = format_endpoint(endpoint);
    acceptor_.open(endpoint.protocol(), error);
    if (!error) {
      acceptor_.set_option(asio::socket_base::reuse_address(true), error);
    }
    if (!error) {
      acceptor_.bind(endpoint, error);
    }
    if (!error) {
      acceptor_.listen(asio::socket_base::max_listen_connections, error);
    }
    if (error) {
      return unavailable("cannot listen on " + where + ": " + error.message());
    }
    return {};
  }

  void run_threads() {
    asio::co_spawn(context_, accept_loop(), asio::detached);
    const unsigned count = std::max(1U, options_.threads);
    for (unsigned i = 0; i < count; ++i) {
      threads_.emplace_back([this] { context_.run(); });
    }
  }

  // HttpServer
  [[nodiscard]] std::string local_address() const override {
    boost::system::error_code error;
    return format_endpoint(acceptor_.local_endpoint(error));
  }

  // HttpServer
  void drain() override {
    asio::post(context_, [this] {
      boost::system::error_code ignored;
      acceptor_.close(ignored);
    });
    registry_.drain();
  }

  // HttpServer
  [[nodiscard]] bool wait_until_idle(std::chrono::milliseconds timeout) override {
    return registry_.wait_until_empty(timeout);
  }

  // HttpServer
  void stop() override {
    const std::lock_guard lock(stop_mutex_);
    context_.stop();
    for (auto& thread : threads_) {
      thread.join();
    }
    threads_.clear();
  }

 private:
  static domain::Error unavailable(std::string message) {
    return domain::make_error(domain::ErrorCode::unavailable, "listen", std::move(message));
  }

  asio::ip::address resolve_host(boost::system::error_code& error) {
    const std::string host = options_.host == "localhost" ? "127.0.0.1" : options_.host;
    return asio::ip::make_address(host, error);
  }

  asio::awaitable<void> accept_loop() {
    for (;;) {
      auto [error, socket] = co_await acceptor_.async_accept(asio::make_strand(context_),
                                                             asio::as_tuple(asio::use_awaitable));
      if (error == asio::error::operation_aborted || !acceptor_.is_open()) {
        co_return;
      }
      if (error) {
        // Out of file descriptors, most likely: let some connections close before trying again.
        asio::steady_timer pause(context_, std::chrono::milliseconds(50));
        co_await pause.async_wait(asio::as_tuple(asio::use_awaitable));
        continue;
      }
      auto connection = std::make_shared<TcpConnection>(std::move(socket));
      if (!registry_.add(connection)) {
        connection->stream().close();  // over the connection cap, or draining
        continue;
      }
      const auto executor = connection->stream().get_executor();
      asio::co_spawn(executor, serve(connection),
                     [this, connection](const std::exception_ptr& failure) {
                       if (failure) {
                         std::cerr << "connection closed after an unexpected error\n";
                       }
                       registry_.remove(connection);
                     });
    }
  }

  asio::awaitable<void> serve(std::shared_ptr<TcpConnection> connection) {
    co_await serve_connection(connection->stream(), connection->state(),
                              SessionContext{router_, options_.limits, registry_});
  }

  const HttpServerOptions options_;
  const Router& router_;
  ConnectionRegistry registry_;
  asio::io_context context_;
  Tcp::acceptor acceptor_;
  std::vector<std::thread> threads_;
  std::mutex stop_mutex_;
};

}  // namespace

domain::Result<std::unique_ptr<HttpServer>> start_http_server(const HttpServerOptions& options,
                                                              const Router& router) {
  auto server = std::make_unique<BeastHttpServer>(options, router);
  if (auto listening = server->listen(); !listening) {
    return listening.error();
  }
  server->run_threads();
  return std::unique_ptr<HttpServer>(std::move(server));
}

}  // namespace petstore::adapters::http

#pragma once
// Connection: the registry's asks (ConnectionControl) come from any thread and are carried out on
// the connection's own executor, where its session runs. Only http_server.cpp includes it.

#include <memory>
#include <utility>

#include <boost/asio/post.hpp>
#include <boost/beast/core/stream_traits.hpp>

#include "adapters/http/server/connection_registry.hpp"
#include "adapters/http/server/session.hpp"

namespace petstore::adapters::http {

// Connection: one accepted connection over `Stream`. `context_` keeps a TLS connection's context
// alive after a reload replaced it.
template <class Stream>
class Connection final : public ConnectionControl,
                         public std::enable_shared_from_this<Connection<Stream>> {
 public:
  template <class... StreamArguments>
  explicit Connection(std::shared_ptr<void> context, StreamArguments&&... arguments)
      : context_(std::move(context)), stream_(std::forward<StreamArguments>(arguments)...) {}

  void close_if_idle() override {
    boost::asio::post(stream_.get_executor(), [self = this->shared_from_this()] {
      if (self->state_.streams != nullptr) {
        self->state_.streams->drain();
      } else if (self->state_.idle) {
        boost::beast::get_lowest_layer(self->stream_).close();
      }
    });
  }

  void close_now() override { boost::beast::get_lowest_layer(stream_).close(); }

  void refuse_waiting_request() override {
    boost::asio::post(stream_.get_executor(), [self = this->shared_from_this()] {
      if (self->state_.streams != nullptr) {
        self->state_.streams->refuse_waiting();
      } else if (self->state_.waiting != nullptr) {
        self->state_.waiting->refuse_for_stop();
      }
    });
  }

  Stream& stream() { return stream_; }
  ConnectionState& state() { return state_; }

 private:
  std::shared_ptr<void> context_;
  Stream stream_;
  ConnectionState state_;
};

}  // namespace petstore::adapters::http

#pragma once
// What a connection's protocol (the HTTP/1.1 Session, the HTTP/2 Http2Session) is given and
// shares with the registry's asks (connection.hpp). Free of Beast and Asio.

#include <string>

#include "adapters/http/api/router.hpp"
#include "adapters/http/server/connection_registry.hpp"
#include "adapters/http/server/http_observer.hpp"
#include "adapters/http/server/http_server.hpp"

namespace petstore::adapters::http {

class ResponseSlot;

struct SessionContext {
  const Router& router;
  const HttpLimits& limits;
  ConnectionRegistry& registry;
  HttpObserver* observer = nullptr;
  bool http2 = true;  // a plain connection may begin with HTTP/2's preface
};

// StreamsControl: how a connection carrying many requests at once (HTTP/2) takes the registry's
// asks itself. On the connection's executor only.
class StreamsControl {
 public:
  StreamsControl() = default;
  StreamsControl(const StreamsControl&) = delete;
  StreamsControl& operator=(const StreamsControl&) = delete;
  virtual ~StreamsControl() = default;
  virtual void drain() = 0;
  virtual void refuse_waiting() = 0;
};

// ConnectionState: shared with the registry's asks, on the connection's executor only.
struct ConnectionState {
  bool idle = true;
  std::string client_address;         // set once, before the session starts
  ResponseSlot* waiting = nullptr;    // the slot of the request waiting for storage, while it waits
  StreamsControl* streams = nullptr;  // an HTTP/2 connection's, while it serves
};

}  // namespace petstore::adapters::http

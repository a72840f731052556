#pragma once
// ServiceNotifier: tells the service manager how start-up and shutdown go, by the datagram
// protocol of sd_notify(3) (a stable interface, so no libsystemd is needed): "READY=1" once the
// service listens, "STOPPING=1" when it begins to drain. Without NOTIFY_SOCKET in the environment
// (not started by systemd with Type=notify) it does nothing.

#include <string>
#include <string_view>
#include <utility>

namespace petstore::adapters::systemd {

class ServiceNotifier {
 public:
  // from_environment: a notifier for $NOTIFY_SOCKET ("/run/..." or "@abstract"), if set.
  [[nodiscard]] static ServiceNotifier from_environment();
  explicit ServiceNotifier(std::string socket_path) : socket_path_(std::move(socket_path)) {}

  // notify: sends `state` ("READY=1", "STOPPING=1", "STATUS=..." lines); false when there is no
  // socket to tell or the datagram could not be sent. Never blocks: the service goes on either way.
  bool notify(std::string_view state) const;

 private:
  std::string socket_path_;  // empty: nobody to tell
};

}  // namespace petstore::adapters::systemd

#pragma once
// PostgresCuttingProxy: a Unix-socket proxy in front of a real PostgresServer that forwards every
// byte both ways and, when armed, ends the next connection at a chosen server message: just
// before or just after a CommandComplete with a given tag (say "COMMIT"). So a test can lose a
// connection at the one moment that matters (a COMMIT's answer sent or not) without timing it.
// It reads the server's side message by message (a type byte and a length: the protocol's framing
// after start-up, as on a Unix socket there is no SSL or GSS negotiation). One thread forwards
// with blocking sends: enough for a test's small exchanges, not for a client that stops reading.
// stall() turns it into a black hole: nothing is forwarded either way and new connections wait
// unanswered (a database that stops answering without closing anything), until it is resumed.
// refuse() makes it a front for a dead node: every connection, open or new, is closed, or reset
// (closed with the client's start-up bytes unread, so that the client's next read fails with
// ECONNRESET).

#include <atomic>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace petstore::tests {

class PostgresServer;

class PostgresCuttingProxy {
 public:
  enum class Cut {
    before,             // the answer never arrives
    after,              // the answer arrives, then the connection ends
    after_then_fatal,   // the answer, then a fast shutdown's FATAL error (57P01), then the end
    before_then_stall,  // the answer never arrives, and the proxy stalls (see stall()) at once
  };

  enum class Refusal { none, close, reset };

  // Listens in a directory of its own and forwards to `server`'s socket; throws
  // std::runtime_error when it cannot listen.
  explicit PostgresCuttingProxy(const PostgresServer& server);
  PostgresCuttingProxy(const PostgresCuttingProxy&) = delete;
  PostgresCuttingProxy& operator=(const PostgresCuttingProxy&) = delete;
  ~PostgresCuttingProxy();

  // url: a libpq URI of `database` through this proxy (user petstore).
  [[nodiscard]] std::string url(const std::string& database) const;

  // arm: the next CommandComplete tagged `tag` on any connection ends that connection (both
  // sides closed) `when` it would be forwarded; later ones pass.
  void arm(Cut when, std::string tag);
  // stall: from now on nothing is forwarded and nobody new is answered, until stall(false).
  void stall(bool stalled) { stalled_.store(stalled); }
  // refuse: from now on every connection is ended as `how` says (none: forwarded again).
  void refuse(Refusal how) { refusal_.store(how); }
  // socket_dir: the directory of its socket (libpq's `host`).
  [[nodiscard]] const std::filesystem::path& socket_dir() const { return dir_; }
  // cuts: how many connections it has ended so far.
  [[nodiscard]] int cuts() const { return cuts_.load(); }
  // sent: every byte the clients have sent through it so far (statements' texts among them).
  [[nodiscard]] std::string sent() const {
    const std::lock_guard lock(mutex_);
    return sent_;
  }

 private:
  struct Armed {
    Cut when;
    std::string tag;
  };
  void serve();
  void close_all();
  // take_armed: the cut armed for a CommandComplete tagged `tag`, disarmed as it is taken.
  std::optional<Cut> take_armed(const std::string& tag);

  std::filesystem::path dir_;
  std::filesystem::path server_socket_;
  int listener_ = -1;
  int stop_pipe_[2] = {-1, -1};
  mutable std::mutex mutex_;
  std::optional<Armed> armed_;
  std::string sent_;  // guarded by mutex_
  std::atomic<int> cuts_{0};
  std::atomic<bool> stalled_{false};
  std::atomic<Refusal> refusal_{Refusal::none};
  std::thread thread_;
};

}  // namespace petstore::tests

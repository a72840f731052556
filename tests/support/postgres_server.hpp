#pragma once
// PostgresServer: a PostgreSQL server of the test's own: `initdb` into a fresh temporary
// directory, then `postgres` listening only on a Unix socket in that directory (no TCP port at
// all). When the test runs as root, both run as `nobody` (PostgreSQL refuses root) in a directory
// handed to it. The server is stopped by its PID when the object goes, and is killed with the
// thread that started it should the test process die first, so no server outlives its test.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace petstore::tests {

class PostgresServer {
 public:
  // Starts a fresh cluster; throws std::runtime_error, with the server's log, when it cannot.
  PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;
  ~PostgresServer();

  // A streaming standby of `primary` (pg_basebackup -R from its socket), on a socket directory of
  // its own: a hot standby, answering reads and refusing writes until promoted.
  struct StandbyOf {
    const PostgresServer& primary;
  };
  explicit PostgresServer(StandbyOf standby);
  // A fresh cluster whose server starts with these settings too ("name=value", after the
  // defaults, so that they win: "fsync=on" say).
  struct WithSettings {
    std::vector<std::string> settings;
  };
  explicit PostgresServer(WithSettings with);

  // url: a libpq URI of `database` on this server (user petstore, no password needed).
  [[nodiscard]] std::string url(const std::string& database) const;
  // create_database: a new empty UTF-8 database with a name no other call returned.
  [[nodiscard]] std::string create_database();

  // stop: a fast shutdown (clients are disconnected), waited for. start: the same cluster again.
  void stop();
  void start();
  [[nodiscard]] bool running() const { return pid_ > 0; }
  // postmaster: the server's PID (-1 while it is stopped).
  [[nodiscard]] pid_t postmaster() const { return pid_; }
  // lose: an immediate stop (SIGQUIT), as a crash would do: no checkpoint, no clean handover.
  void lose();
  // crash: SIGKILL to the postmaster and every process it started at once, as the kernel's OOM
  // killer or a power cut would end them: WAL not yet written from shared memory is gone.
  void crash();
  // signal_children: `signal` to each process the postmaster started whose title holds
  // `title` ("walwriter", say); how many there were.
  int signal_children(std::string_view title, int signal) const;
  // freeze: SIGSTOP to the postmaster and every backend: a server that hangs without closing
  // anything (new connections wait in its backlog). thaw: SIGCONT to them all. stop() and lose()
  // thaw a frozen server first.
  void freeze();
  void thaw();

  // make_synchronous: on a primary, synchronous_standby_names = '*', waited for until a standby
  // shows `sync` in pg_stat_replication (at most 60 s). Set after the standby's base backup, so
  // that a promoted standby does not wait for a standby of its own.
  void make_synchronous();
  // promote: on a standby, pg_promote(), waited for until it accepts writes (at most 60 s).
  void promote();

  // socket_dir: the directory of the server's Unix socket (libpq's `host`).
  [[nodiscard]] const std::filesystem::path& socket_dir() const { return dir_; }

  // log: what the server wrote so far, for a failing test's message.
  [[nodiscard]] std::string log() const;

 private:
  [[nodiscard]] std::filesystem::path data_dir() const { return dir_ / "data"; }
  [[nodiscard]] std::filesystem::path log_file() const { return dir_ / "postgres.log"; }
  void wait_until_accepting();
  void make_dir();
  void run_tool(const std::vector<std::string>& args, const std::string& what);
  // query: the first value of `sql` on database postgres, or nullopt when it failed.
  [[nodiscard]] std::optional<std::string> query(const std::string& sql) const;

  // signal_all: `signal` to the postmaster and each process it started.
  void signal_all(int signal) const;
  // children: the processes the postmaster started.
  [[nodiscard]] std::vector<pid_t> children() const;

  std::filesystem::path dir_;
  std::vector<std::string> settings_;
  pid_t pid_ = -1;
  bool frozen_ = false;
  int next_database_ = 0;
};

// shared_postgres_server: one server for every test of the executable, started on first use and
// stopped at exit (a gtest global environment registers it).
[[nodiscard]] PostgresServer& shared_postgres_server();

}  // namespace petstore::tests

#pragma once
// PostgresServer: a PostgreSQL server of the test's own: `initdb` into a fresh temporary
// directory, then `postgres` listening only on a Unix socket in that directory (no TCP port at
// all). When the test runs as root, both run as `nobody` (PostgreSQL refuses root) in a directory
// handed to it. The server is stopped by its PID when the object goes, and is killed with the
// thread that started it should the test process die first, so no server outlives its test.

#include <filesystem>
#include <string>
#include <sys/types.h>

namespace petstore::tests {

class PostgresServer {
 public:
  // Starts a fresh cluster; throws std::runtime_error, with the server's log, when it cannot.
  PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;
  ~PostgresServer();

  // url: a libpq URI of `database` on this server (user petstore, no password needed).
  [[nodiscard]] std::string url(const std::string& database) const;
  // create_database: a new empty UTF-8 database with a name no other call returned.
  [[nodiscard]] std::string create_database();

  // stop: a fast shutdown (clients are disconnected), waited for. start: the same cluster again.
  void stop();
  void start();
  [[nodiscard]] bool running() const { return pid_ > 0; }

  // socket_dir: the directory of the server's Unix socket (libpq's `host`).
  [[nodiscard]] const std::filesystem::path& socket_dir() const { return dir_; }

  // log: what the server wrote so far, for a failing test's message.
  [[nodiscard]] std::string log() const;

 private:
  [[nodiscard]] std::filesystem::path data_dir() const { return dir_ / "data"; }
  [[nodiscard]] std::filesystem::path log_file() const { return dir_ / "postgres.log"; }
  void wait_until_accepting();

  std::filesystem::path dir_;
  pid_t pid_ = -1;
  int next_database_ = 0;
};

// shared_postgres_server: one server for every test of the executable, started on first use and
// stopped at exit (a gtest global environment registers it).
[[nodiscard]] PostgresServer& shared_postgres_server();

}  // namespace petstore::tests

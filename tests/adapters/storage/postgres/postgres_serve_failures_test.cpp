// How the real binary meets a database it cannot use (contract section 8): a schema newer than
// it knows exits 1 with one line, a URL libpq cannot parse exits 2, the URL's password appears
// in no log line, error or metric, even when the server's own message repeats it, and a database
// that stays down is a line per failure, not one per attempt, whose recovery line counts the
// attempts it kept quiet.

#include <algorithm>
#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <map>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"
#include "support/json_bodies.hpp"
#include "support/postgres_server.hpp"
#include "support/text_lines.hpp"

#include "serve_support.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

constexpr const char* secret = "Hunter2Secret";

TEST(PostgresServe, ASchemaNewerThanTheBinaryKnowsExitsOneWithOneLine) {
  auto& server = shared_postgres_server();
  const std::string url = server.url(server.create_database());
  SqlSession(url).run(
      "CREATE SCHEMA petstore; CREATE TABLE petstore.schema_version (version integer NOT "
      "NULL); INSERT INTO petstore.schema_version VALUES (99)");
  const TempDir dir;
  (void)make_key(dir.path() / "keys");
  const auto serve = run_petstore(serve_args(dir.path() / "keys", postgres_flags(url)));
  EXPECT_EQ(serve.status.code, 1) << serve.err;
  EXPECT_EQ(std::count(serve.err.begin(), serve.err.end(), '\n'), 1) << serve.err;
  EXPECT_NE(serve.err.find("newer"), std::string::npos) << serve.err;

  auto exported = run_petstore({"export", "--storage", "postgres", "--database-url", url});
  EXPECT_EQ(exported.status.code, 1) << exported.err;
  EXPECT_NE(exported.err.find("newer"), std::string::npos) << exported.err;
}

TEST(PostgresServe, AUrlLibpqCannotParseExitsTwoWithoutRepeatingIt) {
  const TempDir dir;
  (void)make_key(dir.path() / "keys");
  const std::string url = std::string("postgresql://petstore:") + secret + "@/db?no_such_option=1";
  const auto serve = run_petstore(serve_args(dir.path() / "keys", postgres_flags(url)));
  EXPECT_EQ(serve.status.code, 2) << serve.err;
  EXPECT_EQ(std::count(serve.err.begin(), serve.err.end(), '\n'), 1) << serve.err;
  EXPECT_EQ((serve.out + serve.err).find(secret), std::string::npos) << serve.err;
  for (const char* tool : {"export", "import"}) {
    const auto run = run_petstore({tool, "--storage", "postgres", "--database-url", url});
    EXPECT_EQ(run.status.code, 2) << tool << ": " << run.err;
    EXPECT_EQ((run.out + run.err).find(secret), std::string::npos) << run.err;
  }
}

// The server refuses every connection with a message that quotes the password: it is the value
// of a setting the URL's options ask for. The service keeps running, unready, and logs each
// attempt with the password masked; the data tools fail with it masked too.
TEST(PostgresServe, ThePasswordAppearsInNoLogLineErrorOrMetric) {
  auto& server = shared_postgres_server();
  const std::string url = server.url(server.create_database()) + "&password=" + secret +
                          "&options=-c%20work_mem%3D" + secret;
  const TempDir dir;
  (void)make_key(dir.path() / "keys");
  ServedPetstore served(petstore(serve_args(dir.path() / "keys", postgres_flags(url))));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_TRUE(served.child().wait_for_stdout_line("database_connect_failed", 10s))
      << served.child().captured_stdout();
  const auto readiness = http_call(served.port(), "GET", "/readyz");
  EXPECT_EQ(readiness.status, 503U);
  EXPECT_NE(readiness.body.find("the storage is unavailable"), std::string::npos) << readiness.body;
  EXPECT_EQ(readiness.header("Retry-After"), "1");  // contract section 11: every 503
  const auto metrics = http_call(served.port(), "GET", "/metrics");
  EXPECT_EQ(metrics.status, 200U);
  EXPECT_EQ(metrics.body.find(secret), std::string::npos);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  const std::string output = served.child().captured_stdout() + served.child().captured_stderr();
  EXPECT_NE(output.find("work_mem"), std::string::npos) << output;  // the server's message
  EXPECT_EQ(output.find(secret), std::string::npos) << output;

  for (const char* tool : {"export", "import"}) {
    const auto run = run_petstore({tool, "--storage", "postgres", "--database-url", url});
    EXPECT_EQ(run.status.code, 1) << tool << ": " << run.err;
    EXPECT_NE(run.err.find("work_mem"), std::string::npos) << run.err;
    EXPECT_EQ((run.out + run.err).find(secret), std::string::npos) << run.err;
  }
}

// refusing_port: a port of 127.0.0.1 bound but not listening, so that every connect to it is
// refused while `socket` stays open.
std::uint16_t refusing_port(int& socket_fd) {
  socket_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  if (socket_fd < 0 || ::bind(socket_fd, reinterpret_cast<sockaddr*>(&address), size) != 0 ||
      ::getsockname(socket_fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    return 0;
  }
  return ntohs(address.sin_port);
}

// Nothing accepts at the URL, which is the replica's too (as when both URLs list every node):
// each pooled connection, the primary's and the replica's, retries about once a second. The log
// writes each event's message once a host (its repeats are counted, within a minute), not a line
// an attempt, and the primary's lines hide none of the replica's.
TEST(PostgresServe, ADatabaseThatStaysDownIsALineAFailureNotOneAnAttempt) {
  int socket_fd = -1;
  const std::uint16_t port = refusing_port(socket_fd);
  ASSERT_NE(port, 0);
  const TempDir dir;
  (void)make_key(dir.path() / "keys");
  const std::string url = "postgresql://petstore@127.0.0.1:" + std::to_string(port) + "/petstore";
  ServedPetstore served(
      petstore(serve_args(dir.path() / "keys", postgres_flags(url, {"--database-read-url", url}))));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  ASSERT_TRUE(served.child().wait_for_stdout_line("database_connect_failed", 10s));
  std::this_thread::sleep_for(3s);  // three more rounds of every connection's attempts
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  ::close(socket_fd);
  std::map<std::string, int> lines_by_event_and_message;
  for (const auto& text : lines_of(served.child().captured_stdout())) {
    const auto line = parse_json(text);
    const auto* event = line.is_object() ? line.as_object().if_contains("event") : nullptr;
    const auto* message = line.is_object() ? line.as_object().if_contains("message") : nullptr;
    if (event != nullptr && message != nullptr &&
        (*event == "database_connect_failed" || *event == "database_replica_failed")) {
      ++lines_by_event_and_message[boost::json::serialize(*event) + " " +
                                   boost::json::serialize(*message)];
    }
  }
  int replica_lines = 0;
  for (const auto& [event_and_message, lines] : lines_by_event_and_message) {
    EXPECT_EQ(lines, 1) << event_and_message;
    replica_lines += event_and_message.starts_with("\"database_replica_failed\"") ? lines : 0;
  }
  EXPECT_GE(lines_by_event_and_message.size(), 2U);
  EXPECT_GE(replica_lines, 1) << served.child().captured_stdout();
}

// A database down at start and back later: while it is down the pool's attempts repeat the
// failure lines' messages and are counted, not written; the recovery line that follows the
// failure lines reports them (`repeats`), so that no failed attempt goes unaccounted.
TEST(PostgresServe, ARecoveryLineCountsTheFailedAttemptsNeverWritten) {
  DatabaseDownAtStart down;
  auto& served = down.served;
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  ASSERT_TRUE(served.child().wait_for_stdout_line("database_connect_failed", 10s));
  std::this_thread::sleep_for(3s);  // every pooled connection's attempts, repeating
  down.server.start();
  ASSERT_TRUE(served.child().wait_for_stdout_line("database_connection_restored", 30s))
      << served.child().captured_stdout();
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  // Summed over every recovery line: a connection that fails once more after the first one back
  // writes its own, and threads' lines may come out of order by a few milliseconds.
  bool failed_before = false;
  int recoveries = 0;
  std::int64_t recovered_repeats = 0;
  for (const auto& text : lines_of(served.child().captured_stdout())) {
    const auto line = parse_json(text);
    const auto* event = line.is_object() ? line.as_object().if_contains("event") : nullptr;
    if (event != nullptr && *event == "database_connect_failed") {
      failed_before = true;
    } else if (event != nullptr && *event == "database_connection_restored") {
      EXPECT_TRUE(failed_before) << text;
      ++recoveries;
      recovered_repeats += line.at("repeats").as_int64();
    }
  }
  EXPECT_GE(recoveries, 1);
  EXPECT_GE(recovered_repeats, 1) << served.child().captured_stdout();
}

}  // namespace
}  // namespace petstore::tests

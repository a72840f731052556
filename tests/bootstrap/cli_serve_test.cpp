// `petstore serve` start-up (contract section 7): the listening line with the real port, the
// environment variables that stand in for flags, a taken port and a refused non-loopback address
// (exit 1, one line), and the plain-HTTP escape hatch.

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"

namespace petstore::tests {
namespace {

class CliServeTest : public KeyedCliTest {};

void expect_failure_line(const Completed& run, const std::string& mention, int exit_code = 1) {
  EXPECT_TRUE(run.status.exited_with(exit_code))
      << "code " << run.status.code << ", stderr: " << run.err;
  EXPECT_EQ(count_lines(run.err), 1U) << run.err;
  EXPECT_NE(run.err.find(mention), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find("listening"), std::string::npos) << run.out;
}

TEST_F(CliServeTest, ListeningLineNamesTheRealPort) {
  ServedPetstore served(petstore(serve_args(keys_)));
  ASSERT_NE(served.port(), 0) << served.listening_line() << served.child().captured_stderr();
  EXPECT_EQ(served.listening_url(), "http://127.0.0.1:" + std::to_string(served.port()) + "/v1");
  const RawResponse health = http_call(served.port(), "GET", "/healthz");
  EXPECT_EQ(health.status, 200U);
  EXPECT_EQ(http_call(served.port(), "GET", "/readyz").status, 200U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  // The listening line comes first on stdout; the log lines (JSON by default) follow it.
  const std::string out = served.child().captured_stdout();
  EXPECT_EQ(out.substr(0, out.find('\n')), served.listening_line()) << out;
}

TEST_F(CliServeTest, EnvironmentVariablesStandInForFlags) {
  const Env env{{"PETSTORE_LISTEN", "127.0.0.1:0"},
                {"PETSTORE_API_KEYS", keys_.string()},
                {"PETSTORE_STORAGE", "memory"},
                {"PETSTORE_THREADS", "1"}};
  ServedPetstore served(petstore({"serve"}, env, dir_.path()));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_EQ(http_call(served.port(), "POST", "/v1/pets", key_, pet_json("Env")).status, 201U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  // Memory storage was honoured: the default LMDB dir ./data was never made.
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "data"));
}

TEST_F(CliServeTest, EnvironmentValuesAreCheckedLikeFlags) {
  const Env base{{"PETSTORE_API_KEYS", keys_.string()}, {"PETSTORE_LISTEN", "127.0.0.1:0"}};
  Env bad_storage = base;
  bad_storage["PETSTORE_STORAGE"] = "bogus";
  EXPECT_TRUE(run_petstore({"serve"}, bad_storage, dir_.path()).status.exited_with(2));
  Env bad_listen = base;
  bad_listen["PETSTORE_LISTEN"] = "nonsense";
  EXPECT_TRUE(run_petstore({"serve"}, bad_listen, dir_.path()).status.exited_with(2));
}

TEST_F(CliServeTest, FlagsWinOverTheEnvironment) {
  const Env env{{"PETSTORE_LISTEN", "nonsense"}, {"PETSTORE_STORAGE", "bogus"}};
  ServedPetstore served(petstore(serve_args(keys_), env, dir_.path()));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

TEST_F(CliServeTest, PortAlreadyTakenFailsWithOneLine) {
  const int taken = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(taken, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  ASSERT_EQ(::bind(taken, reinterpret_cast<const sockaddr*>(&address), size), 0);
  ASSERT_EQ(::listen(taken, 4), 0);
  ASSERT_EQ(::getsockname(taken, reinterpret_cast<sockaddr*>(&address), &size), 0);
  const std::string port = std::to_string(ntohs(address.sin_port));

  const Completed run = run_petstore(serve_args(keys_, {"--listen", "127.0.0.1:" + port}));
  ::close(taken);
  expect_failure_line(run, port);
}

// Exit 2: no restart can cure it, and the unit's RestartPreventExitStatus=2 stops systemd
// from trying (contract section 11).
TEST_F(CliServeTest, NonLoopbackWithoutTlsIsRefusedWithExitTwo) {
  expect_failure_line(run_petstore(serve_args(keys_, {"--listen", "0.0.0.0:0"})),
                      "--allow-plain-http", 2);
}

TEST_F(CliServeTest, NonLoopbackWithAllowPlainHttpServes) {
  ServedPetstore served(
      petstore(serve_args(keys_, {"--listen", "0.0.0.0:0", "--allow-plain-http"})));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_EQ(served.listening_url(), "http://0.0.0.0:" + std::to_string(served.port()) + "/v1");
  EXPECT_EQ(http_call(served.port(), "GET", "/healthz").status, 200U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

TEST_F(CliServeTest, AllowPlainHttpFromTheEnvironment) {
  const Env env{{"PETSTORE_ALLOW_PLAIN_HTTP", "true"}};
  ServedPetstore served(petstore(serve_args(keys_, {"--listen", "0.0.0.0:0"}), env));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

}  // namespace
}  // namespace petstore::tests

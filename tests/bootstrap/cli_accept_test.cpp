// `petstore serve` out of file descriptors, seen from outside the real binary: run under a low
// RLIMIT_NOFILE (prlimit sets it before exec), it is sent connections until accept fails. The log
// then says so once, with the reason, however often the accept loop retries; once descriptors are
// there again it says that accepting works, and new requests are answered.
//
// Descriptors come back by raising the limit (what an operator would do) before the connections
// close: under UndefinedBehaviorSanitizer every first check of a type's vptr opens a pipe, so
// code the server runs for the first time while it has no descriptor at all (reading a closed
// connection's end) would abort the sanitized binary, which is no fault of the server's.

#include <chrono>
#include <csignal>
#include <cstddef>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

constexpr const char* prlimit_program = "/usr/bin/prlimit";
// Enough for the process to start (storage, threads' event descriptors, the sanitizers' own),
// few enough that a test opens the rest in a moment.
constexpr int descriptor_limit = 64;
constexpr std::size_t most_connections = 256;  // four times the limit: more than it can hold

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

class CliAcceptTest : public KeyedCliTest {};

TEST_F(CliAcceptTest, RunningOutOfDescriptorsIsLoggedOncePerEpisodeAndServiceResumes) {
  rlimit own{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &own), 0);
  ASSERT_GE(own.rlim_max, rlim_t{most_connections});
  ChildOptions options = petstore(serve_args(keys_, {"--log-format", "json"}));
  const std::string limits =
      "--nofile=" + std::to_string(descriptor_limit) + ":" + std::to_string(own.rlim_max);
  options.args.insert(options.args.begin(), {limits, options.program.string()});
  options.program = prlimit_program;
  ServedPetstore served(options);
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  ASSERT_EQ(http_call(served.port(), "GET", "/healthz").status, 200U);

  // Connections the kernel completes wait in the listen backlog; the server cannot take them
  // once its descriptors are gone.
  std::vector<RawConnection> held;
  while (held.size() < most_connections &&
         occurrences(served.child().captured_stdout(), "\"accept_failing\"") == 0) {
    held.push_back(RawConnection::connect(loopback(served.port())));
    std::this_thread::sleep_for(10ms);
  }
  const auto failing = served.child().wait_for_stdout_line("\"accept_failing\"", 5s);
  ASSERT_TRUE(failing) << served.child().captured_stdout() << served.child().captured_stderr();
  EXPECT_NE(failing->find("\"level\":\"error\""), std::string::npos) << *failing;
  EXPECT_NE(failing->find("Too many open files"), std::string::npos) << *failing;
  std::this_thread::sleep_for(600ms);  // the accept loop retries every 50 ms meanwhile
  EXPECT_EQ(occurrences(served.child().captured_stdout(), "\"accept_failing\""), 1U);
  EXPECT_EQ(occurrences(served.child().captured_stdout(), "\"accept_resumed\""), 0U);

  const rlimit raised{own.rlim_max, own.rlim_max};
  ASSERT_EQ(::prlimit(served.child().pid(), RLIMIT_NOFILE, &raised, nullptr), 0);
  // Accepting is known to work once a connection is taken: the next one.
  EXPECT_EQ(http_call(served.port(), "GET", "/healthz").status, 200U);
  const auto resumed = served.child().wait_for_stdout_line("\"accept_resumed\"", 5s);
  ASSERT_TRUE(resumed) << served.child().captured_stdout() << served.child().captured_stderr();
  EXPECT_NE(resumed->find("\"level\":\"info\""), std::string::npos) << *resumed;
  held.clear();
  EXPECT_EQ(http_call(served.port(), "GET", "/v1/pets", key_).status, 200U);
  EXPECT_EQ(occurrences(served.child().captured_stdout(), "\"accept_failing\""), 1U);
  EXPECT_EQ(occurrences(served.child().captured_stdout(), "\"accept_resumed\""), 1U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

}  // namespace
}  // namespace petstore::tests

// The real binary's resident memory under one hostile connection without a key: a chunked body
// whose chunk-size line never ends, sent at full speed, is refused at its bound, so the process
// grows by kilobytes, not by what the client sends (issue 19: 600 MB in 8 s before).

#include <fstream>
#include <signal.h>
#include <string>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"

namespace petstore::tests {
namespace {

// resident_kib: VmRSS of process `pid` in KiB, from /proc; 0 when it cannot be read.
std::size_t resident_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string word;
  while (status >> word) {
    if (word == "VmRSS:") {
      std::size_t kib = 0;
      status >> kib;
      return kib;
    }
  }
  return 0;
}

TEST(CliHostileMemory, AChunkLineThatNeverEndsDoesNotGrowTheProcess) {
  TempDir dir;
  const auto keys = dir.path() / "keys";
  ASSERT_FALSE(make_key(keys).empty());
  ServedPetstore served(petstore(serve_args(keys, {"--threads", "1"})));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  ASSERT_EQ(http_call(served.port(), "GET", "/healthz").status, 200U);  // warmed up
  const std::size_t before = resident_kib(served.child().pid());
  ASSERT_GT(before, 0U);

  constexpr std::size_t piece = std::size_t{256} * 1024;
  constexpr std::size_t most = std::size_t{64} * 1024 * 1024;
  const std::string junk(piece, '0');
  auto connection = RawConnection::connect(loopback(served.port()));
  ASSERT_TRUE(
      connection.send("POST /healthz HTTP/1.1\r\nHost: petstore.test\r\n"
                      "Transfer-Encoding: chunked\r\n\r\n1;"));
  std::size_t sent = 0;
  while (sent < most && connection.send(junk)) {
    sent += piece;
  }
  const std::size_t after = resident_kib(served.child().pid());
  EXPECT_LT(sent, most) << "the server kept reading a chunk-size line of " << sent << " bytes";
  EXPECT_LT(after, before + std::size_t{8} * 1024)
      << "resident KiB before " << before << ", after " << after;
  EXPECT_EQ(http_call(served.port(), "GET", "/healthz").status, 200U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

}  // namespace
}  // namespace petstore::tests

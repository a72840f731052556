// Key files that once held `petstore serve` up (issue 19): a FIFO given at start, a key file
// replaced by a FIFO that nobody writes to and then reloaded, a reload of a file of tens of
// megabytes. None may keep the process from starting or failing at once, and none may hold back
// SIGTERM: the signal loop never reads a file; reloads run on a thread of their own.

#include <algorithm>
#include <fstream>
#include <memory>
#include <signal.h>
#include <sys/stat.h>
#include <thread>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

// The drain limit of contract section 7: a stop must never take longer.
constexpr auto drain_limit = 10s;

// wait_for_log: true once the child's stdout holds `needle`, within 5 s.
bool wait_for_log(ChildProcess& child, const std::string& needle) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (child.captured_stdout().find(needle) == std::string::npos) {
    if (std::chrono::steady_clock::now() >= deadline) {
      return false;
    }
    std::this_thread::sleep_for(10ms);
  }
  return true;
}

class CliHostileKeysTest : public ::testing::Test {
 protected:
  void SetUp() override {
    key_ = make_key(file_);
    ASSERT_FALSE(key_.empty());
  }

  // serve: a running `petstore serve` on file_, its key checked to work.
  void serve() {
    served_ = std::make_unique<ServedPetstore>(petstore(serve_args(file_)));
    ASSERT_NE(served_->port(), 0) << served_->child().captured_stderr();
    ASSERT_EQ(http_call(served_->port(), "GET", "/v1/pets", key_).status, 200U);
  }

  // stop_promptly: SIGTERM; the process must drain and exit 0 well within the drain limit.
  void stop_promptly() {
    const auto start = std::chrono::steady_clock::now();
    const ExitStatus status = served_->stop(SIGTERM, drain_limit + 2s);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    EXPECT_TRUE(status.exited_with(0)) << "code " << status.code << ", signal " << status.signal
                                       << ", timed out " << status.timed_out << "\n"
                                       << served_->child().captured_stderr();
    EXPECT_LT(elapsed, drain_limit) << "SIGTERM was held back";
    const std::string log = served_->child().captured_stdout();
    EXPECT_NE(log.find("\"draining\""), std::string::npos) << "readiness never turned 503";
    EXPECT_NE(log.find("\"stop\""), std::string::npos) << log.substr(0, 2000);
  }

  TempDir dir_;
  std::filesystem::path file_ = dir_.path() / "keys";
  std::string key_;
  std::unique_ptr<ServedPetstore> served_;
};

// Opening a FIFO for reading waits for a writer: start-up once hung there with no output.
TEST_F(CliHostileKeysTest, AFifoAsTheKeyFileAtStartFailsAtOnceWithOneLine) {
  const auto fifo = dir_.path() / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const Completed run = run_petstore(serve_args(fifo));
  EXPECT_TRUE(run.status.exited_with(1))
      << "code " << run.status.code << ", timed out " << run.status.timed_out;
  EXPECT_EQ(count_lines(run.err), 1U) << run.err;
  EXPECT_NE(run.err.find("is not a regular file: it is a FIFO"), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find("listening"), std::string::npos) << run.out;
}

TEST_F(CliHostileKeysTest, SigtermAfterASighupThatFindsAFifoDrainsAndExits0) {
  ASSERT_NO_FATAL_FAILURE(serve());
  std::filesystem::remove(file_);
  ASSERT_EQ(::mkfifo(file_.c_str(), 0600), 0);  // nobody will ever write to it
  ASSERT_TRUE(served_->child().send_signal(SIGHUP));
  EXPECT_TRUE(wait_for_log(served_->child(), "reload_failed")) << "the FIFO was not refused";
  // The keys in use are kept, and the service answers as before.
  EXPECT_EQ(http_call(served_->port(), "GET", "/v1/pets", key_).status, 200U);
  EXPECT_EQ(http_call(served_->port(), "GET", "/readyz").status, 200U);
  stop_promptly();
}

// A reload of a large file takes a while (reading and parsing it); SIGTERM sent meanwhile must
// not wait for it. The file repeats one line, which also once made a warning per line.
TEST_F(CliHostileKeysTest, SigtermDuringTheReloadOfAHugeKeyFileIsNotHeldBack) {
  ASSERT_NO_FATAL_FAILURE(serve());
  std::string line;
  {
    std::ifstream in(file_);
    std::getline(in, line);
  }
  ASSERT_FALSE(line.empty());
  line += '\n';
  std::string text;
  const std::size_t copies = (60U << 20U) / line.size();  // about 60 MiB, below the 64 MiB cap
  text.reserve(copies * line.size());
  for (std::size_t i = 0; i < copies; ++i) {
    text += line;
  }
  dir_.write("keys", text);
  text.clear();
  ASSERT_TRUE(served_->child().send_signal(SIGHUP));
  ASSERT_TRUE(wait_for_log(served_->child(), "\"reload\"")) << served_->child().captured_stdout();
  stop_promptly();
  const std::string log = served_->child().captured_stdout();
  EXPECT_LT(std::count(log.begin(), log.end(), '\n'), 20) << "a flood of warnings";
}

}  // namespace
}  // namespace petstore::tests

// What `petstore serve` writes on stdout (contract section 9), seen from outside the real binary:
// with --log-format json every line is a JSON object, the listening line included, and that line
// is written whatever the level; a request's line names its client and principal, never the key;
// probes log at debug. With stdout a pipe nobody reads, 3,000 requests are all answered, the lines
// that could not be written are counted in /metrics, and SIGTERM still stops the process.

#include <array>
#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"
#include "support/text_lines.hpp"

extern char** environ;

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

class CliLogOutputTest : public KeyedCliTest {};

TEST_F(CliLogOutputTest, InJsonEveryStdoutLineIsAnObjectTheListeningOneIncluded) {
  ServedPetstore served(petstore(serve_args(keys_, {"--log-format", "json"})));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_EQ(http_call(served.port(), "GET", "/v1/pets", key_).status, 200U);
  EXPECT_EQ(http_call(served.port(), "GET", "/healthz").status, 200U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  const auto lines = lines_of(served.child().captured_stdout());
  ASSERT_GE(lines.size(), 3U);
  bool saw_request = false;
  for (const auto& line : lines) {
    boost::system::error_code error;
    const auto value = boost::json::parse(line, error);
    ASSERT_FALSE(error) << line;
    ASSERT_TRUE(value.is_object()) << line;
    const auto& object = value.as_object();
    EXPECT_TRUE(object.contains("time") && object.contains("level")) << line;
    EXPECT_EQ(line.find(key_), std::string::npos) << "a key reached the log: " << line;
    if (object.contains("route") && object.at("route") == "/v1/pets") {
      saw_request = true;
      EXPECT_EQ(object.at("client"), "127.0.0.1") << line;
      EXPECT_NE(object.at("principal"), "-") << line;
    }
    EXPECT_FALSE(object.contains("route") && object.at("route") == "/healthz")
        << "a probe logged at info: " << line;
  }
  EXPECT_TRUE(saw_request);
  const auto first = boost::json::parse(lines.front()).as_object();
  EXPECT_EQ(first.at("event"), "listening");
  EXPECT_EQ(first.at("message").as_string(),
            "listening on http://127.0.0.1:" + std::to_string(served.port()) + "/v1");
}

TEST_F(CliLogOutputTest, TheListeningLineIsWrittenWhateverTheLevel) {
  ServedPetstore served(petstore(serve_args(keys_, {"--log-level", "error"})));
  EXPECT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

// Each word of --log-format and --log-level means its own: in text at debug, the listening line is
// not JSON and a probe's request line (debug) is written; at warn, an answered request (info) is
// not.
TEST_F(CliLogOutputTest, TheLogWordsChooseTheFormatAndTheLevel) {
  ServedPetstore text(
      petstore(serve_args(keys_, {"--log-format", "text", "--log-level", "debug"})));
  ASSERT_NE(text.port(), 0) << text.child().captured_stderr();
  EXPECT_EQ(http_call(text.port(), "GET", "/healthz").status, 200U);
  EXPECT_TRUE(text.stop(SIGTERM).exited_with(0));
  const std::string text_out = text.child().captured_stdout();
  EXPECT_FALSE(text_out.starts_with('{')) << text_out;
  EXPECT_NE(text_out.find(" debug request "), std::string::npos) << text_out;

  ServedPetstore warn(petstore(serve_args(keys_, {"--log-level", "warn"})));
  ASSERT_NE(warn.port(), 0) << warn.child().captured_stderr();
  EXPECT_EQ(http_call(warn.port(), "GET", "/v1/pets", key_).status, 200U);
  EXPECT_TRUE(warn.stop(SIGTERM).exited_with(0));
  EXPECT_EQ(warn.child().captured_stdout().find("\"request\""), std::string::npos)
      << warn.child().captured_stdout();
}

// UnreadServe: `petstore serve` whose stdout is a pipe this test reads only up to the listening
// line and then never again.
class UnreadServe {
 public:
  explicit UnreadServe(const std::vector<std::string>& args) {
    std::array<int, 2> out{-1, -1};
    EXPECT_EQ(::pipe(out.data()), 0);
    read_end_ = out[0];
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    std::vector<std::string> words{PETSTORE_BINARY};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    argv.reserve(words.size() + 1);
    for (auto& word : words) {
      argv.push_back(word.data());
    }
    argv.push_back(nullptr);
    EXPECT_EQ(::posix_spawn(&pid_, PETSTORE_BINARY, &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    std::string line;
    for (char c = 0; ::read(read_end_, &c, 1) == 1 && c != '\n';) {
      line.push_back(c);
    }
    port_ = listening_port(line).value_or(0);
  }
  UnreadServe(const UnreadServe&) = delete;
  UnreadServe& operator=(const UnreadServe&) = delete;
  ~UnreadServe() {
    if (pid_ > 0 && !exited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    ::close(read_end_);
  }

  [[nodiscard]] std::uint16_t port() const { return port_; }

  // stop: SIGTERM, then whether it exited with 0 within `limit` (polled; SIGKILL after).
  bool stop(std::chrono::milliseconds limit) {
    ::kill(pid_, SIGTERM);
    const auto give_up = std::chrono::steady_clock::now() + limit;
    int status = 0;
    while (std::chrono::steady_clock::now() < give_up) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) && WEXITSTATUS(status) == 0;
      }
      std::this_thread::sleep_for(20ms);
    }
    return false;
  }

 private:
  pid_t pid_ = -1;
  int read_end_ = -1;
  std::uint16_t port_ = 0;
  bool exited_ = false;
};

TEST_F(CliLogOutputTest, AStdoutNobodyReadsNeitherStopsServingNorHoldsUpSigterm) {
  UnreadServe served(serve_args(keys_));
  ASSERT_NE(served.port(), 0);
  // Lines of about 430 bytes: the 64 KiB pipe and the 1 MiB queue fill long before 6,000.
  constexpr std::size_t requests = 6000;
  std::size_t answered = 0;
  RawConnection connection = RawConnection::connect("127.0.0.1:" + std::to_string(served.port()));
  const std::string request = api_request("GET", "/v1/pets?limit=1", key_, {}, /*keep_alive=*/true);
  for (std::size_t i = 0; i < requests; ++i) {
    answered += connection.round_trip(request, 10s).status == 200U ? 1 : 0;
  }
  EXPECT_EQ(answered, requests);
  const RawResponse metrics = http_call(served.port(), "GET", "/metrics");
  ASSERT_EQ(metrics.status, 200U);
  const auto at = metrics.body.find("\npetstore_log_lines_dropped_total ");
  ASSERT_NE(at, std::string::npos) << metrics.body;
  EXPECT_GT(std::stoull(metrics.body.substr(at + 34)), 0U);
  // Drain (10 s) plus a little: the stalled stdout must not hold the process.
  EXPECT_TRUE(served.stop(15s));
}

}  // namespace
}  // namespace petstore::tests

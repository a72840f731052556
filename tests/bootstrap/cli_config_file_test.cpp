// `serve --config FILE` read strictly (issue 28): a file that is not TOML, or holds a value no flag
// takes, is refused naming its line and column, a path that is no regular file (a directory, a
// FIFO, a device) is refused at once, and an empty PETSTORE_* variable counts as unset, so the
// file's value applies. Each refusal exits 2 with one line.

#include <chrono>
#include <fstream>
#include <signal.h>
#include <string>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"

namespace petstore::tests {
namespace {

class CliConfigFileTest : public KeyedCliTest {
 protected:
  std::string write_config(const std::string& text) const {
    const auto path = dir_.path() / "petstore.toml";
    std::ofstream(path) << text;
    return path.string();
  }

  [[nodiscard]] std::string serving_config() const {
    return "listen = \"127.0.0.1:0\"\nstorage = \"memory\"\napi-keys = \"" + keys_.string() +
           "\"\n";
  }
};

void expect_refused(const Completed& run, const std::string& mention) {
  EXPECT_TRUE(run.status.exited_with(2)) << "code " << run.status.code << ": " << run.err;
  EXPECT_EQ(count_lines(run.err), 1U) << run.err;
  EXPECT_NE(run.err.find(mention), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find("listening"), std::string::npos) << run.out;
}

// The places and words are toml++'s (3.3.0, Debian bookworm's).
TEST_F(CliConfigFileTest, ALineThatIsNotTomlIsRefusedWithItsNumber) {
  struct Case {
    std::string text;
    std::string place;
    std::string words;
  };
  const std::vector<Case> cases = {
      {"listen =\n", "line 1, column 9: ", "expected value"},
      {"# comment\nlisten = 127.0.0.1:0\n", "line 2, column 12: ", "Error while parsing time"},
      {"storage = \"memory\"\nallow-plain-http\n", "line 2, column 17: ", "expected '='"},
      {"max-body-bytes = \"1KiB\"\nmax-body-bytes = \"2KiB\"\n",
       "line 2, column 18: ", "cannot redefine existing string 'max-body-bytes'"},
      {"log-level = \"info\n", "line 1, column 18: ", "Error while parsing string"},
      {"trusted-proxies = [\"10.0.0.0/8\",\n\n",
       "line 2, column 2: ", "Error while parsing array: encountered end-of-file"},
      {"\n\nthreads = 2 3\n", "line 3, column 13: ", "saw '3'"},
  };
  for (const auto& [text, place, words] : cases) {
    SCOPED_TRACE(text);
    const std::string config = write_config(text);
    const Completed run = run_petstore(serve_args(keys_, {"--config", config}));
    std::string expected = "--config ";
    expected.append(config).append(": ").append(place);
    expect_refused(run, expected);
    EXPECT_NE(run.err.find(words), std::string::npos) << run.err;
  }
}

TEST_F(CliConfigFileTest, AKeyThatIsNoFlagIsNamedWithItsLine) {
  expect_refused(
      run_petstore(serve_args(keys_, {"--config", write_config("\n[server]\nlisten = \"x\"\n")})),
      "line 3, column 1: 'server.listen' is not a serve flag");
}

// TOML's "\u0000" is a valid escape, but as an environment variable the value would end at the
// NUL: this file would have served on 127.0.0.1:0 as if the rest were not there.
TEST_F(CliConfigFileTest, AStringWithAnEscapedNulIsRefusedWithItsLine) {
  const std::string config = write_config("storage = \"memory\"\napi-keys = \"" + keys_.string() +
                                          "\"\nlisten = \"127.0.0.1:0\\u0000 and more\"\n");
  expect_refused(run_petstore({"serve", "--config", config}),
                 "--config " + config + ": line 3, column 10: a string holds a NUL character");
}

// What CLI11's reader got wrong: a '#' inside a string began a comment, a ',' split it, and an
// array could not span lines.
TEST_F(CliConfigFileTest, StringsArraysAndCommentsReadAsTomlSays) {
  const auto keys = dir_.path() / "keys #1, main";
  const std::string key = make_key(keys);
  ASSERT_FALSE(key.empty());
  const std::string config = write_config(
      "# serve's flags\nlisten = '127.0.0.1:0'  # any port\nstorage = \"memory\"\n"
      "api-keys = \"" +
      keys.string() +
      "\"\nmax-connections = 1_000\n"
      "trusted-proxies = [\n  \"10.0.0.0/8\", # the balancers\n  \"::1/128\",\n]\n");
  ServedPetstore served(petstore({"serve", "--config", config}));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_EQ(http_call(served.port(), "POST", "/v1/pets", key, pet_json("Rex")).status, 201U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

TEST_F(CliConfigFileTest, APathThatIsNoRegularFileIsRefusedAtOnce) {
  const auto fifo = dir_.path() / "fifo.toml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {dir_.path().string(), fifo.string(), std::string("/dev/null")}) {
    SCOPED_TRACE(path);
    const auto start = std::chrono::steady_clock::now();
    expect_refused(run_petstore(serve_args(keys_, {"--config", path})), "--config " + path + ": ");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  }
  expect_refused(run_petstore(serve_args(keys_, {"--config", (dir_.path() / "none").string()})),
                 "No such file or directory");
}

TEST_F(CliConfigFileTest, AnEmptyVariableCountsAsUnsetSoTheFileApplies) {
  const std::string config = write_config(serving_config());
  ServedPetstore served(petstore({"serve", "--config", config},
                                 {{"PETSTORE_LISTEN", ""}, {"PETSTORE_API_KEYS", ""}}));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_NE(served.port(), 8080) << "the default --listen applied, not the file's";
  EXPECT_NE(served.listening_line().find("127.0.0.1"), std::string::npos);
  EXPECT_EQ(http_call(served.port(), "GET", "/v1/pets", key_).status, 200U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

}  // namespace
}  // namespace petstore::tests

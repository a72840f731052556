// `serve --config FILE` (a TOML file of serve's flags) and units in sizes and durations: the file
// serves as the flags would; a flag beats its environment variable, which beats the file, which
// beats the default; a key that is no flag and a bad value are refused (exit 2) by name; --help
// shows the units.

#include <fstream>
#include <signal.h>
#include <string>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"

namespace petstore::tests {
namespace {

class CliConfigTest : public KeyedCliTest {
 protected:
  std::string write_config(const std::string& text) const {
    const auto path = dir_.path() / "petstore.toml";
    std::ofstream(path) << text;
    return path.string();
  }

  // create_status: the status of a create whose body is `bytes` long (a valid pet padded with
  // spaces), on a server started with `extra` and `env`.
  unsigned create_status(std::size_t bytes, const std::vector<std::string>& extra,
                         const Env& env = {}) const {
    ServedPetstore served(petstore(serve_args(keys_, extra), env));
    EXPECT_NE(served.port(), 0) << served.child().captured_stderr();
    std::string body = pet_json("Rex");
    body.append(bytes - body.size(), ' ');
    const unsigned status = http_call(served.port(), "POST", "/v1/pets", key_, body).status;
    EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
    return status;
  }
};

TEST_F(CliConfigTest, TheFileServesAsItsFlagsWould) {
  const std::string config = write_config(
      "# serve's flags\nlisten = \"127.0.0.1:0\"\n"
      "storage = \"memory\"\napi-keys = \"" +
      keys_.string() + "\"\nmax-body-bytes = \"1KiB\"\n");
  ServedPetstore served(petstore({"serve", "--config", config}));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  std::string big = pet_json("Rex");
  big.append(2048 - big.size(), ' ');
  EXPECT_EQ(http_call(served.port(), "POST", "/v1/pets", key_, big).status, 413U);
  EXPECT_EQ(http_call(served.port(), "POST", "/v1/pets", key_, pet_json("Rex")).status, 201U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

TEST_F(CliConfigTest, AFlagBeatsTheEnvironmentWhichBeatsTheFile) {
  const std::string config = write_config("max-body-bytes = \"1KiB\"\n");
  EXPECT_EQ(create_status(2048, {"--config", config}), 413U) << "the file beats the default";
  EXPECT_EQ(create_status(2048, {"--config", config}, {{"PETSTORE_MAX_BODY_BYTES", "64KiB"}}), 201U)
      << "the environment beats the file";
  EXPECT_EQ(create_status(2048, {"--config", config, "--max-body-bytes", "1KiB"},
                          {{"PETSTORE_MAX_BODY_BYTES", "64KiB"}}),
            413U)
      << "a flag beats the environment";
  EXPECT_EQ(create_status(2048, {}, {{"PETSTORE_CONFIG", config}}), 413U)
      << "PETSTORE_CONFIG names the file too";
}

TEST_F(CliConfigTest, AKeyThatIsNoFlagOrABadValueIsRefusedByName) {
  const Completed unknown =
      run_petstore(serve_args(keys_, {"--config", write_config("listen-port = 8080\n")}));
  EXPECT_TRUE(unknown.status.exited_with(2)) << unknown.err;
  EXPECT_NE(unknown.err.find("'listen-port' is not a serve flag"), std::string::npos)
      << unknown.err;
  const Completed bad =
      run_petstore(serve_args(keys_, {"--config", write_config("threads = 0\n")}));
  EXPECT_TRUE(bad.status.exited_with(2)) << bad.err;
  EXPECT_NE(bad.err.find("threads"), std::string::npos) << bad.err;
  const Completed missing =
      run_petstore(serve_args(keys_, {"--config", (dir_.path() / "none.toml").string()}));
  EXPECT_TRUE(missing.status.exited_with(2)) << missing.err;
  EXPECT_NE(missing.err.find("none.toml"), std::string::npos) << missing.err;
}

TEST_F(CliConfigTest, SizesAndDurationsTakeUnits) {
  EXPECT_EQ(create_status(2048, {"--max-body-bytes", "2kB"}), 413U) << "2kB is 2,000 bytes";
  EXPECT_EQ(create_status(2048, {"--max-body-bytes", "2KiB"}), 201U) << "2KiB is 2,048 bytes";
  ServedPetstore served(
      petstore(serve_args(keys_, {"--header-timeout", "500ms", "--idle-timeout", "2min"})));
  EXPECT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  const Completed bad = run_petstore(serve_args(keys_, {"--header-timeout", "10parsecs"}));
  EXPECT_TRUE(bad.status.exited_with(2)) << bad.err;
  EXPECT_NE(bad.err.find("header-timeout"), std::string::npos) << bad.err;
}

TEST_F(CliConfigTest, HelpShowsTheUnits) {
  const Completed help = run_petstore({"serve", "--help"});
  EXPECT_TRUE(help.status.exited_with(0));
  EXPECT_NE(help.out.find("DURATION [s, ms, min]"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("kib(=1024b)"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--config"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace petstore::tests

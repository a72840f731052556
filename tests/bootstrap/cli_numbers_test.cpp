// Numbers in serve's flags (issue 28): NaN and the infinities are refused by every numeric flag,
// whether they come as a flag, an environment variable or a config file value, as are zero and
// negative values, each with exit 2 and one line naming the flag. A NaN passed CLI::Range (every
// comparison with it is false) and switched the authentication throttle off.

#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"

namespace petstore::tests {
namespace {

class CliNumbersTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_FALSE(make_key(keys_).empty()); }

  void expect_refused(const Completed& run, const std::string& flag) const {
    EXPECT_TRUE(run.status.exited_with(2)) << "code " << run.status.code << ": " << run.err;
    EXPECT_EQ(count_lines(run.err), 1U) << run.err;
    EXPECT_NE(run.err.find(flag), std::string::npos) << run.err;
    EXPECT_EQ(run.out.find("listening"), std::string::npos) << run.out;
  }

  TempDir dir_;
  std::filesystem::path keys_ = dir_.path() / "keys";
};

const std::vector<std::string> numeric_flags = {"--threads",
                                                "--auth-failures-per-minute",
                                                "--database-pool-size",
                                                "--database-timeout",
                                                "--lmdb-map-size",
                                                "--lmdb-map-growth",
                                                "--max-body-bytes",
                                                "--max-header-bytes",
                                                "--header-timeout",
                                                "--body-timeout",
                                                "--idle-timeout",
                                                "--storage-timeout",
                                                "--max-connections"};

TEST_F(CliNumbersTest, EveryNumericFlagRefusesNanAndTheInfinities) {
  auto flags = numeric_flags;
  flags.emplace_back("--drain-delay");  // 0 is its default, so it is not in the list below
  for (const std::string& flag : flags) {
    for (const char* value : {"nan", "NaN", "inf", "-inf", "infinity", "1e999"}) {
      SCOPED_TRACE(flag + " " + value);
      expect_refused(run_petstore(serve_args(keys_, {flag, value})), flag);
    }
  }
}

TEST_F(CliNumbersTest, ANegativeDrainDelayIsRefused) {
  expect_refused(run_petstore(serve_args(keys_, {"--drain-delay", "-1"})), "--drain-delay");
}

TEST_F(CliNumbersTest, EveryNumericFlagRefusesZeroAndNegativeValues) {
  for (const std::string& flag : numeric_flags) {
    for (const char* value : {"0", "-1", "-0.5"}) {
      SCOPED_TRACE(flag + " " + value);
      expect_refused(run_petstore(serve_args(keys_, {flag, value})), flag);
    }
  }
}

TEST_F(CliNumbersTest, DurationsWithAUnitRefuseNanAndInfinity) {
  for (const char* value : {"nanms", "infmin", "-infs"}) {
    SCOPED_TRACE(value);
    expect_refused(run_petstore(serve_args(keys_, {"--storage-timeout", value})),
                   "--storage-timeout");
  }
}

TEST_F(CliNumbersTest, EnvironmentVariablesRefuseNanAndInfinity) {
  for (const auto& [variable, flag] : std::vector<std::pair<std::string, std::string>>{
           {"PETSTORE_AUTH_FAILURES_PER_MINUTE", "--auth-failures-per-minute"},
           {"PETSTORE_HEADER_TIMEOUT", "--header-timeout"},
           {"PETSTORE_STORAGE_TIMEOUT", "--storage-timeout"},
           {"PETSTORE_DATABASE_TIMEOUT", "--database-timeout"}}) {
    for (const char* value : {"nan", "inf", "-inf"}) {
      SCOPED_TRACE(variable + "=" + value);
      expect_refused(run_petstore(serve_args(keys_), {{variable, value}}), flag);
    }
  }
}

TEST_F(CliNumbersTest, ConfigFileValuesRefuseNanAndInfinity) {
  const auto config = dir_.path() / "petstore.toml";
  for (const std::string line :
       {"auth-failures-per-minute = nan", "auth-failures-per-minute = +inf", "header-timeout = inf",
        "idle-timeout = -inf", "body-timeout = \"nan\""}) {
    SCOPED_TRACE(line);
    std::ofstream(config) << line << '\n';
    expect_refused(run_petstore(serve_args(keys_, {"--config", config.string()})),
                   "--" + line.substr(0, line.find(' ')));
  }
}

}  // namespace
}  // namespace petstore::tests

// `petstore --help`, `--version` and bad usage (contract section 7): help and version exit 0,
// bad usage exits 2 with exactly one line on stderr, before anything is opened or bound.

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"

namespace petstore::tests {
namespace {

// A key file that would serve, so that only the flag under test is wrong.
class CliUsageTest : public ::testing::Test {
 protected:
  void SetUp() override { keys_ = make_key(dir_.path() / "keys"); }

  TempDir dir_;
  std::string keys_;
};

void expect_usage_error(const Completed& run, const std::string& mention) {
  EXPECT_TRUE(run.status.exited_with(2)) << "code " << run.status.code << ", stderr: " << run.err;
  EXPECT_EQ(count_lines(run.err), 1U) << run.err;
  EXPECT_NE(run.err.find(mention), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find("listening"), std::string::npos) << run.out;
}

TEST(CliHelpTest, TopLevelHelpListsTheCommands) {
  const Completed run = run_petstore({"--help"});
  EXPECT_TRUE(run.status.exited_with(0)) << run.err;
  EXPECT_NE(run.out.find("serve"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("keys"), std::string::npos) << run.out;
}

TEST(CliHelpTest, ServeHelpListsItsFlags) {
  const Completed run = run_petstore({"serve", "--help"});
  EXPECT_TRUE(run.status.exited_with(0)) << run.err;
  for (const char* flag : {"--listen", "--storage", "--data-dir", "--api-keys", "--threads",
                           "--tls-cert", "--tls-key", "--allow-plain-http"}) {
    EXPECT_NE(run.out.find(flag), std::string::npos) << flag << " missing from:\n" << run.out;
  }
  // Each flag names its environment variable.
  EXPECT_NE(run.out.find("PETSTORE_LISTEN"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("PETSTORE_API_KEYS"), std::string::npos) << run.out;
}

TEST(CliHelpTest, KeysNewHelpNamesItsFlags) {
  const Completed run = run_petstore({"keys", "new", "--help"});
  EXPECT_TRUE(run.status.exited_with(0)) << run.err;
  EXPECT_NE(run.out.find("--api-keys"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("--label"), std::string::npos) << run.out;
}

TEST(CliHelpTest, VersionPrintsTheInterfaceVersion) {
  const Completed run = run_petstore({"--version"});
  EXPECT_TRUE(run.status.exited_with(0)) << run.err;
  EXPECT_NE(run.out.find("1.0.0"), std::string::npos) << run.out;
  EXPECT_EQ(count_lines(run.out), 1U) << run.out;
}

TEST(CliHelpTest, NoSubcommandIsBadUsage) { expect_usage_error(run_petstore({}), "subcommand"); }

TEST(CliHelpTest, UnknownSubcommandIsBadUsage) {
  expect_usage_error(run_petstore({"frobnicate"}), "frobnicate");
}

TEST(CliHelpTest, KeysWithoutNewIsBadUsage) {
  expect_usage_error(run_petstore({"keys"}), "subcommand");
}

// The one line should name the flag it did not expect (today it says a subcommand is required).
TEST(CliHelpTest, UnknownTopLevelFlagIsNamed) {
  expect_usage_error(run_petstore({"--bogus-flag"}), "--bogus-flag");
}

TEST_F(CliUsageTest, UnknownServeFlagIsNamed) {
  ASSERT_FALSE(keys_.empty());
  expect_usage_error(run_petstore(serve_args(dir_.path() / "keys", {"--bogus-flag"})),
                     "--bogus-flag");
}

// One clock (issue 30): --database-timeout is --storage-timeout's alias; two values disagree.
TEST_F(CliUsageTest, TheTimeoutAndItsAliasMustAgree) {
  ASSERT_FALSE(keys_.empty());
  expect_usage_error(run_petstore(serve_args(dir_.path() / "keys", {"--storage-timeout", "5",
                                                                    "--database-timeout", "9"})),
                     "alias");
  ServedPetstore agreeing(petstore(
      serve_args(dir_.path() / "keys", {"--storage-timeout", "5", "--database-timeout", "5s"})));
  EXPECT_NE(agreeing.port(), 0) << agreeing.child().captured_stderr();
}

TEST_F(CliUsageTest, MalformedListenAddressesAreBadUsage) {
  ASSERT_FALSE(keys_.empty());
  for (const char* listen :
       {"nonsense", "127.0.0.1:", "127.0.0.1:99999", "127.0.0.1:80x", ":8080", "::1:8080"}) {
    SCOPED_TRACE(listen);
    expect_usage_error(run_petstore(serve_args(dir_.path() / "keys", {"--listen", listen})),
                       "--listen");
  }
}

TEST_F(CliUsageTest, UnknownStorageIsBadUsage) {
  ASSERT_FALSE(keys_.empty());
  expect_usage_error(run_petstore(serve_args(dir_.path() / "keys", {"--storage", "bogus"})),
                     "--storage");
}

// --log-format and --log-level take their own words only; another is refused naming the flag and
// its words, whether it came as a flag or from the environment.
TEST_F(CliUsageTest, UnknownLogFormatOrLevelIsBadUsage) {
  ASSERT_FALSE(keys_.empty());
  expect_usage_error(run_petstore(serve_args(dir_.path() / "keys", {"--log-format", "xml"})),
                     "--log-format: xml not in {json,text}");
  expect_usage_error(
      run_petstore(serve_args(dir_.path() / "keys"), {{"PETSTORE_LOG_LEVEL", "warning"}}),
      "--log-level: warning not in {debug,info,warn,error}");
}

// Replicas serve only PostgreSQL's reads: a read URL beside another storage is a mistake to name,
// whether it came as a flag or from the environment.
TEST_F(CliUsageTest, ReadUrlWithoutPostgresIsBadUsage) {
  ASSERT_FALSE(keys_.empty());
  const std::string replica = "postgresql://petstore@db2:5432/petstore";
  expect_usage_error(
      run_petstore(serve_args(dir_.path() / "keys", {"--database-read-url", replica})),
      "--database-read-url");
  expect_usage_error(
      run_petstore(serve_args(dir_.path() / "keys",
                              {"--storage", "lmdb", "--data-dir", (dir_.path() / "data").string()}),
                   {{"PETSTORE_DATABASE_READ_URL", replica}}),
      "--database-read-url");
}

TEST_F(CliUsageTest, ZeroThreadsIsBadUsage) {
  ASSERT_FALSE(keys_.empty());
  expect_usage_error(run_petstore(serve_args(dir_.path() / "keys", {"--threads", "0"})),
                     "--threads");
}

TEST_F(CliUsageTest, ServeWithoutApiKeysIsBadUsage) {
  expect_usage_error(run_petstore({"serve", "--listen", "127.0.0.1:0", "--storage", "memory"}),
                     "--api-keys");
}

TEST_F(CliUsageTest, KeysNewWithoutApiKeysIsBadUsage) {
  expect_usage_error(run_petstore({"keys", "new"}), "--api-keys");
}

TEST_F(CliUsageTest, KeysNewRefusesALabelThatWouldBreakTheLine) {
  const auto file = dir_.path() / "other-keys";
  expect_usage_error(run_petstore({"keys", "new", "--api-keys", file.string(), "--label", "a b"}),
                     "label");
  EXPECT_FALSE(std::filesystem::exists(file));
}

}  // namespace
}  // namespace petstore::tests

// `petstore serve` on its default storage, LMDB (contract sections 5 and 7): the data dir is
// created when missing, pets survive a restart and ids are never reused across one, the data dir
// can come from PETSTORE_DATA_DIR or default to ./data, and an unusable one fails with one line.

#include <charconv>
#include <signal.h>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"

namespace petstore::tests {
namespace {

// id_of: the "id" member of a Pet body, -1 when there is none.
long long id_of(const std::string& body) {
  const std::size_t member = body.find("\"id\"");
  if (member == std::string::npos) {
    return -1;
  }
  const std::size_t digits = body.find_first_of("-0123456789", member);
  long long id = -1;
  if (digits != std::string::npos) {
    std::from_chars(body.data() + digits, body.data() + body.size(), id);
  }
  return id;
}

class CliLmdbTest : public KeyedCliTest {
 protected:
  // lmdb_args: serve on loopback port 0 without --storage, plus `extra`.
  std::vector<std::string> lmdb_args(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args{"serve", "--listen", "127.0.0.1:0", "--api-keys", keys_.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
};

TEST_F(CliLmdbTest, DefaultStorageKeepsPetsAcrossARestart) {
  const auto data = dir_.path() / "nested" / "data";
  {
    ServedPetstore served(petstore(lmdb_args({"--data-dir", data.string()})));
    ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
    const RawResponse created = http_call(served.port(), "POST", "/v1/pets", key_, pet_json("Rex"));
    EXPECT_EQ(created.status, 201U) << created;
    EXPECT_EQ(id_of(created.body), 1);
    EXPECT_EQ(created.header("Location"), "/v1/pets/1");
    EXPECT_TRUE(served.stop(SIGTERM).exited_with(0)) << served.child().captured_stderr();
  }
  EXPECT_TRUE(std::filesystem::is_directory(data));
  {
    // Same store, named through the environment this time.
    ServedPetstore served(petstore(lmdb_args(), Env{{"PETSTORE_DATA_DIR", data.string()}}));
    ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
    const RawResponse got = http_call(served.port(), "GET", "/v1/pets/1", key_);
    EXPECT_EQ(got.status, 200U) << got;
    EXPECT_NE(got.body.find("\"Rex\""), std::string::npos) << got.body;
    const RawResponse next = http_call(served.port(), "POST", "/v1/pets", key_, pet_json("Ace"));
    EXPECT_EQ(next.status, 201U) << next;
    EXPECT_EQ(id_of(next.body), 2) << "ids are never reused across restarts";
    EXPECT_TRUE(served.stop(SIGTERM).exited_with(0)) << served.child().captured_stderr();
  }
}

TEST_F(CliLmdbTest, DataDirDefaultsToDataInTheWorkingDirectory) {
  ServedPetstore served(petstore(lmdb_args(), {}, dir_.path()));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_EQ(http_call(served.port(), "POST", "/v1/pets", key_, pet_json("Rex")).status, 201U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0)) << served.child().captured_stderr();
  EXPECT_TRUE(std::filesystem::is_directory(dir_.path() / "data"));
}

TEST_F(CliLmdbTest, UnusableDataDirFailsWithOneLine) {
  const auto not_a_dir = dir_.write("occupied", "a file where the data dir should be\n");
  const Completed run = run_petstore(lmdb_args({"--data-dir", not_a_dir.string()}));
  EXPECT_TRUE(run.status.exited_with(1)) << "code " << run.status.code << ", stderr: " << run.err;
  EXPECT_EQ(count_lines(run.err), 1U) << run.err;
  EXPECT_NE(run.err.find(not_a_dir.string()), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find("listening"), std::string::npos) << run.out;
}

// A dangling symbolic link was once reported as "not writable", which sent operators to chmod.
TEST_F(CliLmdbTest, ADataDirThatIsADanglingSymbolicLinkIsNamedAsOne) {
  const auto target = dir_.path() / "gone";
  const auto link = dir_.path() / "data";
  std::filesystem::create_directory_symlink(target, link);
  const std::string words = "is a symbolic link to " + target.string() + ", which does not exist";
  const Completed serve = run_petstore(lmdb_args({"--data-dir", link.string()}));
  EXPECT_TRUE(serve.status.exited_with(1)) << "code " << serve.status.code << ": " << serve.err;
  EXPECT_EQ(count_lines(serve.err), 1U) << serve.err;
  EXPECT_NE(serve.err.find("data dir " + link.string() + " " + words), std::string::npos)
      << serve.err;
  EXPECT_FALSE(std::filesystem::exists(target)) << "the link's target was made";

  const Completed under = run_petstore(lmdb_args({"--data-dir", (link / "store").string()}));
  EXPECT_TRUE(under.status.exited_with(1)) << under.err;
  EXPECT_NE(under.err.find("cannot be created: " + link.string() + " " + words), std::string::npos)
      << under.err;

  const Completed exported = run_petstore({"export", "--data-dir", link.string()});
  EXPECT_TRUE(exported.status.exited_with(1)) << exported.err;
  EXPECT_NE(exported.err.find(words), std::string::npos) << exported.err;
}

}  // namespace
}  // namespace petstore::tests

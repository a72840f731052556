// Key files that are not what they should be (issue 19): a FIFO, a device, a file too large to
// read, a million copies of one line, a very large set of keys. Each is refused at once with one
// line, or served without a flood of warnings; none may leave the caller waiting for a writer.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "adapters/auth/file_key_verifier.hpp"
#include "adapters/auth/key_digest.hpp"
#include "adapters/auth/key_file_access.hpp"
#include "support/temp_dir.hpp"

namespace petstore::adapters::auth {
namespace {

using tests::TempDir;

const std::string key_one = "pst_hostile-test-key_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

std::string line_for(const std::string& key) {
  return "sha256:" + to_hex(sha256(key).value()) + "\n";
}

void expect_refused(const domain::Result<LoadedKeyFile>& loaded, const std::string& words) {
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code, domain::ErrorCode::invalid_argument);
  EXPECT_NE(loaded.error().message.find(words), std::string::npos) << loaded.error().message;
  EXPECT_EQ(loaded.error().message.find('\n'), std::string::npos);
}

// Nobody ever writes to this FIFO: opening it for reading the usual way waits forever.
TEST(KeyFileHostile, AFifoIsRefusedWithoutWaitingForAWriter) {
  const TempDir dir;
  const auto fifo = dir.path() / "keys";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused(make_file_key_verifier(fifo), "is not a regular file: it is a FIFO");
}

TEST(KeyFileHostile, ADeviceAndADirectoryAreRefused) {
  expect_refused(make_file_key_verifier("/dev/zero"), "it is a character device");
  const TempDir dir;
  expect_refused(make_file_key_verifier(dir.path()), "it is a directory");
}

TEST(KeyFileHostile, AReloadThatFindsAFifoKeepsTheKeysInUse) {
  const TempDir dir;
  const auto file = dir.write("keys", line_for(key_one));
  auto loaded = make_file_key_verifier(file);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  std::filesystem::remove(file);
  ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
  const auto reloaded = loaded->verifier->reload();
  ASSERT_FALSE(reloaded.has_value());
  EXPECT_NE(reloaded.error().message.find("FIFO"), std::string::npos) << reloaded.error().message;
  EXPECT_TRUE(loaded->verifier->verify(key_one).has_value());
}

TEST(KeyFileHostile, AFileLargerThanTheCapIsRefusedUnread) {
  const TempDir dir;
  const auto file = dir.write("keys", line_for(key_one));
  // Sparse: the size says too large before a byte is read.
  ASSERT_EQ(::truncate(file.c_str(), static_cast<off_t>(max_key_file_size) + 1), 0);
  expect_refused(make_file_key_verifier(file), "it is larger than 64 MiB");
}

TEST(KeyFileHostile, AFileOfExactlyTheCapIsRead) {
  const TempDir dir;
  std::string text = line_for(key_one);
  text += std::string(max_key_file_size - text.size() - 1, '#') + "\n";  // one long comment
  const auto loaded = make_file_key_verifier(dir.write("keys", text));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(loaded->report.key_count, 1U);
}

// 1.3 million copies of one line once printed one warning each: 121 MB on stderr.
TEST(KeyFileHostile, OneKeyRepeated100000TimesGivesOneWarningLine) {
  const TempDir dir;
  std::string text;
  for (int copy = 0; copy < 100'000; ++copy) {
    text += line_for(key_one);
  }
  auto loaded = make_file_key_verifier(dir.write("keys", text));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(loaded->report.key_count, 1U);
  ASSERT_EQ(loaded->report.warnings.size(), 1U);
  EXPECT_EQ(loaded->report.warnings[0].find('\n'), std::string::npos);
  EXPECT_NE(loaded->report.warnings[0].find("99999 lines repeat"), std::string::npos)
      << loaded->report.warnings[0];
  EXPECT_TRUE(loaded->verifier->verify(key_one).has_value());
}

// Keys are found by digest, not by a scan (1.4 million keys once cost 39 ms a check). No test
// asserts a time: this one checks that keys anywhere in a large set are found.
TEST(KeyFileHostile, FindsKeysAmong200000) {
  const TempDir dir;
  constexpr int count = 200'000;
  const auto key = [](int i) { return "pst_many-keys-test_" + std::to_string(i); };
  std::string text;
  text.reserve(static_cast<std::size_t>(count) * 72);
  for (int i = 0; i < count; ++i) {
    text += line_for(key(i));
  }
  auto loaded = make_file_key_verifier(dir.write("keys", text));
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(loaded->report.key_count, static_cast<std::size_t>(count));
  EXPECT_TRUE(loaded->report.warnings.empty());
  const auto& verifier = *loaded->verifier;
  for (const int i : {count - 1, 0, count / 2}) {
    const auto found = verifier.verify(key(i));
    ASSERT_TRUE(found.has_value()) << i;
    EXPECT_EQ(found->id, principal_id(sha256(key(i)).value()));
  }
  EXPECT_FALSE(verifier.verify(key(count)).has_value());
}

}  // namespace
}  // namespace petstore::adapters::auth

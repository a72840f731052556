#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/auth/file_key_verifier.hpp"
#include "adapters/auth/key_digest.hpp"
#include "support/temp_dir.hpp"

namespace petstore::adapters::auth {
namespace {

using tests::TempDir;

const std::string old_key = "pst_old-key_CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC";
const std::string new_key = "pst_new-key_DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD";
const std::string stable_key = "pst_stable-key_EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE";

std::string line_for(const std::string& key) {
  return "sha256:" + to_hex(sha256(key).value()) + "\n";
}

TEST(FileKeyVerifierReload, AddedKeysWorkAndRemovedKeysStop) {
  const TempDir dir;
  const auto file = dir.write("keys", line_for(old_key) + line_for(stable_key));
  auto loaded = make_file_key_verifier(file);
  ASSERT_TRUE(loaded.has_value());
  auto& verifier = *loaded->verifier;
  EXPECT_TRUE(verifier.verify(old_key).has_value());
  EXPECT_FALSE(verifier.verify(new_key).has_value());

  const auto version_before = verifier.key_set_version();
  EXPECT_EQ(verifier.key_set_version(), version_before) << "steady while nothing is reloaded";
  dir.write("keys", line_for(new_key) + line_for(stable_key));
  const auto report = verifier.reload();
  ASSERT_TRUE(report.has_value()) << report.error().message;
  EXPECT_EQ(report->key_count, 2U);
  EXPECT_NE(verifier.key_set_version(), version_before) << "remembered results must be redone";
  EXPECT_FALSE(verifier.verify(old_key).has_value());
  EXPECT_TRUE(verifier.verify(new_key).has_value());
  EXPECT_TRUE(verifier.verify(stable_key).has_value());
}

TEST(FileKeyVerifierReload, FailedReloadKeepsTheKeysInUse) {
  const TempDir dir;
  const auto file = dir.write("keys", line_for(old_key));
  auto loaded = make_file_key_verifier(file);
  ASSERT_TRUE(loaded.has_value());
  auto& verifier = *loaded->verifier;

  const auto version_before = verifier.key_set_version();
  dir.write("keys", line_for(new_key) + "garbage\n");  // malformed
  EXPECT_FALSE(verifier.reload().has_value());
  dir.write("keys", line_for(new_key), 0622);  // refused for its mode
  EXPECT_FALSE(verifier.reload().has_value());
  std::filesystem::remove(file);  // missing
  EXPECT_FALSE(verifier.reload().has_value());

  EXPECT_TRUE(verifier.verify(old_key).has_value());
  EXPECT_FALSE(verifier.verify(new_key).has_value());
  EXPECT_EQ(verifier.key_set_version(), version_before) << "the keys in use did not change";
}

TEST(FileKeyVerifierReload, EmptiedFileRevokesEveryKeyWithAWarning) {
  const TempDir dir;
  const auto file = dir.write("keys", line_for(old_key));
  auto loaded = make_file_key_verifier(file);
  ASSERT_TRUE(loaded.has_value());

  dir.write("keys", "# all keys revoked\n");
  const auto report = loaded->verifier->reload();
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->key_count, 0U);
  ASSERT_EQ(report->warnings.size(), 1U);
  EXPECT_NE(report->warnings[0].find("petstore keys new --api-keys"), std::string::npos);
  EXPECT_FALSE(loaded->verifier->verify(old_key).has_value());
}

// While one thread rewrites the file and reloads, readers must always accept the key present in
// every version, and map the others to their own principal while they come and go, with no
// crash or data race (ASan here, TSan in the tsan preset).
TEST(FileKeyVerifierReload, VerifyIsSafeDuringReloads) {
  const TempDir dir;
  const std::string with_old = line_for(stable_key) + line_for(old_key);
  const std::string with_new = line_for(new_key) + line_for(stable_key);
  const auto file = dir.write("keys", with_old);
  auto loaded = make_file_key_verifier(file);
  ASSERT_TRUE(loaded.has_value());
  auto& verifier = *loaded->verifier;

  // The file is written before the readers start; reloads alternate between two snapshots of it.
  const auto file_old = dir.write("keys-old", with_old);
  const auto file_new = dir.write("keys-new", with_new);
  std::atomic<bool> done{false};
  std::atomic<int> stable_rejections{0};
  std::atomic<int> wrong_principals{0};
  const std::string old_id = principal_id(sha256(old_key).value());
  const std::string new_id = principal_id(sha256(new_key).value());
  constexpr int reader_count = 3;
  std::vector<std::thread> readers;
  readers.reserve(reader_count);
  for (int t = 0; t < reader_count; ++t) {
    readers.emplace_back([&] {
      while (!done.load()) {
        if (!verifier.verify(stable_key).has_value()) {
          ++stable_rejections;
        }
        // Whichever key set is current, an accepted key maps to its own principal.
        if (const auto old = verifier.verify(old_key); old && old->id != old_id) {
          ++wrong_principals;
        }
        if (const auto fresh = verifier.verify(new_key); fresh && fresh->id != new_id) {
          ++wrong_principals;
        }
      }
    });
  }
  int failed_reloads = 0;
  for (int i = 0; i < 300; ++i) {
    std::filesystem::copy_file(i % 2 == 0 ? file_new : file_old, file,
                               std::filesystem::copy_options::overwrite_existing);
    if (!verifier.reload().has_value()) {
      ++failed_reloads;
    }
  }
  done = true;
  for (auto& reader : readers) {
    reader.join();
  }
  EXPECT_EQ(failed_reloads, 0);
  EXPECT_EQ(stable_rejections.load(), 0);
  EXPECT_EQ(wrong_principals.load(), 0);
  // 300 reloads, the last one from file_old.
  EXPECT_TRUE(verifier.verify(old_key).has_value());
  EXPECT_FALSE(verifier.verify(new_key).has_value());
}

}  // namespace
}  // namespace petstore::adapters::auth

// `keys list` and `keys revoke` on a key file: what a listing shows, which key a revoke names,
// that every other byte of the file is kept, and that a revoke and `keys new` running at the same
// time both take effect.

#include "adapters/auth/key_file_admin.hpp"

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/auth/file_key_verifier.hpp"
#include "adapters/auth/key_digest.hpp"
#include "support/temp_dir.hpp"

namespace petstore::adapters::auth {
namespace {

using tests::mode_of;
using tests::read_text;
using tests::TempDir;

const std::string key_one = "pst_first-test-key_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const std::string key_two = "pst_second-test-key_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";
const std::string key_three = "pst_third-test-key_CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC";

std::string hex_of(const std::string& key) { return to_hex(sha256(key).value()); }

// sample: a hand-kept file: comments, a blank line, no newline at the end.
std::string sample() {
  return "# staging keys\n"
         "sha256:" +
         hex_of(key_one) +
         " ops created=2026-11-27T22:30:00Z\n"
         "\n"
         "read-only sha256:" +
         hex_of(key_two) +
         " dashboards\n"
         "  # the CI's key\n"
         "sha256:" +
         hex_of(key_three) + " ci";
}

TEST(ListApiKeys, GivesEachKeysLabelAccessAndCreatedTime) {
  const TempDir dir;
  const auto listed = list_api_keys(dir.write("keys", sample()));
  ASSERT_TRUE(listed.has_value()) << listed.error().message;
  ASSERT_EQ(listed->keys.size(), 3U);
  EXPECT_EQ(listed->keys[0].label, "ops");
  EXPECT_EQ(listed->keys[0].created, "2026-11-27T22:30:00Z");
  EXPECT_EQ(listed->keys[0].access, ports::KeyAccess::read_write);
  EXPECT_EQ(listed->keys[1].label, "dashboards");
  EXPECT_EQ(listed->keys[1].created, "");
  EXPECT_EQ(listed->keys[1].access, ports::KeyAccess::read_only);
  EXPECT_EQ(listed->keys[2].label, "ci");
  EXPECT_TRUE(listed->warnings.empty());
}

TEST(ListApiKeys, RefusesWhatServingRefuses) {
  const TempDir dir;
  EXPECT_FALSE(list_api_keys(dir.path() / "missing").has_value());
  const auto writable = list_api_keys(dir.write("shared", sample(), 0620));
  ASSERT_FALSE(writable.has_value());
  EXPECT_NE(writable.error().message.find("writable by group or others"), std::string::npos);
  const auto malformed = list_api_keys(dir.write("bad", sample() + "\n" + key_one + "\n"));
  ASSERT_FALSE(malformed.has_value());
  EXPECT_NE(malformed.error().message.find("line 7 is not"), std::string::npos);
  EXPECT_EQ(malformed.error().message.find(key_one), std::string::npos);
}

TEST(RevokeApiKey, ByLabelRemovesThatKeysLineAndKeepsEveryOtherByte) {
  const TempDir dir;
  const auto file = dir.write("keys", sample());
  const auto revoked = revoke_api_key(file, "dashboards");
  ASSERT_TRUE(revoked.has_value()) << revoked.error().message;
  EXPECT_EQ(to_hex(revoked->key.digest), hex_of(key_two));
  EXPECT_EQ(revoked->lines, 1U);
  EXPECT_EQ(read_text(file),
            "# staging keys\n"
            "sha256:" +
                hex_of(key_one) +
                " ops created=2026-11-27T22:30:00Z\n"
                "\n"
                "  # the CI's key\n"
                "sha256:" +
                hex_of(key_three) + " ci");
  EXPECT_EQ(mode_of(file), 0600U);
  auto served = make_file_key_verifier(file);
  ASSERT_TRUE(served.has_value());
  EXPECT_FALSE(served->verifier->verify(key_two).has_value());
  EXPECT_TRUE(served->verifier->verify(key_one).has_value());
  EXPECT_TRUE(served->verifier->verify(key_three).has_value());
}

TEST(RevokeApiKey, ByDigestPrefixInEachFormLogsAndListingsShow) {
  const std::string hex = hex_of(key_three);
  for (const std::string& which :
       {"key-" + hex.substr(0, 12), hex.substr(0, 8), "sha256:" + hex.substr(0, 20), hex}) {
    const TempDir dir;
    const auto file = dir.write("keys", sample());
    const auto revoked = revoke_api_key(file, which);
    ASSERT_TRUE(revoked.has_value()) << which << ": " << revoked.error().message;
    EXPECT_EQ(revoked->key.label, "ci") << which;
    EXPECT_EQ(read_text(file).find(hex), std::string::npos) << which;
    EXPECT_EQ(list_api_keys(file).value().keys.size(), 2U);
  }
}

TEST(RevokeApiKey, RemovesEveryLineThatRepeatsTheKey) {
  const TempDir dir;
  const auto file = dir.write("keys", sample() + "\nsha256:" + hex_of(key_one) + " again\n");
  const auto revoked = revoke_api_key(file, "ops");
  ASSERT_TRUE(revoked.has_value()) << revoked.error().message;
  EXPECT_EQ(revoked->lines, 2U);
  EXPECT_EQ(read_text(file).find(hex_of(key_one)), std::string::npos);
}

TEST(RevokeApiKey, ANameThatIsNotExactlyOneKeyChangesNothing) {
  const TempDir dir;
  const std::string text =
      sample() + "\nsha256:" + hex_of("pst_fourth") + " ops\n";  // a second key labelled ops
  const auto file = dir.write("keys", text);
  const std::string short_prefix = hex_of(key_one).substr(0, 7);
  for (const std::string& which :
       {std::string("ops"), std::string("nobody"), short_prefix, std::string("key-"),
        std::string(""), hex_of(key_one).substr(0, 12) + "X"}) {
    const auto revoked = revoke_api_key(file, which);
    ASSERT_FALSE(revoked.has_value()) << which;
    EXPECT_EQ(revoked.error().field, "key") << which;
    EXPECT_EQ(read_text(file), text) << which;
  }
  const auto two = revoke_api_key(file, "ops");
  ASSERT_FALSE(two.has_value());
  EXPECT_NE(two.error().message.find("names 2 keys (key-" + hex_of(key_one).substr(0, 12)),
            std::string::npos)
      << two.error().message;
}

TEST(RevokeApiKey, RefusesAFileItWouldNotServeAndLeavesItUnchanged) {
  const TempDir dir;
  const auto writable = dir.write("shared", sample(), 0660);
  EXPECT_FALSE(revoke_api_key(writable, "ops").has_value());
  EXPECT_EQ(read_text(writable), sample());
  const std::string bad = sample() + "\nnot a key line\n";
  const auto malformed = dir.write("bad", bad);
  const auto refused = revoke_api_key(malformed, "ops");
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().field, "api-keys");
  EXPECT_EQ(read_text(malformed), bad);
  EXPECT_FALSE(revoke_api_key(dir.path() / "missing", "ops").has_value());
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "missing"));
}

TEST(RevokeApiKey, KeepsTheModeOfTheFile) {
  const TempDir dir;
  const auto file = dir.write("keys", sample(), 0640);
  ASSERT_TRUE(revoke_api_key(file, "ci").has_value());
  EXPECT_EQ(mode_of(file), 0640U);
}

// keys new appends under the file's lock and a revoke replaces the file under it: run together,
// every new key is kept and the revoked one is gone.
TEST(RevokeApiKey, AndKeysNewAtTheSameTimeBothTakeEffect) {
  const TempDir dir;
  const auto file = dir.write("keys", sample());
  constexpr int made = 40;
  std::vector<std::string> keys(made);
  std::thread maker([&] {
    for (int i = 0; i < made; ++i) {
      keys[static_cast<std::size_t>(i)] =
          create_api_key(file, "new-" + std::to_string(i), ports::KeyAccess::read_write,
                         std::chrono::system_clock::now())
              .value()
              .key;
    }
  });
  for (const char* which : {"ops", "dashboards", "ci"}) {
    ASSERT_TRUE(revoke_api_key(file, which).has_value()) << which;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  maker.join();
  auto served = make_file_key_verifier(file);
  ASSERT_TRUE(served.has_value()) << served.error().message;
  EXPECT_EQ(served->report.key_count, static_cast<std::size_t>(made));
  for (const std::string& key : keys) {
    EXPECT_TRUE(served->verifier->verify(key).has_value());
  }
  for (const std::string& key : {key_one, key_two, key_three}) {
    EXPECT_FALSE(served->verifier->verify(key).has_value());
  }
}

}  // namespace
}  // namespace petstore::adapters::auth

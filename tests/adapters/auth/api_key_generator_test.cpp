#include <algorithm>
#include <chrono>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "adapters/auth/file_key_verifier.hpp"
#include "adapters/auth/key_digest.hpp"
#include "adapters/auth/key_file_admin.hpp"
#include "support/temp_dir.hpp"

namespace petstore::adapters::auth {
namespace {

using tests::mode_of;
using tests::read_text;
using tests::TempDir;

// (std::regex is avoided: g++ 12 reports a false maybe-uninitialized in it under ASan at -O2.)
bool is_base64url(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

// has_key_shape: "pst_" and 43 base64url characters (32 bytes, no padding).
bool has_key_shape(std::string_view key) {
  return key.size() == 4 + 43 && key.starts_with("pst_") &&
         std::all_of(key.begin() + 4, key.end(), is_base64url);
}

// is_token68: RFC 7235 token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=".
bool is_token68(std::string_view text) {
  const auto body_end = text.find_last_not_of('=') + 1;
  return body_end > 0 &&
         std::all_of(text.begin(), text.begin() + static_cast<long>(body_end), [](char c) {
           return is_base64url(c) || c == '.' || c == '~' || c == '+' || c == '/';
         });
}

// made_at: 2026-11-27T22:30:00Z, the time each key of these tests is made at.
const auto made_at = std::chrono::system_clock::time_point(std::chrono::seconds(1'795'818'600));
constexpr std::string_view created_word = " created=2026-11-27T22:30:00Z";

domain::Result<NewApiKey> make_key(const std::filesystem::path& file, std::string_view label,
                                   ports::KeyAccess access = ports::KeyAccess::read_write) {
  return create_api_key(file, label, access, made_at);
}

TEST(GenerateApiKey, IsPrefixedBase64UrlOf32BytesAndAToken68) {
  const auto key = generate_api_key();
  ASSERT_TRUE(key.has_value());
  EXPECT_TRUE(has_key_shape(*key)) << *key;
  EXPECT_TRUE(is_token68(*key)) << *key;
}

TEST(GenerateApiKey, TwoKeysDiffer) {
  const auto first = generate_api_key();
  const auto second = generate_api_key();
  ASSERT_TRUE(first.has_value() && second.has_value());
  EXPECT_NE(*first, *second);
}

TEST(CreateApiKey, CreatesTheFileWithMode0600AndOneDigestLine) {
  const TempDir dir;
  const auto file = dir.path() / "keys";
  const auto created = make_key(file, "ci-runner");
  ASSERT_TRUE(created.has_value()) << created.error().message;
  EXPECT_TRUE(has_key_shape(created->key));
  EXPECT_EQ(mode_of(file), 0600U);
  const std::string hex = to_hex(sha256(created->key).value());
  EXPECT_EQ(read_text(file), "sha256:" + hex + " ci-runner" + std::string(created_word) + "\n");
  EXPECT_EQ(created->principal_id, "key-" + hex.substr(0, 12));
  EXPECT_TRUE(created->warnings.empty());
}

TEST(CreateApiKey, AppendsAndTheServedFileAcceptsEveryCreatedKey) {
  const TempDir dir;
  const auto file = dir.path() / "keys";
  const auto first = make_key(file, "");
  const auto second = make_key(file, "second");
  ASSERT_TRUE(first.has_value()) << first.error().message;
  ASSERT_TRUE(second.has_value()) << second.error().message;
  EXPECT_NE(first->key, second->key);
  EXPECT_EQ(read_text(file), "sha256:" + to_hex(sha256(first->key).value()) +
                                 std::string(created_word) +
                                 "\nsha256:" + to_hex(sha256(second->key).value()) + " second" +
                                 std::string(created_word) + "\n");

  auto loaded = make_file_key_verifier(file);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(loaded->report.key_count, 2U);
  const auto principal = loaded->verifier->verify(first->key);
  ASSERT_TRUE(principal.has_value());
  EXPECT_EQ(principal->id, first->principal_id);
  EXPECT_EQ(principal->label, "");
  const auto labelled = loaded->verifier->verify(second->key);
  ASSERT_TRUE(labelled.has_value());
  EXPECT_EQ(labelled->label, "second");
  EXPECT_EQ(labelled->access, ports::KeyAccess::read_write);
}

TEST(CreateApiKey, AReadOnlyKeyIsWrittenReadOnlyAndServedReadOnly) {
  const TempDir dir;
  const auto file = dir.path() / "keys";
  const auto made = make_key(file, "dashboards", ports::KeyAccess::read_only);
  ASSERT_TRUE(made.has_value()) << made.error().message;
  EXPECT_EQ(read_text(file), "read-only sha256:" + to_hex(sha256(made->key).value()) +
                                 " dashboards" + std::string(created_word) + "\n");
  auto loaded = make_file_key_verifier(file);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  const auto principal = loaded->verifier->verify(made->key);
  ASSERT_TRUE(principal.has_value());
  EXPECT_EQ(*principal,
            (ports::Principal{made->principal_id, "dashboards", ports::KeyAccess::read_only}));
}

TEST(CreateApiKey, StartsANewLineAfterAHandEditedLastLine) {
  const TempDir dir;
  const auto file = dir.write("keys", "# written by hand, no newline at the end");
  const auto created = make_key(file, "");
  ASSERT_TRUE(created.has_value()) << created.error().message;
  EXPECT_EQ(read_text(file), "# written by hand, no newline at the end\nsha256:" +
                                 to_hex(sha256(created->key).value()) + std::string(created_word) +
                                 "\n");
}

TEST(CreateApiKey, KeepsTheModeOfAnExistingFileAndWarnsWhenOthersCanRead) {
  const TempDir dir;
  const auto file = dir.write("keys", "", 0604);
  const auto created = make_key(file, "");
  ASSERT_TRUE(created.has_value());
  EXPECT_EQ(mode_of(file), 0604U);
  ASSERT_EQ(created->warnings.size(), 1U);
  EXPECT_NE(created->warnings[0].find("readable by others"), std::string::npos);
}

TEST(CreateApiKey, RefusesAFileWritableByGroupOrOthersAndLeavesItUnchanged) {
  const TempDir dir;
  for (const unsigned mode : {0620U, 0602U}) {
    const auto file = dir.write("keys", "# shared\n", mode);
    const auto created = make_key(file, "");
    ASSERT_FALSE(created.has_value());
    EXPECT_NE(created.error().message.find("writable by group or others"), std::string::npos);
    EXPECT_EQ(read_text(file), "# shared\n");
  }
}

TEST(CreateApiKey, RefusesBadLabelsBeforeTouchingTheFile) {
  const TempDir dir;
  const auto file = dir.path() / "keys";
  for (const std::string& label : {std::string("two words"), std::string("line\nbreak"),
                                   std::string("tab\t"), std::string(65, 'x')}) {
    const auto created = make_key(file, label);
    ASSERT_FALSE(created.has_value()) << label;
    EXPECT_EQ(created.error().field, "label");
    EXPECT_FALSE(std::filesystem::exists(file));
  }
}

TEST(CreateApiKey, MissingDirectoryIsAnErrorNamingThePath) {
  const TempDir dir;
  const auto file = dir.path() / "no-such-dir" / "keys";
  const auto created = make_key(file, "");
  ASSERT_FALSE(created.has_value());
  EXPECT_EQ(created.error().code, domain::ErrorCode::unavailable);
  EXPECT_NE(created.error().message.find(file.string()), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(file.parent_path()));
}

}  // namespace
}  // namespace petstore::adapters::auth

#include "adapters/auth/file_key_verifier.hpp"

#include <gtest/gtest.h>

#include "adapters/auth/key_digest.hpp"
#include "support/temp_dir.hpp"

namespace petstore::adapters::auth {
namespace {

using tests::TempDir;

const std::string key_one = "pst_first-test-key_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
const std::string key_two = "pst_second-test-key_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB";

std::string line_for(const std::string& key, const std::string& label = "") {
  return "sha256:" + to_hex(sha256(key).value()) + (label.empty() ? "" : " " + label) + "\n";
}

TEST(FileKeyVerifier, AcceptsStoredKeysAndNamesThemByDigestPrefix) {
  const TempDir dir;
  const auto file =
      dir.write("keys", "# test keys\n" + line_for(key_one, "one") + line_for(key_two));
  auto loaded = make_file_key_verifier(file);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(loaded->report.key_count, 2U);
  EXPECT_TRUE(loaded->report.warnings.empty());

  const auto one = loaded->verifier->verify(key_one);
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->id, "key-" + to_hex(sha256(key_one).value()).substr(0, 12));
  EXPECT_EQ(one->id.find(key_one.substr(4, 12)), std::string::npos);
  const auto two = loaded->verifier->verify(key_two);
  ASSERT_TRUE(two.has_value());
  EXPECT_NE(one->id, two->id);
  EXPECT_EQ(loaded->verifier->verify(key_one).value(), *one);  // stable
}

TEST(FileKeyVerifier, RejectsUnknownEmptyAndNearMissKeys) {
  const TempDir dir;
  auto loaded = make_file_key_verifier(dir.write("keys", line_for(key_one)));
  ASSERT_TRUE(loaded.has_value());
  const auto& verifier = *loaded->verifier;
  std::string flipped = key_one;
  flipped.back() = 'B';
  for (const std::string& presented :
       {std::string(), key_two, key_one.substr(0, key_one.size() - 1), key_one + "A", flipped,
        " " + key_one, to_hex(sha256(key_one).value()),
        "sha256:" + to_hex(sha256(key_one).value())}) {
    const auto result = verifier.verify(presented);
    ASSERT_FALSE(result.has_value()) << presented;
    EXPECT_EQ(result.error().code, domain::ErrorCode::unauthenticated);
    EXPECT_EQ(result.error().message.find(key_one), std::string::npos);
  }
}

TEST(FileKeyVerifier, MissingFileIsAnErrorNamingThePath) {
  const TempDir dir;
  const auto file = dir.path() / "absent";
  const auto loaded = make_file_key_verifier(file);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code, domain::ErrorCode::unavailable);
  EXPECT_NE(loaded.error().message.find(file.string()), std::string::npos);
}

TEST(FileKeyVerifier, DirectoryIsNotAKeyFile) {
  const TempDir dir;
  const auto loaded = make_file_key_verifier(dir.path());
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code, domain::ErrorCode::invalid_argument);
}

TEST(FileKeyVerifier, RefusesFilesWritableByGroupOrOthers) {
  const TempDir dir;
  for (const unsigned mode : {0620U, 0602U, 0666U, 0660U}) {
    const auto file = dir.write("keys", line_for(key_one), mode);
    const auto loaded = make_file_key_verifier(file);
    ASSERT_FALSE(loaded.has_value()) << std::oct << mode;
    EXPECT_EQ(loaded.error().code, domain::ErrorCode::invalid_argument);
    const std::string& message = loaded.error().message;
    EXPECT_NE(message.find("writable by group or others"), std::string::npos) << message;
    EXPECT_NE(message.find("chmod 600 " + file.string()), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos);
  }
}

TEST(FileKeyVerifier, ServesAFileReadableByOthersWithAWarning) {
  const TempDir dir;
  const auto file = dir.write("keys", line_for(key_one), 0604);
  auto loaded = make_file_key_verifier(file);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  ASSERT_EQ(loaded->report.warnings.size(), 1U);
  EXPECT_NE(loaded->report.warnings[0].find("readable by others"), std::string::npos);
  EXPECT_TRUE(loaded->verifier->verify(key_one).has_value());
}

TEST(FileKeyVerifier, OwnerOnlyAndGroupReadableFilesLoadWithoutWarning) {
  const TempDir dir;
  for (const unsigned mode : {0600U, 0400U, 0640U}) {
    auto loaded = make_file_key_verifier(dir.write("keys", line_for(key_one), mode));
    ASSERT_TRUE(loaded.has_value()) << std::oct << mode;
    EXPECT_TRUE(loaded->report.warnings.empty()) << std::oct << mode;
  }
}

TEST(FileKeyVerifier, MalformedLineFailsTheLoadByNumberWithoutEchoingIt) {
  const TempDir dir;
  const auto file = dir.write("keys", line_for(key_two) + "\n" + key_one + "\n");
  const auto loaded = make_file_key_verifier(file);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code, domain::ErrorCode::invalid_argument);
  EXPECT_NE(loaded.error().message.find("line 3 "), std::string::npos) << loaded.error().message;
  EXPECT_NE(loaded.error().message.find(file.string()), std::string::npos);
  EXPECT_EQ(loaded.error().message.find(key_one), std::string::npos);
}

TEST(FileKeyVerifier, NoKeysIsAnErrorThatSaysHowToMakeOne) {
  const TempDir dir;
  const auto file = dir.write("keys", "# no keys yet\n\n");
  const auto loaded = make_file_key_verifier(file);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_NE(loaded.error().message.find("petstore keys new --api-keys " + file.string()),
            std::string::npos)
      << loaded.error().message;
}

TEST(FileKeyVerifier, RepeatedKeyIsReportedAndCountedOnce) {
  const TempDir dir;
  auto loaded = make_file_key_verifier(dir.write("keys", line_for(key_one) + line_for(key_one)));
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->report.key_count, 1U);
  ASSERT_EQ(loaded->report.warnings.size(), 1U);
  EXPECT_NE(loaded->report.warnings[0].find("line 2 repeats the key of line 1"), std::string::npos);
}

// The principal carries the line's label and access, and a reload applies a change of either.
TEST(FileKeyVerifier, APrincipalHasItsLinesLabelAndAccessAndAReloadChangesThem) {
  const TempDir dir;
  const auto file = dir.write("keys", line_for(key_one, "ops created=2026-11-27T22:30:00Z"));
  auto loaded = make_file_key_verifier(file);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  const auto before = loaded->verifier->verify(key_one);
  ASSERT_TRUE(before.has_value());
  EXPECT_EQ(before->label, "ops");
  EXPECT_EQ(before->access, ports::KeyAccess::read_write);

  dir.write("keys", "read-only " + line_for(key_one, "ops-readonly"));
  ASSERT_TRUE(loaded->verifier->reload().has_value());
  const auto after = loaded->verifier->verify(key_one);
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->id, before->id) << "the scope of a key does not follow its label";
  EXPECT_EQ(after->label, "ops-readonly");
  EXPECT_EQ(after->access, ports::KeyAccess::read_only);
}

}  // namespace
}  // namespace petstore::adapters::auth

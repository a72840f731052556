#include "adapters/auth/key_file_format.hpp"

#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "adapters/auth/key_digest.hpp"

namespace petstore::adapters::auth {
namespace {

const std::string hex_a(64, 'a');
const std::string hex_b = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

std::string line_number_message(std::size_t line) {
  return "line " + std::to_string(line) +
         " is not `[read-only] sha256:<64 lowercase hex digits> [label]`";
}

TEST(KeyDigest, Sha256MatchesTheStandardTestVector) {
  const auto digest = sha256("abc");
  ASSERT_TRUE(digest.has_value());
  EXPECT_EQ(to_hex(*digest), hex_b);
}

TEST(KeyDigest, PrincipalIdIsKeyDashAndTwelveHexDigits) {
  const auto digest = parse_hex_digest(hex_b);
  ASSERT_TRUE(digest.has_value());
  EXPECT_EQ(principal_id(*digest), "key-ba7816bf8f01");
}

TEST(KeyDigest, ParseHexRefusesUppercaseWrongLengthAndNonHex) {
  EXPECT_FALSE(parse_hex_digest(std::string(64, 'A')).has_value());
  EXPECT_FALSE(parse_hex_digest(std::string(63, 'a')).has_value());
  EXPECT_FALSE(parse_hex_digest(std::string(65, 'a')).has_value());
  EXPECT_FALSE(parse_hex_digest(std::string(63, 'a') + "g").has_value());
  EXPECT_FALSE(parse_hex_digest("").has_value());
}

RC_GTEST_PROP(KeyDigest, HexSpellingRoundTrips, (const std::array<unsigned char, 32>& bytes)) {
  const auto parsed = parse_hex_digest(to_hex(bytes));
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(*parsed == bytes);
}

TEST(KeyFileFormat, ReadsKeysLabelsAndSkipsBlanksAndComments) {
  const std::string text = "# keys for staging\n\n   \n  # indented comment\nsha256:" + hex_a +
                           "\n\tsha256:" + hex_b + "   ci runner  \r\n";
  const auto parsed = parse_key_file(text);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  ASSERT_EQ(parsed->keys.size(), 2U);
  EXPECT_EQ(to_hex(parsed->keys[0].digest), hex_a);
  EXPECT_EQ(parsed->keys[0].label, "");
  EXPECT_EQ(parsed->keys[0].line, 5U);
  EXPECT_EQ(to_hex(parsed->keys[1].digest), hex_b);
  EXPECT_EQ(parsed->keys[1].label, "ci runner");
  EXPECT_EQ(parsed->keys[1].line, 6U);
  EXPECT_TRUE(parsed->warnings.empty());
}

TEST(KeyFileFormat, EmptyOrCommentOnlyTextHasNoKeys) {
  for (const std::string_view text : {"", "\n\n", "# nothing here\n", "#sha256:x"}) {
    const auto parsed = parse_key_file(text);
    ASSERT_TRUE(parsed.has_value()) << text;
    EXPECT_TRUE(parsed->keys.empty()) << text;
  }
}

TEST(KeyFileFormat, LastLineNeedsNoNewline) {
  const auto parsed = parse_key_file("sha256:" + hex_a + " laptop");
  ASSERT_TRUE(parsed.has_value());
  ASSERT_EQ(parsed->keys.size(), 1U);
  EXPECT_EQ(parsed->keys[0].label, "laptop");
}

TEST(KeyFileFormat, MalformedLinesFailWithTheirNumberAndNeverTheirText) {
  const std::string secret = "pst_ThisLooksLikeAPastedKeyAndMustNotBeEchoed_1234567890";
  const std::vector<std::string> bad_lines = {
      secret,                                  // a key pasted instead of its digest
      "sha256:" + std::string(64, 'A'),        // uppercase hex
      "sha256:" + std::string(63, 'a'),        // too short
      "sha256:" + std::string(65, 'a'),        // too long
      "sha256:" + std::string(63, 'a') + "z",  // not hex
      "SHA256:" + hex_a,                       // prefix is case-sensitive
      "sha512:" + hex_a,                       // another algorithm
      hex_a,                                   // no prefix
      "sha256: " + hex_a,                      // space inside
      "sha256:" + hex_a + "#label",            // junk glued to the digest
      "sha256:" + hex_a + " bad\x01label",     // control character in the label
      "sha256:" + hex_a + " " + secret + "\x7f",
      "read-write sha256:" + hex_a,       // an option this version does not know
      "readonly sha256:" + hex_a,         // misspelt: refused, never ignored
      "read-only,admin sha256:" + hex_a,  // one unknown option among known ones
      "read-only, sha256:" + hex_a,       // an empty option
      "read-only",                        // options without a digest
      "read-only:sha256:" + hex_a,        // glued
      secret + " sha256:" + hex_a,        // a pasted key where options go
  };
  const std::string good_lines = "# header\nsha256:" + hex_b + "\n";
  for (const std::string& bad : bad_lines) {
    const auto parsed = parse_key_file(std::string(good_lines).append(bad).append("\n"));
    ASSERT_FALSE(parsed.has_value()) << bad;
    EXPECT_EQ(parsed.error().code, domain::ErrorCode::invalid_argument);
    EXPECT_EQ(parsed.error().message, line_number_message(3));
    EXPECT_EQ(parsed.error().message.find(secret), std::string::npos);
  }
}

TEST(KeyFileFormat, RepeatedKeyIsKeptOnceWithAWarning) {
  const std::string text =
      "sha256:" + hex_a + " first\nsha256:" + hex_b + "\nsha256:" + hex_a + " again\n";
  const auto parsed = parse_key_file(text);
  ASSERT_TRUE(parsed.has_value());
  ASSERT_EQ(parsed->keys.size(), 2U);
  EXPECT_EQ(parsed->keys[0].label, "first");
  ASSERT_EQ(parsed->warnings.size(), 1U);
  EXPECT_EQ(parsed->warnings[0], "line 3 repeats the key of line 1");
}

// A file of many copies of one line once wrote a warning per copy (121 MB for 1.3 million).
TEST(KeyFileFormat, ManyRepeatedLinesMakeOneWarning) {
  std::string text = "sha256:" + hex_b + "\n";
  for (int copy = 0; copy < 100'000; ++copy) {
    text += "sha256:" + hex_a + " copy\n";
  }
  const auto parsed = parse_key_file(text);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->keys.size(), 2U);
  ASSERT_EQ(parsed->warnings.size(), 1U);
  EXPECT_EQ(parsed->warnings[0],
            "99999 lines repeat the keys of earlier lines (the first: line 3 repeats the key of "
            "line 2)");
}

TEST(KeyLabel, AcceptsEmptyAndVisibleAscii) {
  EXPECT_TRUE(validate_label("").has_value());
  EXPECT_TRUE(validate_label("ci-runner_2024.prod@eu").has_value());
  EXPECT_TRUE(validate_label(std::string(max_label_size, 'x')).has_value());
}

TEST(KeyLabel, RefusesWhitespaceControlsNonAsciiAndLongLabels) {
  for (const std::string& label :
       {std::string("two words"), std::string("tab\there"), std::string("new\nline"),
        std::string("cr\r"), std::string("nul\0x", 5), std::string("del\x7f"),
        std::string("caf\xc3\xa9"), std::string(max_label_size + 1, 'x')}) {
    const auto valid = validate_label(label);
    ASSERT_FALSE(valid.has_value()) << label;
    EXPECT_EQ(valid.error().field, "label");
  }
}

TEST(KeyFileFormat, FormatsALineWithAndWithoutLabel) {
  const auto digest = parse_hex_digest(hex_b);
  ASSERT_TRUE(digest.has_value());
  const auto full = ports::KeyAccess::read_write;
  EXPECT_EQ(format_key_line(*digest, "", full, ""), "sha256:" + hex_b + "\n");
  EXPECT_EQ(format_key_line(*digest, "ops", full, ""), "sha256:" + hex_b + " ops\n");
  EXPECT_EQ(format_key_line(*digest, "ops", full, "2026-11-27T22:30:00Z"),
            "sha256:" + hex_b + " ops created=2026-11-27T22:30:00Z\n");
  EXPECT_EQ(format_key_line(*digest, "", ports::KeyAccess::read_only, "2026-11-27T22:30:00Z"),
            "read-only sha256:" + hex_b + " created=2026-11-27T22:30:00Z\n");
}

TEST(KeyFileFormat, ReadOnlyBeforeTheDigestLimitsTheKey) {
  const std::string text =
      "read-only sha256:" + hex_a + " dashboards\n  read-only,read-only\t sha256:" + hex_b + "\n";
  const auto parsed = parse_key_file(text);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  ASSERT_EQ(parsed->keys.size(), 2U);
  EXPECT_EQ(parsed->keys[0].access, ports::KeyAccess::read_only);
  EXPECT_EQ(parsed->keys[0].label, "dashboards");
  EXPECT_EQ(parsed->keys[1].access, ports::KeyAccess::read_only);
  EXPECT_EQ(parsed->keys[1].label, "");
  const auto plain = parse_key_file("sha256:" + hex_a + " read-only\n");
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->keys[0].access, ports::KeyAccess::read_write) << "after the digest: a label";
  EXPECT_EQ(plain->keys[0].label, "read-only");
}

TEST(KeyFileFormat, ACreatedTimeIsTheLabelsLastWordOnlyWhenItIsOne) {
  const std::string text = "sha256:" + hex_a + " ops created=2026-11-27T22:30:00Z\n" +
                           "sha256:" + hex_b + " created=2026-01-02T03:04:05Z\n";
  const auto parsed = parse_key_file(text);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message;
  EXPECT_EQ(parsed->keys[0].label, "ops");
  EXPECT_EQ(parsed->keys[0].created, "2026-11-27T22:30:00Z");
  EXPECT_EQ(parsed->keys[1].label, "");
  EXPECT_EQ(parsed->keys[1].created, "2026-01-02T03:04:05Z");
  // Anything else stays in the label, as a petstore before created= read it.
  for (const char* label :
       {"created=yesterday", "ops created=2026-11-27", "created=2026-11-27T22:30:00Z ops",
        "ops created=2026-11-27T22:30:00+01:00", "ops created=2026-11-27 22:30:00Z"}) {
    std::string line = "sha256:" + hex_a;
    line.append(" ").append(label).append("\n");
    const auto kept = parse_key_file(line);
    ASSERT_TRUE(kept.has_value()) << label;
    EXPECT_EQ(kept->keys[0].label, label);
    EXPECT_EQ(kept->keys[0].created, "");
  }
}

TEST(KeyFileFormat, KeyOfLineFindsTheDigestOfAKeyLineOnly) {
  EXPECT_EQ(key_of_line("  read-only sha256:" + hex_a + " x created=2026-11-27T22:30:00Z\r"),
            parse_hex_digest(hex_a));
  EXPECT_EQ(key_of_line("sha256:" + hex_b), parse_hex_digest(hex_b));
  EXPECT_EQ(key_of_line("# sha256:" + hex_a), std::nullopt);
  EXPECT_EQ(key_of_line("   "), std::nullopt);
  EXPECT_EQ(key_of_line("sha256:" + hex_a.substr(1)), std::nullopt);
}

RC_GTEST_PROP(KeyFileFormat, FormattedLinesParseBack,
              (const std::vector<std::array<unsigned char, 32>>& digests)) {
  const auto label_gen = rc::gen::container<std::string>(rc::gen::inRange<char>(0x21, 0x7F));
  std::string text;
  std::vector<std::string> labels;
  std::vector<ports::KeyAccess> accesses;
  std::vector<std::string> times;
  for (const auto& digest : digests) {
    auto label = *rc::gen::resize(static_cast<int>(max_label_size), label_gen);
    RC_ASSERT(validate_label(label).has_value());
    const auto access =
        *rc::gen::element(ports::KeyAccess::read_write, ports::KeyAccess::read_only);
    const std::string created =
        *rc::gen::element(std::string(), std::string("2026-11-27T22:30:00Z"));
    text += format_key_line(digest, label, access, created);
    labels.push_back(std::move(label));
    accesses.push_back(access);
    times.push_back(created);
  }
  const auto parsed = parse_key_file(text);
  RC_ASSERT(parsed.has_value());
  std::set<std::array<unsigned char, 32>> distinct(digests.begin(), digests.end());
  RC_ASSERT(parsed->keys.size() == distinct.size());
  // Repeated lines, however many, make one warning that counts them.
  const std::size_t repeated = digests.size() - distinct.size();
  RC_ASSERT(parsed->warnings.size() == (repeated == 0 ? 0U : 1U));
  if (repeated > 1) {
    RC_ASSERT(parsed->warnings[0].starts_with(std::to_string(repeated) + " lines repeat"));
  } else if (repeated == 1) {
    RC_ASSERT(parsed->warnings[0].find(" repeats the key of line ") != std::string::npos);
  }
  for (const KeyEntry& entry : parsed->keys) {
    RC_ASSERT(entry.digest == digests[entry.line - 1]);
    RC_ASSERT(entry.label == labels[entry.line - 1]);
    RC_ASSERT(entry.access == accesses[entry.line - 1]);
    RC_ASSERT(entry.created == times[entry.line - 1]);
  }
}

}  // namespace
}  // namespace petstore::adapters::auth

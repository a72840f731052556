// `petstore keys new` and the key file rules of `serve` (contract sections 4 and 7): the key is
// printed once and stored as a digest line in a 0600 file; the printed key opens /v1; a file
// without a usable key, or writable by group or others, stops serve with exit 1 and one line.

#include <signal.h>
#include <string>
#include <sys/stat.h>
#include <vector>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"

namespace petstore::tests {
namespace {

// is_digest_line: `line` is "sha256:<64 lowercase hex>", then " LABEL" when a label is given.
bool is_digest_line(const std::string& line, const std::string& label) {
  const std::string_view prefix = "sha256:";
  const std::size_t hex_end = prefix.size() + 64;
  return line.rfind(prefix, 0) == 0 && line.size() >= hex_end &&
         line.find_first_not_of("0123456789abcdef", prefix.size()) >= hex_end &&
         line.substr(hex_end) == (label.empty() ? "" : " " + label);
}

// lines_of: the lines of `text`; an unterminated last line shows up as "<unterminated>".
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end = text.find('\n'); end != std::string::npos;
       start = end + 1, end = text.find('\n', start)) {
    lines.push_back(text.substr(start, end - start));
  }
  if (start != text.size()) {
    lines.emplace_back("<unterminated>");
  }
  return lines;
}

void expect_refused_with_one_line(const Completed& run, const std::string& mention) {
  EXPECT_TRUE(run.status.exited_with(1)) << "code " << run.status.code << ", stderr: " << run.err;
  EXPECT_EQ(count_lines(run.err), 1U) << run.err;
  EXPECT_NE(run.err.find(mention), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find("listening"), std::string::npos) << run.out;
}

TEST(CliKeysTest, KeysNewPrintsOneKeyAndStoresOnlyItsDigest) {
  const TempDir dir;
  const auto file = dir.path() / "keys";
  const Completed run =
      run_petstore({"keys", "new", "--api-keys", file.string(), "--label", "ops"});
  ASSERT_TRUE(run.status.exited_with(0)) << run.err;
  ASSERT_EQ(count_lines(run.out), 1U) << run.out;
  const std::string key = run.out.substr(0, run.out.find('\n'));
  // 32 random bytes take at least 43 characters in any text encoding a header can carry.
  EXPECT_GE(key.size(), 43U);
  EXPECT_EQ(key.find_first_of(" \t\r"), std::string::npos) << key;
  EXPECT_EQ(mode_of(file), 0600U);
  const std::string text = read_text(file);
  const auto lines = lines_of(text);
  ASSERT_EQ(lines.size(), 1U) << text;
  EXPECT_TRUE(is_digest_line(lines[0], "ops")) << text;
  EXPECT_EQ(text.find(key), std::string::npos) << "the key itself must not be stored";
}

TEST(CliKeysTest, KeysNewAppendsAndKeepsEarlierKeys) {
  const TempDir dir;
  const auto file = dir.path() / "keys";
  const std::string first = make_key(file, "first");
  const std::string second = make_key(file);
  ASSERT_FALSE(first.empty());
  ASSERT_FALSE(second.empty());
  EXPECT_NE(first, second);
  const std::string text = read_text(file);
  const auto lines = lines_of(text);
  ASSERT_EQ(lines.size(), 2U) << text;
  EXPECT_TRUE(is_digest_line(lines[0], "first")) << text;
  EXPECT_TRUE(is_digest_line(lines[1], "")) << text;
  EXPECT_EQ(mode_of(file), 0600U);
}

TEST(CliKeysTest, KeysNewRefusesAFileWritableByOthers) {
  const TempDir dir;
  const auto file = dir.write("keys", "# shared by mistake\n", 0666);
  const Completed run = run_petstore({"keys", "new", "--api-keys", file.string()});
  EXPECT_TRUE(run.status.exited_with(1)) << run.err;
  EXPECT_EQ(count_lines(run.err), 1U) << run.err;
  EXPECT_TRUE(run.out.empty()) << "no key may be shown when it was not stored";
  EXPECT_EQ(read_text(file), "# shared by mistake\n");
}

TEST(CliKeysTest, ThePrintedKeyOpensTheApiAndOthersGet401) {
  const TempDir dir;
  const auto file = dir.path() / "keys";
  const std::string key = make_key(file, "tester");
  ASSERT_FALSE(key.empty());
  ServedPetstore served(petstore(serve_args(file)));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();

  const RawResponse created = http_call(served.port(), "POST", "/v1/pets", key, pet_json("Rex"));
  EXPECT_EQ(created.status, 201U) << created;
  EXPECT_EQ(http_call(served.port(), "GET", "/v1/pets/1", key).status, 200U);
  const RawResponse wrong = http_call(served.port(), "GET", "/v1/pets", key + "x");
  EXPECT_EQ(wrong.status, 401U);
  EXPECT_NE(wrong.header("WWW-Authenticate").value_or("").find("invalid_token"), std::string::npos)
      << wrong;
  EXPECT_EQ(http_call(served.port(), "GET", "/v1/pets").status, 401U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  EXPECT_EQ(served.child().captured_stderr().find(key), std::string::npos) << "key in a log line";
}

TEST(CliKeysTest, MissingKeyFileSaysHowToMakeOne) {
  const TempDir dir;
  expect_refused_with_one_line(run_petstore(serve_args(dir.path() / "absent")),
                               "petstore keys new");
}

TEST(CliKeysTest, KeyFileWithOnlyCommentsSaysHowToMakeOne) {
  const TempDir dir;
  const auto file = dir.write("keys", "# keys for the test\n\n   \n# none yet\n");
  expect_refused_with_one_line(run_petstore(serve_args(file)), "petstore keys new");
}

TEST(CliKeysTest, MalformedKeyLineIsRefusedWithoutEchoingIt) {
  const TempDir dir;
  const std::string pasted = "pst_this-looks-like-a-raw-key-pasted-by-mistake";
  const auto file = dir.write("keys", pasted + "\n");
  const Completed run = run_petstore(serve_args(file));
  expect_refused_with_one_line(run, "line 1");
  EXPECT_EQ(run.err.find(pasted), std::string::npos) << run.err;
}

TEST(CliKeysTest, KeyFileWritableByGroupOrOthersIsRefused) {
  const TempDir dir;
  const auto file = dir.path() / "keys";
  ASSERT_FALSE(make_key(file).empty());
  for (const unsigned mode : {0666U, 0620U, 0602U}) {
    SCOPED_TRACE(mode);
    ::chmod(file.c_str(), mode);
    expect_refused_with_one_line(run_petstore(serve_args(file)), file.string());
  }
}

TEST(CliKeysTest, KeyFileReadableByOthersServesWithAWarning) {
  const TempDir dir;
  const auto file = dir.path() / "keys";
  const std::string key = make_key(file);
  ASSERT_FALSE(key.empty());
  ::chmod(file.c_str(), 0604);
  ServedPetstore served(petstore(serve_args(file)));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_EQ(http_call(served.port(), "GET", "/v1/pets", key).status, 200U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  const std::string err = served.child().captured_stderr();
  EXPECT_NE(err.find("warning"), std::string::npos) << err;
  EXPECT_NE(err.find(file.string()), std::string::npos) << err;
}

}  // namespace
}  // namespace petstore::tests

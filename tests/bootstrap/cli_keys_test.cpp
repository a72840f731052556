// `petstore keys new` and the key file rules of `serve` (contract sections 4 and 7): the key is
// printed once and stored as a digest line in a 0600 file; the printed key opens /v1; a file
// without a usable key, or writable by group or others, stops serve with exit 1 and one line.

#include <chrono>
#include <signal.h>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"

namespace petstore::tests {
namespace {

// is_digest_line: `line` is "sha256:<64 lowercase hex>", then " LABEL" when a label is given,
// then " created=YYYY-MM-DDTHH:MM:SSZ".
bool is_digest_line(const std::string& line, const std::string& label) {
  const std::string_view prefix = "sha256:";
  const std::size_t hex_end = prefix.size() + 64;
  const std::string labelled = label.empty() ? "" : " " + label;
  const std::string_view created = " created=";
  constexpr std::size_t time_size = 20;  // 2026-11-27T22:30:00Z
  return line.rfind(prefix, 0) == 0 &&
         line.size() == hex_end + labelled.size() + created.size() + time_size &&
         line.find_first_not_of("0123456789abcdef", prefix.size()) >= hex_end &&
         line.substr(hex_end, labelled.size()) == labelled &&
         line.substr(hex_end + labelled.size(), created.size()) == created && line.back() == 'Z';
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

// keys_run: `petstore keys SUBCOMMAND --api-keys FILE` plus `extra`, run to its end.
Completed keys_run(const std::string& subcommand, const std::filesystem::path& file,
                   std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"keys", subcommand, "--api-keys", file.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_petstore(args);
}

TEST(CliKeysTest, KeysListShowsEachKeysIdAccessCreatedAndLabelButNeverTheKeyOrDigest) {
  const TempDir dir;
  const auto file = dir.path() / "keys";
  const std::string ops = make_key(file, "ops");
  const Completed read_only = keys_run("new", file, {"--read-only", "--label", "dashboards"});
  ASSERT_TRUE(read_only.status.exited_with(0)) << read_only.err;
  const std::string text = read_text(file);
  ASSERT_TRUE(text.find("\nread-only sha256:") != std::string::npos) << text;

  const Completed listed = keys_run("list", file);
  ASSERT_TRUE(listed.status.exited_with(0)) << listed.err;
  const auto lines = lines_of(listed.out);
  ASSERT_EQ(lines.size(), 3U) << listed.out;
  EXPECT_EQ(lines[0].rfind("PRINCIPAL", 0), 0U) << lines[0];
  const std::string hex = text.substr(text.find("sha256:") + 7, 64);
  EXPECT_EQ(lines[1].rfind("key-" + hex.substr(0, 12) + " ", 0), 0U) << lines[1];
  EXPECT_NE(lines[1].find(" read-write "), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("Z  ops"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find(" read-only "), std::string::npos) << lines[2];
  EXPECT_TRUE(lines[2].ends_with(" dashboards")) << lines[2];
  EXPECT_EQ(listed.out.find(hex), std::string::npos) << "a whole digest";
  EXPECT_EQ(listed.out.find(ops), std::string::npos) << "a key";
  EXPECT_EQ(listed.out.find(read_only.out.substr(0, 20)), std::string::npos) << "a key";
}

// A read-only key over the wire: it lists and gets, its create is 403 with the Error body and
// the /v1 headers whatever the body (it is not read), and the request's log line names the key
// by its label.
TEST(CliKeysTest, AReadOnlyKeyReadsAndItsCreateIs403NamedByItsLabelInTheLog) {
  const TempDir dir;
  const auto file = dir.path() / "keys";
  const std::string writer = make_key(file, "writer");
  const Completed made = keys_run("new", file, {"--read-only", "--label", "dashboards"});
  ASSERT_TRUE(made.status.exited_with(0)) << made.err;
  const std::string reader = made.out.substr(0, made.out.find('\n'));
  ServedPetstore served(petstore(serve_args(file)));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();

  EXPECT_EQ(http_call(served.port(), "POST", "/v1/pets", writer, pet_json("Rex")).status, 201U);
  EXPECT_EQ(http_call(served.port(), "GET", "/v1/pets", reader).status, 200U);
  EXPECT_EQ(http_call(served.port(), "GET", "/v1/pets/1", reader).status, 200U);
  for (const std::string& body : {pet_json("Tom"), std::string(std::size_t{60} * 1024, '{')}) {
    const RawResponse refused = http_call(served.port(), "POST", "/v1/pets", reader, body);
    EXPECT_EQ(refused.status, 403U) << refused;
    EXPECT_NE(refused.body.find(R"("code":"forbidden")"), std::string::npos) << refused.body;
    EXPECT_EQ(refused.header("Cache-Control").value_or(""), "no-store") << refused;
  }
  const RawResponse listed = http_call(served.port(), "GET", "/v1/pets", writer);
  EXPECT_EQ(listed.body.find("Tom"), std::string::npos) << listed.body;
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  const std::string log = served.child().captured_stdout();
  EXPECT_NE(log.find(R"("key":"dashboards","status":403)"), std::string::npos) << log;
  EXPECT_NE(log.find(R"("key":"writer","status":201)"), std::string::npos) << log;
  EXPECT_EQ(log.find(reader), std::string::npos) << "a key in a log line";
}

// The documented rotation (docs/operations.md): add the new key, deploy it, revoke the old one;
// the service picks both changes up at SIGHUP, without a restart.
TEST(CliKeysTest, ARotationAddsTheNewKeyThenRevokesTheOldWhileServing) {
  const TempDir dir;
  const auto file = dir.path() / "keys";
  const std::string old_key = make_key(file, "billing-2026-10");
  ServedPetstore served(petstore(serve_args(file)));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  const std::string new_key = make_key(file, "billing-2026-11");
  ASSERT_TRUE(served.child().send_signal(SIGHUP));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (http_call(served.port(), "GET", "/v1/pets", new_key).status != 200U &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(http_call(served.port(), "GET", "/v1/pets", new_key).status, 200U) << "the overlap";
  EXPECT_EQ(http_call(served.port(), "GET", "/v1/pets", old_key).status, 200U) << "the overlap";

  const Completed revoked = keys_run("revoke", file, {"billing-2026-10"});
  ASSERT_TRUE(revoked.status.exited_with(0)) << revoked.err;
  EXPECT_NE(revoked.out.find("revoked key-"), std::string::npos) << revoked.out;
  EXPECT_NE(revoked.out.find("SIGHUP"), std::string::npos) << revoked.out;
  EXPECT_EQ(mode_of(file), 0600U);
  ASSERT_TRUE(served.child().send_signal(SIGHUP));
  while (http_call(served.port(), "GET", "/v1/pets", old_key).status != 401U &&
         std::chrono::steady_clock::now() < deadline + std::chrono::seconds(5)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(http_call(served.port(), "GET", "/v1/pets", old_key).status, 401U);
  EXPECT_EQ(http_call(served.port(), "GET", "/v1/pets", new_key).status, 200U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

TEST(CliKeysTest, KeysRevokeOfNoneOrSeveralKeysIsOneLineAndChangesNothing) {
  const TempDir dir;
  const auto file = dir.path() / "keys";
  ASSERT_FALSE(make_key(file, "twin").empty());
  ASSERT_FALSE(make_key(file, "twin").empty());
  const std::string before = read_text(file);
  for (const char* which : {"twin", "nobody", "key-0"}) {
    const Completed run = keys_run("revoke", file, {which});
    EXPECT_TRUE(run.status.exited_with(1)) << which << ": " << run.err;
    EXPECT_EQ(count_lines(run.err), 1U) << run.err;
    EXPECT_EQ(read_text(file), before) << which;
  }
  EXPECT_TRUE(keys_run("revoke", file).status.exited_with(2)) << "the key to revoke is required";
}

}  // namespace
}  // namespace petstore::tests

// `petstore export`, `import` and `backup` as an operator runs them: exit codes (0 ok, 1 runtime
// failure, 2 bad usage), the one line each failure prints, and what they leave on disk.

#include <algorithm>
#include <fstream>
#include <iterator>
#include <limits>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "adapters/storage/lmdb/lmdb_test_support.hpp"

#include "data_tools_support.hpp"
#include "petstore_process.hpp"

namespace petstore::tests {
namespace {

namespace fs = std::filesystem;

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

void store_pets(const fs::path& dir, const std::vector<domain::Pet>& pets) {
  const auto report = import_into(options_for(dir), pets);
  ASSERT_TRUE(report) << report.error().message;
}

TEST(DataCommands, ExportWritesJsonLinesToStandardOutputOrAFile) {
  const TempDir temp;
  const fs::path dir = temp.path() / "store";
  const auto pets = sample_pets(100);
  store_pets(dir, pets);

  const auto to_stdout = run_petstore({"export", "--data-dir", dir});
  EXPECT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
  EXPECT_EQ(to_stdout.out, jsonl(pets));
  EXPECT_EQ(to_stdout.err, "petstore: exported 100 pets from " + dir.string() + "\n");

  const fs::path file = temp.path() / "pets.jsonl";
  write_file(file, "an older export\n");
  const auto to_file = run_petstore({"export", "--data-dir", dir, "--out", file});
  EXPECT_EQ(to_file.exit_code, 0) << to_file.err;
  EXPECT_EQ(to_file.out, "");
  EXPECT_EQ(read_file(file), jsonl(pets));  // replaced whole
  struct stat info {};
  ASSERT_EQ(::stat(file.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777U, 0600U);
  EXPECT_EQ(std::distance(fs::directory_iterator(temp.path()), fs::directory_iterator()), 2)
      << "no temporary file is left beside the export";
}

TEST(DataCommands, ExportAndBackupRefuseADataDirWithoutAStore) {
  const TempDir temp;
  const fs::path typo = temp.path() / "typo";
  const auto exported_run =
      run_petstore({"export", "--data-dir", typo, "--out", temp.path() / "x"});
  EXPECT_EQ(exported_run.exit_code, 1);
  EXPECT_EQ(exported_run.err, "petstore: data dir " + typo.string() + " does not exist\n");
  const auto backup_run = run_petstore({"backup", "--data-dir", temp.path(), "--out", typo});
  EXPECT_EQ(backup_run.exit_code, 1);
  EXPECT_EQ(backup_run.err,
            "petstore: data dir " + temp.path().string() + " holds no store (no data.mdb)\n");
  EXPECT_TRUE(fs::is_empty(temp.path())) << "nothing is created: no store, no output";
}

TEST(DataCommands, BadUsageExitsWithTwoAndOneLine) {
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"export"},
                                             {"import", "--in", "x"},
                                             {"backup", "--data-dir", "d"},
                                             {"export", "--data-dir", "d", "--bogus"}}) {
    const auto run = run_petstore(args);
    EXPECT_EQ(run.exit_code, 2) << args[0];
    EXPECT_EQ(run.err.rfind("petstore: ", 0), 0U) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  }
}

TEST(DataCommands, ImportReadsAFileOrStandardInputIntoANewStore) {
  const TempDir temp;
  const auto pets = sample_pets(50, false);  // ids 1, 4, ..., 148
  const fs::path file = temp.path() / "pets.jsonl";
  write_file(file, jsonl(pets));
  const fs::path from_file = temp.path() / "a";
  const auto run = run_petstore({"import", "--data-dir", from_file, "--in", file});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err,
            "petstore: imported 50 pets into " + from_file.string() + "; the next id is 149\n");
  EXPECT_EQ(exported(options_for(from_file)), pets);

  const fs::path from_stdin = temp.path() / "b";
  const auto piped = run_petstore({"import", "--data-dir", from_stdin}, file);
  EXPECT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(exported(options_for(from_stdin)), pets);
  EXPECT_EQ(piped.err.find('\r'), std::string::npos) << "no progress bar off a terminal";
}

TEST(DataCommands, ImportOfTheLargestIdSaysNoIdIsLeftRatherThanAnIdPastIt) {
  // Every backend reports 2^63 as the next id once 2^63 - 1 is stored; it is no id at all.
  const TempDir temp;
  constexpr std::int64_t largest = std::numeric_limits<std::int64_t>::max();
  const fs::path last = temp.path() / "last.jsonl";
  write_file(last, jsonl({pet(1, "first", 1), pet(largest, "last", 1)}));
  const auto full = run_petstore({"import", "--data-dir", temp.path() / "a", "--in", last});
  EXPECT_EQ(full.exit_code, 0) << full.err;
  EXPECT_EQ(full.err, "petstore: imported 2 pets into " + (temp.path() / "a").string() +
                          "; no id is left for creates\n");

  const fs::path one_short = temp.path() / "one_short.jsonl";
  write_file(one_short, jsonl({pet(largest - 1, "one short", 1)}));
  const auto room = run_petstore({"import", "--data-dir", temp.path() / "b", "--in", one_short});
  EXPECT_EQ(room.exit_code, 0) << room.err;
  EXPECT_EQ(room.err, "petstore: imported 1 pet into " + (temp.path() / "b").string() +
                          "; the next id is 9223372036854775807\n");
}

TEST(DataCommands, ImportReportsBadLinesByNumberAndImportsNothing) {
  const TempDir temp;
  const fs::path file = temp.path() / "pets.jsonl";
  write_file(file, jsonl({pet(1, "Rex", 1)}) +
                       R"({"id":2,"name":"","categoryId":1,"status":"sold"})" + "\n" +
                       jsonl({pet(3, "Max", 1)}) + "not json\n");
  const fs::path dir = temp.path() / "store";
  const auto run = run_petstore({"import", "--data-dir", dir, "--in", file});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err,
            "petstore: line 2: name must not be empty\n"
            "petstore: line 4: the line is not valid JSON (column 2)\n"
            "petstore: 2 bad lines; nothing was imported\n");
  EXPECT_FALSE(fs::exists(dir)) << "a bad file creates no store";
}

TEST(DataCommands, ImportListsAtMostTheFirstTenProblems) {
  const TempDir temp;
  const fs::path file = temp.path() / "pets.jsonl";
  std::string text;
  for (int i = 1; i <= 12; ++i) {
    text += jsonl({pet(7, "Rex", 1)});  // every line after the first repeats id 7
  }
  write_file(file, jsonl({pet(1, "Rex", 1)}) + text);
  const auto run = run_petstore({"import", "--data-dir", temp.path() / "store", "--in", file});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("petstore: line 3: id 7 appears again; first on line 2\n"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 11) << run.err;
  EXPECT_NE(run.err.find("petstore: line 12: "), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("petstore: line 13: "), std::string::npos) << run.err;
  EXPECT_TRUE(
      run.err.ends_with("petstore: 11 bad lines (the first 10 shown); nothing was "
                        "imported\n"))
      << run.err;
}

TEST(DataCommands, ImportRefusesAnIdAlreadyStoredNamingItsLine) {
  const TempDir temp;
  const fs::path dir = temp.path() / "store";
  store_pets(dir, {pet(5, "kept", 1)});
  const fs::path file = temp.path() / "pets.jsonl";
  write_file(file, jsonl({pet(1, "new", 1), pet(5, "intruder", 2), pet(6, "new", 1)}));
  const auto run = run_petstore({"import", "--data-dir", dir, "--in", file});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err,
            "petstore: line 2: id 5 is already in the store; nothing was imported (an import "
            "never overwrites a pet)\n");
  EXPECT_EQ(exported(options_for(dir)), (std::vector{pet(5, "kept", 1)}));
}

TEST(DataCommands, ImportOfAFileThatCannotBeReadFails) {
  const TempDir temp;
  const fs::path missing = temp.path() / "missing.jsonl";
  const auto run = run_petstore({"import", "--data-dir", temp.path() / "s", "--in", missing});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "petstore: cannot read " + missing.string() + ": No such file or directory\n");
}

TEST(DataCommands, ExportStopsAtAPetWhoseBytesChangedOnDisk) {
  const TempDir temp;
  const fs::path dir = temp.path() / "store";
  store_pets(dir, {pet(1, "Rex", 1), pet(2, "Corruptible", 2), pet(3, "Tom", 3)});
  // One bit of the name flipped in the file itself ('C' to 'B'): still a valid name, so only the
  // record's checksum can tell.
  std::string bytes = read_file(dir / "data.mdb");
  std::size_t flipped = 0;
  for (auto at = bytes.find("Corruptible"); at != std::string::npos;
       at = bytes.find("Corruptible", at + 1)) {
    bytes[at] = 'B';
    ++flipped;
  }
  ASSERT_GE(flipped, 1U);
  write_file(dir / "data.mdb", bytes);
  const auto run = run_petstore({"export", "--data-dir", dir});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("a stored record is damaged"), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find("Borruptible"), std::string::npos) << "never served as data";
}

TEST(DataCommands, BackupWritesACopyThatServeOpens) {
  const TempDir temp;
  const fs::path dir = temp.path() / "store";
  store_pets(dir, sample_pets(200));
  const fs::path out = temp.path() / "backup";
  const auto run = run_petstore({"backup", "--data-dir", dir, "--out", out});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "petstore: backed up " + dir.string() + " to " + out.string() + " (" +
                         std::to_string(fs::file_size(out / "data.mdb")) + " bytes)\n");
  EXPECT_EQ(exported(options_for(out)), sample_pets(200));

  const auto again = run_petstore({"backup", "--data-dir", dir, "--out", out});
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(again.err, "petstore: backup dir " + out.string() +
                           " is not empty; a backup goes into a new or empty directory\n");

  const fs::path keys = temp.path() / "keys";
  ASSERT_EQ(run_petstore({"keys", "new", "--api-keys", keys}).exit_code, 0);
  int exit_code = -1;
  const std::string line = serve_first_line(
      {"serve", "--data-dir", out, "--api-keys", keys, "--listen", "127.0.0.1:0"}, exit_code);
  EXPECT_NE(line.find("listening on http://127.0.0.1:"), std::string::npos) << line;
  EXPECT_EQ(exit_code, 0);
}

}  // namespace
}  // namespace petstore::tests

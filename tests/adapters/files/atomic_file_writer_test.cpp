#include "adapters/files/atomic_file_writer.hpp"

#include <cerrno>
#include <iterator>

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace petstore::adapters::files {
namespace {

namespace fs = std::filesystem;
using tests::mode_of;
using tests::read_text;
using tests::TempDir;

std::ptrdiff_t entries_in(const fs::path& dir) {
  return std::distance(fs::directory_iterator(dir), fs::directory_iterator());
}

TEST(AtomicFileWriter, ContentAndModeLandWholeAndNothingElseRemains) {
  const TempDir temp;
  const fs::path file = temp.path() / "out.txt";
  {
    auto writer = AtomicFileWriter::create(file, 0640);
    ASSERT_TRUE(writer);
    ASSERT_TRUE(writer->write("first line\n"));
    ASSERT_TRUE(writer->write("second line\n"));
    ASSERT_TRUE(writer->commit());
  }
  EXPECT_EQ(read_text(file), "first line\nsecond line\n");
  EXPECT_EQ(mode_of(file), 0640U);
  EXPECT_EQ(entries_in(temp.path()), 1) << "the temporary file was renamed, not copied";
}

TEST(AtomicFileWriter, TheDestinationKeepsItsOldContentUntilTheCommit) {
  const TempDir temp;
  const fs::path file = temp.write("out.txt", "old\n");
  auto writer = AtomicFileWriter::create(file);
  ASSERT_TRUE(writer);
  ASSERT_TRUE(writer->write("new\n"));
  // Written and not yet committed: the new bytes sit in a hidden file beside the destination.
  EXPECT_EQ(read_text(file), "old\n");
  EXPECT_EQ(entries_in(temp.path()), 2);
  ASSERT_TRUE(writer->commit());
  EXPECT_EQ(read_text(file), "new\n");
  EXPECT_EQ(mode_of(file), 0600U);
  EXPECT_EQ(entries_in(temp.path()), 1);
}

TEST(AtomicFileWriter, AnAbandonedWriteLeavesNoTemporaryFileAndTheOldFileAlone) {
  const TempDir temp;
  const fs::path file = temp.write("out.txt", "old\n");
  {
    auto writer = AtomicFileWriter::create(file);
    ASSERT_TRUE(writer);
    ASSERT_TRUE(writer->write("partial"));
  }
  EXPECT_EQ(read_text(file), "old\n");
  EXPECT_EQ(entries_in(temp.path()), 1);
}

TEST(AtomicFileWriter, AFailedRenameNamesItsStepAndLeavesNoTemporaryFile) {
  const TempDir temp;
  const fs::path busy = temp.path() / "busy";
  fs::create_directories(busy / "inside");  // rename(2) cannot replace a non-empty directory
  {
    auto writer = AtomicFileWriter::create(busy);
    ASSERT_TRUE(writer);
    ASSERT_TRUE(writer->write("text"));
    const auto committed = writer->commit();
    ASSERT_FALSE(committed);
    EXPECT_EQ(committed.error().step, FileStep::rename);
    EXPECT_NE(committed.error().error_number, 0);
  }
  EXPECT_EQ(entries_in(temp.path()), 1);
  EXPECT_TRUE(fs::is_directory(busy / "inside"));
}

TEST(AtomicFileWriter, AMissingDirectoryFailsAtCreation) {
  const TempDir temp;
  const auto writer = AtomicFileWriter::create(temp.path() / "no" / "out.txt");
  ASSERT_FALSE(writer);
  EXPECT_EQ(writer.error().step, FileStep::create);
  EXPECT_EQ(writer.error().error_number, ENOENT);
  EXPECT_EQ(writer.error().message(), "No such file or directory");
  EXPECT_EQ(entries_in(temp.path()), 0);
}

TEST(DurableWrite, SyncDirectoryNamesItsStepWhenTheDirectoryIsMissing) {
  const TempDir temp;
  EXPECT_TRUE(sync_directory(temp.path()));
  const auto missing = sync_directory(temp.path() / "no");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().step, FileStep::sync_directory);
  EXPECT_EQ(missing.error().error_number, ENOENT);
}

TEST(DurableWrite, WriteAllNamesItsStepOnABadDescriptor) {
  const auto written = write_all(-1, "x");
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().step, FileStep::write);
  EXPECT_EQ(written.error().error_number, EBADF);
}

TEST(DurableWrite, ParentDirectoryOfABareNameIsTheWorkingDirectory) {
  EXPECT_EQ(parent_directory("out.txt"), fs::path("."));
  EXPECT_EQ(parent_directory("/tmp/out.txt"), fs::path("/tmp"));
}

}  // namespace
}  // namespace petstore::adapters::files

// The progress bar of `petstore import`: its text, silence when disabled or quick, and that the
// real command draws it on a terminal only.

#include "adapters/cli/progress_bar.hpp"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "adapters/storage/lmdb/lmdb_test_support.hpp"

#include "data_tools_support.hpp"
#include "petstore_process.hpp"

namespace petstore::tests {
namespace {

using adapters::cli::ProgressBar;
using adapters::cli::ProgressUnit;
using adapters::cli::render_progress;

TEST(ProgressBar, RendersABarThePercentageAndTheCounts) {
  EXPECT_EQ(render_progress("writing", 3, 10, ProgressUnit::pets, 10),
            "writing  [###-------]   30%  3/10 pets");
  EXPECT_EQ(render_progress("writing", 10, 10, ProgressUnit::pets, 10),
            "writing  [##########]  100%  10/10 pets");
  EXPECT_EQ(render_progress("reading", 3 << 20, 12 << 20, ProgressUnit::bytes, 4),
            "reading  [#---]   25%  3.0/12.0 MiB");
  EXPECT_EQ(render_progress("reading", 5 << 19, 0, ProgressUnit::bytes), "reading  2.5 MiB");
  EXPECT_EQ(render_progress("writing", 20, 10, ProgressUnit::pets, 4),
            "writing  [####]  100%  10/10 pets");
}

TEST(ProgressBar, DrawsNothingWhenDisabled) {
  std::ostringstream out;
  {
    ProgressBar bar(out, false);
    bar.start("writing", 10, ProgressUnit::pets);
    bar.update(5);
    bar.finish();
  }
  EXPECT_EQ(out.str(), "");
}

TEST(ProgressBar, RedrawsInPlaceAndEndsItsLine) {
  std::ostringstream out;
  {
    ProgressBar bar(out, true);
    bar.start("reading", 0, ProgressUnit::bytes);
    bar.update(1 << 20);
    bar.start("writing", 4, ProgressUnit::pets);
    bar.update(4);
    bar.finish();
  }
  EXPECT_EQ(out.str(),
            "\rreading  1.0 MiB\rreading  1.0 MiB\n"
            "\rwriting  [##############################]  100%  4/4 pets"
            "\rwriting  [##############################]  100%  4/4 pets\n");
}

TEST(ProgressBar, TheImportCommandDrawsItForALargeInputOnATerminalOnly) {
  const TempDir temp;
  const auto large = temp.path() / "large.jsonl";
  std::ofstream(large, std::ios::binary) << jsonl(sample_pets(30'000));  // about 2 MiB
  const auto small = temp.path() / "small.jsonl";
  std::ofstream(small, std::ios::binary) << jsonl(sample_pets(100));

  const auto on_terminal =
      run_petstore_on_terminal({"import", "--data-dir", temp.path() / "a", "--in", large}, {});
  EXPECT_EQ(on_terminal.exit_code, 0) << on_terminal.out;
  EXPECT_NE(on_terminal.out.find("\rreading  ["), std::string::npos) << on_terminal.out;
  EXPECT_NE(on_terminal.out.find("100%  30000/30000 pets"), std::string::npos) << on_terminal.out;

  // From standard input the size is unknown: the bar counts what was read.
  const auto piped = run_petstore_on_terminal({"import", "--data-dir", temp.path() / "b"}, large);
  EXPECT_EQ(piped.exit_code, 0) << piped.out;
  EXPECT_NE(piped.out.find("\rreading  "), std::string::npos) << piped.out;

  const auto small_run =
      run_petstore_on_terminal({"import", "--data-dir", temp.path() / "c", "--in", small}, {});
  EXPECT_EQ(small_run.exit_code, 0) << small_run.out;
  EXPECT_EQ(small_run.out.find("reading"), std::string::npos) << small_run.out;
  EXPECT_EQ(small_run.out.find("writing"), std::string::npos) << small_run.out;

  const auto off_terminal =
      run_petstore({"import", "--data-dir", temp.path() / "d", "--in", large});
  EXPECT_EQ(off_terminal.exit_code, 0) << off_terminal.err;
  EXPECT_EQ(off_terminal.err, "petstore: imported 30000 pets into " + (temp.path() / "d").string() +
                                  "; no id is left for creates\n");
}

}  // namespace
}  // namespace petstore::tests

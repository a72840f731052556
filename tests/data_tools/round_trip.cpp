#include "round_trip.hpp"

#include <chrono>
#include <fstream>
#include <iostream>

#include <gtest/gtest.h>

#include "adapters/jsonl/jsonl_pet_codec.hpp"
#include "adapters/storage/lmdb/lmdb_test_support.hpp"

#include "data_tools_support.hpp"
#include "petstore_process.hpp"

namespace petstore::tests {
namespace {

namespace fs = std::filesystem;

// write_sample: the file of sample_pets(count), written without holding them all.
void write_sample(const fs::path& path, std::size_t count) {
  std::ofstream file(path, std::ios::binary);
  std::string chunk;
  for (std::size_t i = 0; i < count; ++i) {
    adapters::jsonl::append_pet_line(chunk, sample_pet(i, count));
    if (chunk.size() > (1U << 20U) || i + 1 == count) {
      file << chunk;
      chunk.clear();
    }
  }
  ASSERT_TRUE(file.flush());
}

bool same_bytes(const fs::path& a, const fs::path& b) {
  std::ifstream first(a, std::ios::binary);
  std::ifstream second(b, std::ios::binary);
  std::string x(1 << 20, '\0');
  std::string y(1 << 20, '\0');
  for (;;) {
    first.read(x.data(), static_cast<std::streamsize>(x.size()));
    second.read(y.data(), static_cast<std::streamsize>(y.size()));
    if (first.gcount() != second.gcount() ||
        x.compare(0, static_cast<std::size_t>(first.gcount()), y, 0,
                  static_cast<std::size_t>(second.gcount())) != 0) {
      return false;
    }
    if (first.gcount() == 0) {
      return true;
    }
  }
}

void run_ok(const std::vector<std::string>& args, const std::string& expected_err) {
  const auto started = std::chrono::steady_clock::now();
  const auto run = run_petstore(args);
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started);
  std::cout << "petstore " << args[0] << ": " << seconds.count() << " s\n";
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, expected_err);
}

}  // namespace

void expect_round_trip(std::size_t count) {
  const TempDir temp;
  const fs::path original = temp.path() / "pets.jsonl";
  write_sample(original, count);
  const std::string n = std::to_string(count);
  const fs::path first = temp.path() / "first";
  const fs::path second = temp.path() / "second";
  const fs::path first_export = temp.path() / "first.jsonl";
  const fs::path second_export = temp.path() / "second.jsonl";

  run_ok(
      {"import", "--data-dir", first, "--in", original},
      "petstore: imported " + n + " pets into " + first.string() + "; no id is left for creates\n");
  run_ok({"export", "--data-dir", first, "--out", first_export},
         "petstore: exported " + n + " pets from " + first.string() + "\n");
  EXPECT_TRUE(same_bytes(original, first_export));
  run_ok({"import", "--data-dir", second, "--in", first_export},
         "petstore: imported " + n + " pets into " + second.string() +
             "; no id is left for creates\n");
  run_ok({"export", "--data-dir", second, "--out", second_export},
         "petstore: exported " + n + " pets from " + second.string() + "\n");
  EXPECT_TRUE(same_bytes(original, second_export));
}

}  // namespace petstore::tests

// read_pet_lines: line numbers, the first ten problems in line order, repeated ids, long lines,
// lines across chunk boundaries, progress and a failing stream.

#include "adapters/jsonl/jsonl_pet_reader.hpp"

#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <string>

#include <gtest/gtest.h>

#include "adapters/jsonl/jsonl_pet_codec.hpp"
#include "ports/pet_repository_contract.hpp"

#include "data_tools_support.hpp"

namespace petstore::tests {
namespace {

using adapters::jsonl::LineProblem;
using adapters::jsonl::PetLines;

PetLines read_text(const std::string& text, std::size_t max_problems = 10) {
  std::istringstream in(text);
  adapters::jsonl::ReadOptions options;
  options.max_problems = max_problems;
  auto lines = adapters::jsonl::read_pet_lines(in, options);
  if (!lines) {
    throw std::runtime_error(lines.error().message);
  }
  return std::move(*lines);
}

std::string good(std::int64_t id) { return jsonl({pet(id, "Rex " + std::to_string(id), 7)}); }

TEST(JsonlPetReader, ReadsEveryLineWithItsNumber) {
  const auto pets = sample_pets(5);
  const auto lines = read_text(jsonl(pets));
  EXPECT_EQ(lines.problem_count, 0U);
  EXPECT_EQ(lines.pets, pets);
  EXPECT_EQ(lines.line_of, (std::vector<std::size_t>{1, 2, 3, 4, 5}));
}

TEST(JsonlPetReader, TakesALastLineWithoutNewlineAndCrlfEndings) {
  std::string text = good(1) + good(2);
  text.pop_back();  // no newline at the end
  EXPECT_EQ(read_text(text).pets.size(), 2U);
  std::string crlf = good(1) + good(2);
  crlf.insert(crlf.find('\n'), "\r");
  crlf.insert(crlf.size() - 1, "\r");
  const auto lines = read_text(crlf);
  EXPECT_EQ(lines.problem_count, 0U);
  EXPECT_EQ(lines.pets.size(), 2U);
}

TEST(JsonlPetReader, AnEmptyInputHoldsNoPets) {
  const auto lines = read_text("");
  EXPECT_TRUE(lines.pets.empty());
  EXPECT_EQ(lines.problem_count, 0U);
}

TEST(JsonlPetReader, BadLinesAreReportedByNumberAndNoPetIsKept) {
  const auto lines =
      read_text(good(1) + "\n" + good(2) + R"({"id":3,"name":"","categoryId":1})" + "\n" + good(4));
  EXPECT_TRUE(lines.pets.empty());
  EXPECT_EQ(lines.problem_count, 2U);
  EXPECT_EQ(lines.problems,
            (std::vector<LineProblem>{{2, "the line is empty; each line must be one JSON object"},
                                      {4, "name must not be empty"}}));
}

TEST(JsonlPetReader, KeepsTheFirstProblemsByLineAndCountsThemAll) {
  std::string text;
  for (int i = 1; i <= 25; ++i) {
    text += i % 2 == 0 ? good(i) : "{}\n";  // odd lines are bad
  }
  const auto lines = read_text(text);
  EXPECT_EQ(lines.problem_count, 13U);
  ASSERT_EQ(lines.problems.size(), 10U);
  for (std::size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(lines.problems[i], (LineProblem{2 * i + 1, "id is required"}));
  }
}

TEST(JsonlPetReader, ARepeatedIdIsAProblemOfTheLaterLines) {
  const auto lines = read_text(good(5) + good(6) + good(5) + "x\n" + good(5) + good(6));
  EXPECT_EQ(lines.problem_count, 4U);
  EXPECT_EQ(lines.problems, (std::vector<LineProblem>{
                                {3, "id 5 appears again; first on line 1"},
                                {4, "the line is not valid JSON (column 1)"},
                                {5, "id 5 appears again; first on line 1"},
                                {6, "id 6 appears again; first on line 2"},
                            }));
}

TEST(JsonlPetReader, RepeatsAndSyntaxProblemsMergeInLineOrderUpToTheLimit) {
  std::string text = good(1) + good(1) + good(1);  // problems on lines 2 and 3
  text += "{}\n{}\n";                              // lines 4 and 5
  const auto lines = read_text(text, 3);
  EXPECT_EQ(lines.problem_count, 4U);
  ASSERT_EQ(lines.problems.size(), 3U);
  EXPECT_EQ(lines.problems[0].line, 2U);
  EXPECT_EQ(lines.problems[1].line, 3U);
  EXPECT_EQ(lines.problems[2].line, 4U);
}

TEST(JsonlPetReader, ALineTooLongIsOneProblemAndTheNextLinesKeepTheirNumbers) {
  const std::string long_line(adapters::jsonl::max_line_bytes + 1, ' ');
  const auto lines = read_text(good(1) + long_line + "\n" + "{}\n");
  EXPECT_EQ(lines.problems, (std::vector<LineProblem>{{2, "the line is longer than 65536 bytes"},
                                                      {3, "id is required"}}));
  // Just at the limit is not too long (it is blank, so it is empty instead).
  const std::string longest(adapters::jsonl::max_line_bytes, ' ');
  EXPECT_EQ(read_text(longest + "\n").problems.at(0).message,
            "the line is empty; each line must be one JSON object");
}

TEST(JsonlPetReader, LinesAcrossChunkBoundariesAreWhole) {
  // Names of varied length put line ends at every offset of the 64 KiB chunks.
  std::vector<domain::Pet> pets;
  for (int i = 1; i <= 3000; ++i) {
    pets.push_back(pet(i, std::string(static_cast<std::size_t>(1 + i % 150), 'n'), i));
  }
  const std::string text = jsonl(pets);
  ASSERT_GT(text.size(), 3U * 64 * 1024);
  std::istringstream in(text);
  std::uint64_t last_bytes = 0;
  std::size_t calls = 0;
  adapters::jsonl::ReadOptions options;
  options.progress = [&](std::uint64_t bytes, std::size_t /*lines*/) {
    EXPECT_GT(bytes, last_bytes);
    last_bytes = bytes;
    ++calls;
  };
  const auto lines = adapters::jsonl::read_pet_lines(in, options);
  ASSERT_TRUE(lines);
  EXPECT_EQ(lines->problem_count, 0U);
  EXPECT_EQ(lines->pets, pets);
  EXPECT_EQ(last_bytes, text.size());
  EXPECT_GE(calls, 4U);
}

// FailingBuffer: a stream buffer whose device fails after the first bytes.
class FailingBuffer : public std::streambuf {
 protected:
  int_type underflow() override {
    if (served_) {
      throw std::runtime_error("device failed");
    }
    served_ = true;
    setg(text_.data(), text_.data(), text_.data() + text_.size());
    return traits_type::to_int_type(text_.front());
  }

 private:
  std::string text_ = good(1);
  bool served_ = false;
};

TEST(JsonlPetReader, AStreamThatFailsIsUnavailable) {
  FailingBuffer buffer;
  std::istream in(&buffer);
  const auto lines = adapters::jsonl::read_pet_lines(in);
  ASSERT_FALSE(lines);
  EXPECT_EQ(lines.error().code, domain::ErrorCode::unavailable);
  EXPECT_EQ(lines.error().message, "the input could not be read");
}

}  // namespace
}  // namespace petstore::tests

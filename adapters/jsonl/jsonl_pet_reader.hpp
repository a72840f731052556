#pragma once
// read_pet_lines: a whole JSON Lines stream of pets, every line decoded and ids checked unique
// before anything is stored, so that a bad line never leaves half a file stored.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "domain/error.hpp"
#include "domain/pet.hpp"

namespace petstore::adapters::jsonl {

// LineProblem: what is wrong with line `line` (1-based), e.g. {17, "name must not be empty"}.
struct LineProblem {
  std::size_t line = 0;
  std::string message;

  friend bool operator==(const LineProblem&, const LineProblem&) = default;
};

struct PetLines {
  std::vector<domain::Pet> pets;      // in stream order; empty when any problem was found
  std::vector<std::size_t> line_of;   // line_of[i]: the line of pets[i]
  std::vector<LineProblem> problems;  // the first `max_problems`, by line number
  std::size_t problem_count = 0;      // every problem found
};

struct ReadOptions {
  std::size_t max_problems = 10;
  // progress: told the bytes and lines read so far, once per chunk read (64 KiB).
  std::function<void(std::uint64_t bytes, std::size_t lines)> progress;
};

// read_pet_lines: reads `in` to its end. A last line without "\n" counts; white space around the
// object ("\r\n" too) is allowed; an empty or too long line is a problem, and so is an id seen on
// an earlier line. Errors: unavailable when `in` fails to read.
[[nodiscard]] domain::Result<PetLines> read_pet_lines(std::istream& in,
                                                      const ReadOptions& options = {});

}  // namespace petstore::adapters::jsonl

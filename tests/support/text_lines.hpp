#pragma once
// lines_of: the lines of `text` (a log, a child's output), without their newlines.

#include <sstream>
#include <string>
#include <vector>

namespace petstore::tests {

[[nodiscard]] inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

}  // namespace petstore::tests

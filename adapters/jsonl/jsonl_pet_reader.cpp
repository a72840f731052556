// read_pet_lines: lines are cut from 64 KiB chunks (a line is copied only when it spans two
// chunks), decoded one by one, then the ids are sorted once to find repeats.

#include "adapters/jsonl/jsonl_pet_reader.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

#include "adapters/jsonl/jsonl_pet_codec.hpp"

namespace petstore::adapters::jsonl {
namespace {

constexpr std::size_t chunk_bytes = std::size_t{64} * 1024;

// Collector: what the lines said so far.
class Collector {
 public:
  explicit Collector(std::size_t max_problems) : max_problems_(max_problems) {}

  void line(std::string_view text, bool too_long) {
    ++line_count_;
    if (too_long) {
      add_problem("the line is longer than " + std::to_string(max_line_bytes) + " bytes");
      return;
    }
    auto pet = decoder_.decode(text);
    if (!pet) {
      add_problem(std::move(pet.error().message));
      return;
    }
    lines_.pets.push_back(std::move(*pet));
    lines_.line_of.push_back(line_count_);
  }

  [[nodiscard]] std::size_t line_count() const noexcept { return line_count_; }

  // finish: adds the repeated ids, keeps the first problems by line and drops the pets if any.
  PetLines finish() && {
    auto repeats = repeated_ids();
    lines_.problem_count += repeat_count_;
    std::vector<LineProblem> merged;
    std::merge(std::make_move_iterator(lines_.problems.begin()),
               std::make_move_iterator(lines_.problems.end()),
               std::make_move_iterator(repeats.begin()), std::make_move_iterator(repeats.end()),
               std::back_inserter(merged),
               [](const LineProblem& a, const LineProblem& b) { return a.line < b.line; });
    merged.resize(std::min(merged.size(), max_problems_));
    lines_.problems = std::move(merged);
    if (lines_.problem_count != 0) {
      lines_.pets = {};
      lines_.line_of = {};
    }
    return std::move(lines_);
  }

 private:
  void add_problem(std::string message) {
    ++lines_.problem_count;
    if (lines_.problems.size() < max_problems_) {
      lines_.problems.push_back(LineProblem{line_count_, std::move(message)});
    }
  }

  // repeated_ids: the first max_problems_ lines whose id an earlier line has (all counted).
  std::vector<LineProblem> repeated_ids() {
    std::vector<std::pair<std::int64_t, std::size_t>> ids;  // (id, line)
    ids.reserve(lines_.pets.size());
    for (std::size_t i = 0; i < lines_.pets.size(); ++i) {
      ids.emplace_back(lines_.pets[i].id.value, lines_.line_of[i]);
    }
    std::sort(ids.begin(), ids.end());
    struct Repeat {
      std::size_t line;
      std::int64_t id;
      std::size_t first_line;
    };
    std::vector<Repeat> repeats;
    for (std::size_t i = 1, first = 0; i < ids.size(); ++i) {
      if (ids[i].first != ids[first].first) {
        first = i;  // sorted by line within an id: the first of its run is its first line
      } else {
        repeats.push_back(Repeat{ids[i].second, ids[i].first, ids[first].second});
      }
    }
    repeat_count_ = repeats.size();
    std::sort(repeats.begin(), repeats.end(),
              [](const Repeat& a, const Repeat& b) { return a.line < b.line; });
    std::vector<LineProblem> problems;
    for (std::size_t i = 0; i < repeats.size() && i < max_problems_; ++i) {
      problems.push_back(LineProblem{repeats[i].line, "id " + std::to_string(repeats[i].id) +
                                                          " appears again; first on line " +
                                                          std::to_string(repeats[i].first_line)});
    }
    return problems;
  }

  std::size_t max_problems_;
  std::size_t line_count_ = 0;
  std::size_t repeat_count_ = 0;
  PetLineDecoder decoder_;
  PetLines lines_;
};

}  // namespace

domain::Result<PetLines> read_pet_lines(std::istream& in, const ReadOptions& options) {
  Collector collector(options.max_problems);
  std::string buffer(chunk_bytes, '\0');
  std::string partial;  // the start of a line that began in an earlier chunk
  bool too_long = false;
  std::uint64_t bytes = 0;
  for (;;) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    bytes += got;
    std::string_view chunk(buffer.data(), got);
    while (!chunk.empty()) {
      const std::size_t end = chunk.find('\n');
      const std::string_view piece = chunk.substr(0, end);
      if (!too_long && partial.size() + piece.size() > max_line_bytes) {
        too_long = true;
        partial.clear();
      }
      if (end == std::string_view::npos) {
        if (!too_long) {
          partial.append(piece);
        }
        break;
      }
      if (partial.empty()) {
        collector.line(piece, too_long);
      } else {
        partial.append(piece);
        collector.line(partial, too_long);
        partial.clear();
      }
      too_long = false;
      chunk.remove_prefix(end + 1);
    }
    if (options.progress && got != 0) {
      options.progress(bytes, collector.line_count());
    }
    if (!in) {
      break;
    }
  }
  if (in.bad()) {
    return domain::make_error(domain::ErrorCode::unavailable, "", "the input could not be read");
  }
  if (!partial.empty() || too_long) {
    collector.line(partial, too_long);  // the last line, without its newline
  }
  return std::move(collector).finish();
}

}  // namespace petstore::adapters::jsonl

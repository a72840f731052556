#pragma once
// PetObjectReader: reads a JSON text that should hold one pet object (an API body or a JSON Lines
// line) into PetMembers, or says what breaks it, e.g. `the body is not valid JSON (line 3, column
// 5)`: the one place for the JSON-syntax messages of both. Never throws except std::bad_alloc.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/json/basic_parser.hpp>
#include <boost/system/result.hpp>

#include "adapters/pet_json/pet_members_decoder.hpp"

namespace petstore::adapters::pet_json {

// JsonText: what is read, which names it in messages and locates a problem in it.
enum class JsonText : std::uint8_t {
  body,  // "the body ...", at a line and column
  line,  // "the line ...", at a column: the reader of lines names the line
};

// max_json_depth: the deepest nesting of arrays and objects a text may have (a pet needs 1).
inline constexpr std::size_t max_json_depth = 32;

// JsonSyntaxError: why the text is not one JSON object, for people.
struct JsonSyntaxError {
  std::string message;
};

// is_quotable_member_name: 1-64 characters of [A-Za-z0-9_.-]. Any other name is described, not
// quoted, so that no message carries arbitrary input bytes (markup, terminal escapes).
[[nodiscard]] bool is_quotable_member_name(std::string_view name) noexcept;

class PetObjectReader {
 public:
  explicit PetObjectReader(JsonText text);
  PetObjectReader(const PetObjectReader&) = delete;
  PetObjectReader& operator=(const PetObjectReader&) = delete;
  ~PetObjectReader();

  // read: the members of the one JSON object `text` holds (white space around it allowed), or the
  // first problem: empty, not an object, a member name twice in one object, not UTF-8, too deep, a
  // \u escape that is no whole character, an exponent out of range, content after the object, any
  // other syntax error. Messages (but empty and not-an-object) end with where reading stopped,
  // from 1, a column in code points. Reuses its memory from one text to the next. Not thread-safe.
  [[nodiscard]] boost::system::result<PetMembers, JsonSyntaxError> read(std::string_view text);

 private:
  void restart();
  [[nodiscard]] JsonSyntaxError parser_error(const boost::json::error_code& ec,
                                             std::string_view text);
  [[nodiscard]] bool fails_at_a_lone_high_surrogate(std::string_view text, std::size_t end);
  [[nodiscard]] std::size_t failure_offset(std::string_view text);
  [[nodiscard]] JsonSyntaxError at(std::string message, std::string_view text,
                                   std::size_t offset) const;

  JsonText text_;
  boost::json::basic_parser<PetMembersDecoder> parser_;
};

}  // namespace petstore::adapters::pet_json

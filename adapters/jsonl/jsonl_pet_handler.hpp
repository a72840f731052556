#pragma once
// PetLineHandler: the Boost.JSON SAX handler behind decode_pet_line. In one pass it stops the
// parser at a top level that is not an object or at a member name repeated in it, and records
// what the object says about each Pet member. It only records facts: the messages and the Pet
// rules live in jsonl_pet_codec.cpp, its one user. Nested values are skipped (a Pet has none, so
// a line holding one is refused whatever it contains).

#include <cstdint>
#include <limits>
#include <string>
#include <unordered_set>

#include <boost/json/error.hpp>
#include <boost/json/string_view.hpp>

namespace petstore::adapters::jsonl {

// PetLineFields: what the top-level object said about each member, before any Pet rule.
struct PetLineFields {
  // Kind: the kind of a member's value, as far as the rules care.
  enum class Kind : std::uint8_t { absent, string, integer, other };

  Kind id = Kind::absent;
  std::int64_t id_value = 0;  // when id is an integer within int64
  Kind name = Kind::absent;
  std::string name_text;  // when name is a string
  Kind category_id = Kind::absent;
  std::int64_t category_id_value = 0;  // when category_id is an integer within int64
  Kind status = Kind::absent;
  std::string status_text;  // when status is a string
  bool has_unknown_member = false;
  std::string first_unknown_member;  // unescaped
};

// LineStop: why the handler stopped the parser, if it did.
enum class LineStop : std::uint8_t { none, not_an_object, repeated_member };

class PetLineHandler {
 public:
  // No limits of the handler's own: the reader bounds a line's length before decoding it.
  static constexpr std::size_t max_array_size = std::numeric_limits<std::size_t>::max();
  static constexpr std::size_t max_object_size = std::numeric_limits<std::size_t>::max();
  static constexpr std::size_t max_string_size = std::numeric_limits<std::size_t>::max();
  static constexpr std::size_t max_key_size = std::numeric_limits<std::size_t>::max();

  using ErrorCode = boost::json::error_code;
  using StringView = boost::json::string_view;

  // reset: forgets the previous line, keeping allocated memory for the next one.
  void reset();

  bool on_document_begin(ErrorCode& ec);
  bool on_document_end(ErrorCode& ec);
  bool on_object_begin(ErrorCode& ec);
  bool on_object_end(std::size_t size, ErrorCode& ec);
  bool on_array_begin(ErrorCode& ec);
  bool on_array_end(std::size_t size, ErrorCode& ec);
  bool on_key_part(StringView part, std::size_t size, ErrorCode& ec);
  bool on_key(StringView part, std::size_t size, ErrorCode& ec);
  bool on_string_part(StringView part, std::size_t size, ErrorCode& ec);
  bool on_string(StringView part, std::size_t size, ErrorCode& ec);
  bool on_number_part(StringView part, ErrorCode& ec);
  bool on_int64(std::int64_t value, StringView text, ErrorCode& ec);
  bool on_uint64(std::uint64_t value, StringView text, ErrorCode& ec);
  bool on_double(double value, StringView text, ErrorCode& ec);
  bool on_bool(bool value, ErrorCode& ec);
  bool on_null(ErrorCode& ec);
  bool on_comment_part(StringView part, ErrorCode& ec);
  bool on_comment(StringView part, ErrorCode& ec);

  [[nodiscard]] LineStop stop_reason() const noexcept { return stop_; }
  // repeated_member: the (unescaped) name that appeared twice, when stop_reason says so.
  [[nodiscard]] const std::string& repeated_member() const noexcept { return key_; }
  // fields: what the line said; meaningful once the parser has accepted the whole line.
  [[nodiscard]] PetLineFields& fields() noexcept { return fields_; }

 private:
  enum class Member : std::uint8_t { id, name, category_id, status, unknown };
  using Kind = PetLineFields::Kind;

  // on_value: a value at the current depth; stops the parser when it is the top level.
  bool on_value(Kind kind, ErrorCode& ec);
  bool stop(LineStop reason, ErrorCode& ec);

  std::size_t depth_ = 0;                  // containers open around the next event
  std::unordered_set<std::string> names_;  // member names of the top-level object
  std::string key_;
  std::string string_;  // the string value being read, kept only for name and status
  Member member_ = Member::unknown;
  PetLineFields fields_;
  LineStop stop_ = LineStop::none;
};

}  // namespace petstore::adapters::jsonl

#pragma once
// NewPetHandler: the Boost.JSON SAX handler behind decode_new_pet. In one pass it stops the parser
// at a repeated member name (at any depth) or a top level that is not an object, and records what
// the top-level object says about each NewPet member. It only records facts: the messages and the
// NewPet rules live in new_pet_decoder.cpp, its one user.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_set>

#include <boost/container/small_vector.hpp>
#include <boost/json/error.hpp>
#include <boost/json/string_view.hpp>

namespace petstore::adapters::http {

// NewPetFields: what the top-level object said about each member, before any NewPet rule.
struct NewPetFields {
  // Kind: the kind of a member's value, as far as the rules care.
  enum class Kind : std::uint8_t { absent, string, integer, null, other };

  Kind name = Kind::absent;
  std::string name_text;  // when name is a string
  Kind category_id = Kind::absent;
  std::int64_t category_id_value = 0;  // when category_id is an integer (within int64)
  Kind status = Kind::absent;
  std::string status_text;  // when status is a string
  bool has_unknown_member = false;
  std::string first_unknown_member;  // the first member name not of a NewPet, unescaped
};

// HandlerStop: why the handler stopped the parser, if it did.
enum class HandlerStop : std::uint8_t { none, not_an_object, repeated_member };

class NewPetHandler {
 public:
  // No limits of the handler's own: the HTTP layer bounds the body (64 KiB) before decoding.
  static constexpr std::size_t max_array_size = std::numeric_limits<std::size_t>::max();
  static constexpr std::size_t max_object_size = std::numeric_limits<std::size_t>::max();
  static constexpr std::size_t max_string_size = std::numeric_limits<std::size_t>::max();
  static constexpr std::size_t max_key_size = std::numeric_limits<std::size_t>::max();

  using ErrorCode = boost::json::error_code;
  using StringView = boost::json::string_view;

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

  // stop_reason: why the handler stopped the parser; repeated_member() is the (unescaped) name
  // that appeared twice when the reason is repeated_member.
  [[nodiscard]] HandlerStop stop_reason() const noexcept { return stop_; }
  [[nodiscard]] const std::string& repeated_member() const noexcept { return key_; }

  // fields: what the body said. Meaningful once the parser has accepted the whole body.
  [[nodiscard]] NewPetFields& fields() noexcept { return fields_; }

 private:
  // Member: which top-level member the next value at depth 1 belongs to.
  enum class Member : std::uint8_t { name, category_id, status, unknown };
  using Kind = NewPetFields::Kind;

  // Reports a value at the current depth; false (and stops the parser) at the top level.
  bool on_value(Kind kind, ErrorCode& ec);
  bool stop(HandlerStop reason, ErrorCode& ec);
  bool check_key(ErrorCode& ec);
  // known_member: the NewPet member `name` names, or unknown.
  static Member known_member(std::string_view name);

  std::size_t depth_ = 0;  // containers open around the next event
  // Names seen in each open object: the object's serial number (8 bytes) then the name. One set
  // for the whole document, so closing an object costs nothing.
  std::unordered_set<std::string> names_;
  boost::container::small_vector<std::uint64_t, 8> open_objects_;  // serials; 0: an open array
  std::uint64_t next_serial_ = 1;
  std::string key_;     // the member name being read, or the repeated one
  std::string string_;  // the string value being read, kept only for name and status
  Member member_ = Member::unknown;
  unsigned seen_members_ = 0;  // a bit per Member met in the top-level object

  NewPetFields fields_;
  HandlerStop stop_ = HandlerStop::none;
};

}  // namespace petstore::adapters::http

#pragma once
// PetMembers: what a JSON object said about each member of a pet, before the rules of the API's
// NewPet or the data tools' Pet; the rules both share, each error naming the member; and
// PetMembersDecoder, the Boost.JSON SAX handler behind PetObjectReader that fills it. In one pass
// the decoder stops at a top level that is not an object or a member name repeated in one object
// (which boost::json::parse would merge); messages live in PetObjectReader.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

#include <boost/container/small_vector.hpp>
#include <boost/json/error.hpp>
#include <boost/json/string_view.hpp>

#include "domain/error.hpp"
#include "domain/pet.hpp"

namespace petstore::adapters::pet_json {

struct PetMembers {
  // Kind: the kind of a member's value, as far as the rules care.
  enum class Kind : std::uint8_t { absent, string, integer, null, other };

  Kind id = Kind::absent;
  std::int64_t id_value = 0;  // when id is an integer (within int64)
  Kind name = Kind::absent;
  std::string name_text;  // when name is a string
  Kind category_id = Kind::absent;
  std::int64_t category_id_value = 0;  // when category_id is an integer (within int64)
  Kind status = Kind::absent;
  std::string status_text;  // when status is a string
  bool has_unknown_member = false;
  std::string first_unknown_member;       // the first member name not of a Pet, unescaped
  bool unknown_member_before_id = false;  // whether the first unknown member came before id
};

// name_of: the name member, required, a string that PetName::parse accepts.
[[nodiscard]] domain::Result<domain::PetName> name_of(const PetMembers& members);

// category_id_of: the categoryId member, required, an integer within int64.
[[nodiscard]] domain::Result<domain::CategoryId> category_id_of(const PetMembers& members);

// status_of: the status member, a string naming a status; `when_absent` when absent (required
// when nullopt).
[[nodiscard]] domain::Result<domain::PetStatus> status_of(
    const PetMembers& members, std::optional<domain::PetStatus> when_absent);

// DecoderStop: why the decoder stopped the parser, if it did.
enum class DecoderStop : std::uint8_t { none, not_an_object, repeated_member };

class PetMembersDecoder {
 public:
  // No limits of the decoder's own: its callers bound the text (64 KiB) before reading it.
  static constexpr std::size_t max_array_size = std::numeric_limits<std::size_t>::max();
  static constexpr std::size_t max_object_size = std::numeric_limits<std::size_t>::max();
  static constexpr std::size_t max_string_size = std::numeric_limits<std::size_t>::max();
  static constexpr std::size_t max_key_size = std::numeric_limits<std::size_t>::max();

  using ErrorCode = boost::json::error_code;
  using StringView = boost::json::string_view;

  // reset: forgets the previous text, keeping allocated memory for the next one.
  void reset();

  bool on_document_begin(ErrorCode& /*ec*/) { return true; }
  bool on_document_end(ErrorCode& /*ec*/) { return true; }
  bool on_object_begin(ErrorCode& ec);
  bool on_object_end(std::size_t size, ErrorCode& ec);
  bool on_array_begin(ErrorCode& ec);
  // An array's entry in open_objects_ goes as an object's does.
  bool on_array_end(std::size_t size, ErrorCode& ec) { return on_object_end(size, ec); }
  bool on_key_part(StringView part, std::size_t /*size*/, ErrorCode& /*ec*/) {
    key_.append(part.data(), part.size());
    return true;
  }
  bool on_key(StringView part, std::size_t size, ErrorCode& ec) {
    return on_key_part(part, size, ec) && check_key(ec);
  }
  bool on_string_part(StringView part, std::size_t size, ErrorCode& ec);
  bool on_string(StringView part, std::size_t size, ErrorCode& ec) {
    return on_string_part(part, size, ec) && on_value(Kind::string, ec);
  }
  bool on_number_part(StringView /*part*/, ErrorCode& /*ec*/) { return true; }
  bool on_int64(std::int64_t value, StringView text, ErrorCode& ec);
  bool on_uint64(std::uint64_t value, StringView text, ErrorCode& ec);
  // A fraction, an exponent, or past the int64 range.
  bool on_double(double /*value*/, StringView /*text*/, ErrorCode& ec) {
    return on_value(Kind::other, ec);
  }
  bool on_bool(bool /*value*/, ErrorCode& ec) { return on_value(Kind::other, ec); }
  bool on_null(ErrorCode& ec) { return on_value(Kind::null, ec); }
  bool on_comment_part(StringView /*part*/, ErrorCode& /*ec*/) { return true; }
  bool on_comment(StringView /*part*/, ErrorCode& /*ec*/) { return true; }

  [[nodiscard]] DecoderStop stop_reason() const noexcept { return stop_; }
  // repeated_member: the (unescaped) name that appeared twice, when stop_reason says so.
  [[nodiscard]] const std::string& repeated_member() const noexcept { return key_; }
  // members: what the object said; meaningful once the parser has accepted the whole text.
  [[nodiscard]] PetMembers& members() noexcept { return members_; }

 private:
  // Member: which top-level member the next value at depth 1 belongs to; check_key lists the
  // names in this order.
  enum class Member : std::uint8_t { id, name, category_id, status, unknown };
  using Kind = PetMembers::Kind;

  // on_value: a value at the current depth; stops the parser when it is the top level.
  bool on_value(Kind kind, ErrorCode& ec);
  bool stop(DecoderStop reason, ErrorCode& ec);
  bool check_key(ErrorCode& ec);

  std::size_t depth_ = 0;  // containers open around the next event
  // Each open object's names, after its 8-byte serial: one set, so closing an object costs nothing.
  std::unordered_set<std::string> names_;
  boost::container::small_vector<std::uint64_t, 8> open_objects_;  // serials; 0: an open array
  std::uint64_t next_serial_ = 1;
  std::string key_;     // the member name being read, or the repeated one
  std::string string_;  // the string value being read, kept only for name and status
  Member member_ = Member::unknown;
  unsigned seen_members_ = 0;  // a bit per Member met in the top-level object

  PetMembers members_;
  DecoderStop stop_ = DecoderStop::none;
};

}  // namespace petstore::adapters::pet_json

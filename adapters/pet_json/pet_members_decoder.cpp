// The decoder keeps no more than it must: member names for the repetition check, and the strings
// of name and status only. The member rules' messages are the contract's, in the API and import.

#include "adapters/pet_json/pet_members_decoder.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

namespace petstore::adapters::pet_json {

using Kind = PetMembers::Kind;

domain::Result<domain::PetName> name_of(const PetMembers& members) {
  if (members.name == Kind::absent) {
    return domain::invalid_argument("name", "name is required");
  }
  if (members.name != Kind::string) {
    return domain::invalid_argument("name", "name must be a string");
  }
  return domain::PetName::parse(members.name_text, "name");
}

domain::Result<domain::CategoryId> category_id_of(const PetMembers& members) {
  if (members.category_id == Kind::absent) {
    return domain::invalid_argument("categoryId", "categoryId is required");
  }
  if (members.category_id != Kind::integer) {
    return domain::invalid_argument("categoryId", "categoryId must be an integer within int64");
  }
  return domain::CategoryId{members.category_id_value};
}

domain::Result<domain::PetStatus> status_of(const PetMembers& members,
                                            std::optional<domain::PetStatus> when_absent) {
  if (members.status == Kind::absent && when_absent) {
    return *when_absent;
  }
  if (members.status == Kind::absent) {
    return domain::invalid_argument("status", "status is required");
  }
  if (members.status != Kind::string) {
    return domain::invalid_argument("status",
                                    "status must be a string, one of available, pending, sold");
  }
  return domain::parse_pet_status(members.status_text, "status");
}

void PetMembersDecoder::reset() {
  depth_ = 0;
  names_.clear();
  open_objects_.clear();
  next_serial_ = 1;
  key_.clear();
  string_.clear();
  member_ = Member::unknown;
  seen_members_ = 0;
  members_ = PetMembers{};
  stop_ = DecoderStop::none;
}

bool PetMembersDecoder::stop(DecoderStop reason, ErrorCode& ec) {
  stop_ = reason;
  ec = boost::json::error::syntax;  // any error stops the parser; stop_ says which
  return false;
}

bool PetMembersDecoder::on_value(Kind kind, ErrorCode& ec) {
  if (depth_ == 0) {
    return stop(DecoderStop::not_an_object, ec);
  }
  if (depth_ == 1 && member_ != Member::unknown) {
    // Each Member's kind in PetMembers, in Member's order.
    constexpr std::array kinds{&PetMembers::id, &PetMembers::name, &PetMembers::category_id,
                               &PetMembers::status};
    members_.*kinds[static_cast<std::size_t>(member_)] = kind;
    if (kind == Kind::string && (member_ == Member::name || member_ == Member::status)) {
      (member_ == Member::name ? members_.name_text : members_.status_text) = std::move(string_);
    }
  }
  string_.clear();
  return true;
}

bool PetMembersDecoder::check_key(ErrorCode& ec) {
  if (depth_ == 1) {
    constexpr std::array<std::string_view, 4> known{"id", "name", "categoryId", "status"};
    member_ = static_cast<Member>(std::find(known.begin(), known.end(), key_) - known.begin());
    if (member_ != Member::unknown) {
      // A pet's members at the top level, the usual case, need a bit each, not the set of names.
      const auto bit = static_cast<unsigned>(1U << static_cast<unsigned>(member_));
      if ((seen_members_ & bit) != 0) {
        return stop(DecoderStop::repeated_member, ec);  // key_ keeps the name
      }
      seen_members_ |= bit;
      key_.clear();
      return true;
    }
  }
  std::string entry(sizeof(std::uint64_t), '\0');
  std::memcpy(entry.data(), &open_objects_.back(), sizeof(std::uint64_t));
  entry += key_;
  if (!names_.insert(std::move(entry)).second) {
    return stop(DecoderStop::repeated_member, ec);  // key_ keeps the name
  }
  if (depth_ == 1 && !members_.has_unknown_member) {
    members_.has_unknown_member = true;
    members_.first_unknown_member = key_;
    members_.unknown_member_before_id = members_.id == Kind::absent;
  }
  key_.clear();
  return true;
}

bool PetMembersDecoder::on_object_begin(ErrorCode& ec) {
  if (depth_ == 1 && !on_value(Kind::other, ec)) {
    return false;
  }
  ++depth_;
  open_objects_.push_back(next_serial_++);
  return true;
}

bool PetMembersDecoder::on_object_end(std::size_t /*size*/, ErrorCode& /*ec*/) {
  --depth_;
  open_objects_.pop_back();
  return true;
}

bool PetMembersDecoder::on_array_begin(ErrorCode& ec) {
  if (!on_value(Kind::other, ec)) {
    return false;
  }
  ++depth_;
  open_objects_.push_back(0);
  return true;
}

bool PetMembersDecoder::on_string_part(StringView part, std::size_t /*size*/, ErrorCode& /*ec*/) {
  if (depth_ == 1 && (member_ == Member::name || member_ == Member::status)) {
    string_.append(part.data(), part.size());
  }
  return true;
}

bool PetMembersDecoder::on_int64(std::int64_t value, StringView /*text*/, ErrorCode& ec) {
  if (depth_ == 1 && member_ == Member::id) {
    members_.id_value = value;
  } else if (depth_ == 1 && member_ == Member::category_id) {
    members_.category_id_value = value;
  }
  return on_value(Kind::integer, ec);
}

bool PetMembersDecoder::on_uint64(std::uint64_t value, StringView text, ErrorCode& ec) {
  // Boost.JSON 1.81 calls this only past INT64_MAX; the test keeps it right if that changes.
  if (value <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return on_int64(static_cast<std::int64_t>(value), text, ec);
  }
  return on_value(Kind::other, ec);
}

}  // namespace petstore::adapters::pet_json

// The decoder keeps no more than it must: member names for the repetition check, and the strings
// of name and status only.

#include "adapters/pet_json/pet_members_decoder.hpp"

#include <cstring>
#include <utility>

namespace petstore::adapters::pet_json {

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
  if (depth_ == 1) {
    switch (member_) {
      case Member::id:
        members_.id = kind;
        break;
      case Member::name:
        members_.name = kind;
        if (kind == Kind::string) {
          members_.name_text = std::move(string_);
        }
        break;
      case Member::category_id:
        members_.category_id = kind;
        break;
      case Member::status:
        members_.status = kind;
        if (kind == Kind::string) {
          members_.status_text = std::move(string_);
        }
        break;
      case Member::unknown:
        break;
    }
  }
  string_.clear();
  return true;
}

PetMembersDecoder::Member PetMembersDecoder::known_member(std::string_view name) {
  if (name == "id") {
    return Member::id;
  }
  if (name == "name") {
    return Member::name;
  }
  if (name == "categoryId") {
    return Member::category_id;
  }
  if (name == "status") {
    return Member::status;
  }
  return Member::unknown;
}

bool PetMembersDecoder::check_key(ErrorCode& ec) {
  if (depth_ == 1) {
    member_ = known_member(key_);
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

bool PetMembersDecoder::on_document_begin(ErrorCode& /*ec*/) { return true; }
bool PetMembersDecoder::on_document_end(ErrorCode& /*ec*/) { return true; }

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

bool PetMembersDecoder::on_array_end(std::size_t size, ErrorCode& ec) {
  return on_object_end(size, ec);  // an array's entry in open_objects_ goes the same way
}

bool PetMembersDecoder::on_key_part(StringView part, std::size_t /*size*/, ErrorCode& /*ec*/) {
  key_.append(part.data(), part.size());
  return true;
}

bool PetMembersDecoder::on_key(StringView part, std::size_t /*size*/, ErrorCode& ec) {
  key_.append(part.data(), part.size());
  return check_key(ec);
}

bool PetMembersDecoder::on_string_part(StringView part, std::size_t /*size*/, ErrorCode& /*ec*/) {
  if (depth_ == 1 && (member_ == Member::name || member_ == Member::status)) {
    string_.append(part.data(), part.size());
  }
  return true;
}

bool PetMembersDecoder::on_string(StringView part, std::size_t size, ErrorCode& ec) {
  on_string_part(part, size, ec);
  return on_value(Kind::string, ec);
}

bool PetMembersDecoder::on_number_part(StringView /*part*/, ErrorCode& /*ec*/) { return true; }

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

bool PetMembersDecoder::on_double(double /*value*/, StringView /*text*/, ErrorCode& ec) {
  return on_value(Kind::other, ec);  // a fraction, an exponent, or past the int64 range
}

bool PetMembersDecoder::on_bool(bool /*value*/, ErrorCode& ec) { return on_value(Kind::other, ec); }
bool PetMembersDecoder::on_null(ErrorCode& ec) { return on_value(Kind::null, ec); }
bool PetMembersDecoder::on_comment_part(StringView /*part*/, ErrorCode& /*ec*/) { return true; }
bool PetMembersDecoder::on_comment(StringView /*part*/, ErrorCode& /*ec*/) { return true; }

}  // namespace petstore::adapters::pet_json

// The handler keeps no more than it must: the top-level member names for the repetition check,
// and the strings of name and status only.

#include "adapters/jsonl/jsonl_pet_handler.hpp"

#include <utility>

namespace petstore::adapters::jsonl {

void PetLineHandler::reset() {
  depth_ = 0;
  names_.clear();
  key_.clear();
  string_.clear();
  member_ = Member::unknown;
  fields_ = PetLineFields{};
  stop_ = LineStop::none;
}

bool PetLineHandler::stop(LineStop reason, ErrorCode& ec) {
  stop_ = reason;
  ec = boost::json::error::syntax;  // any error stops the parser; stop_ says which
  return false;
}

bool PetLineHandler::on_value(Kind kind, ErrorCode& ec) {
  if (depth_ == 0) {
    return stop(LineStop::not_an_object, ec);
  }
  if (depth_ == 1) {
    switch (member_) {
      case Member::id:
        fields_.id = kind;
        break;
      case Member::name:
        fields_.name = kind;
        if (kind == Kind::string) {
          fields_.name_text = std::move(string_);
        }
        break;
      case Member::category_id:
        fields_.category_id = kind;
        break;
      case Member::status:
        fields_.status = kind;
        if (kind == Kind::string) {
          fields_.status_text = std::move(string_);
        }
        break;
      case Member::unknown:
        break;
    }
  }
  string_.clear();
  return true;
}

bool PetLineHandler::on_document_begin(ErrorCode& /*ec*/) { return true; }
bool PetLineHandler::on_document_end(ErrorCode& /*ec*/) { return true; }

bool PetLineHandler::on_object_begin(ErrorCode& ec) {
  if (depth_ == 1 && !on_value(Kind::other, ec)) {
    return false;
  }
  ++depth_;
  return true;
}

bool PetLineHandler::on_object_end(std::size_t /*size*/, ErrorCode& /*ec*/) {
  --depth_;
  return true;
}

bool PetLineHandler::on_array_begin(ErrorCode& ec) {
  if (depth_ <= 1 && !on_value(Kind::other, ec)) {
    return false;
  }
  ++depth_;
  return true;
}

bool PetLineHandler::on_array_end(std::size_t /*size*/, ErrorCode& /*ec*/) {
  --depth_;
  return true;
}

bool PetLineHandler::on_key_part(StringView part, std::size_t /*size*/, ErrorCode& /*ec*/) {
  if (depth_ == 1) {
    key_.append(part.data(), part.size());
  }
  return true;
}

bool PetLineHandler::on_key(StringView part, std::size_t size, ErrorCode& ec) {
  if (depth_ != 1) {
    return true;  // inside a nested value, which is refused anyway
  }
  on_key_part(part, size, ec);
  if (!names_.insert(key_).second) {
    return stop(LineStop::repeated_member, ec);  // key_ keeps the name
  }
  if (key_ == "id") {
    member_ = Member::id;
  } else if (key_ == "name") {
    member_ = Member::name;
  } else if (key_ == "categoryId") {
    member_ = Member::category_id;
  } else if (key_ == "status") {
    member_ = Member::status;
  } else {
    member_ = Member::unknown;
    if (!fields_.has_unknown_member) {
      fields_.has_unknown_member = true;
      fields_.first_unknown_member = key_;
    }
  }
  key_.clear();
  return true;
}

bool PetLineHandler::on_string_part(StringView part, std::size_t /*size*/, ErrorCode& /*ec*/) {
  if (depth_ == 1 && (member_ == Member::name || member_ == Member::status)) {
    string_.append(part.data(), part.size());
  }
  return true;
}

bool PetLineHandler::on_string(StringView part, std::size_t size, ErrorCode& ec) {
  on_string_part(part, size, ec);
  return on_value(Kind::string, ec);
}

bool PetLineHandler::on_number_part(StringView /*part*/, ErrorCode& /*ec*/) { return true; }

bool PetLineHandler::on_int64(std::int64_t value, StringView /*text*/, ErrorCode& ec) {
  if (depth_ == 1 && member_ == Member::id) {
    fields_.id_value = value;
  } else if (depth_ == 1 && member_ == Member::category_id) {
    fields_.category_id_value = value;
  }
  return on_value(Kind::integer, ec);
}

bool PetLineHandler::on_uint64(std::uint64_t value, StringView text, ErrorCode& ec) {
  // Boost.JSON 1.81 calls this only past INT64_MAX; kept right should that change.
  if (value <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return on_int64(static_cast<std::int64_t>(value), text, ec);
  }
  return on_value(Kind::other, ec);
}

bool PetLineHandler::on_double(double /*value*/, StringView /*text*/, ErrorCode& ec) {
  return on_value(Kind::other, ec);  // a fraction, an exponent, or past the int64 range
}

bool PetLineHandler::on_bool(bool /*value*/, ErrorCode& ec) { return on_value(Kind::other, ec); }
bool PetLineHandler::on_null(ErrorCode& ec) { return on_value(Kind::other, ec); }
bool PetLineHandler::on_comment_part(StringView /*part*/, ErrorCode& /*ec*/) { return true; }
bool PetLineHandler::on_comment(StringView /*part*/, ErrorCode& /*ec*/) { return true; }

}  // namespace petstore::adapters::jsonl

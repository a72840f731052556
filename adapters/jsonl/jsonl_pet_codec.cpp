// The codec of jsonl_pet_codec.hpp: Boost.JSON's SAX parser with PetLineHandler, then the Pet
// rules of the domain over what the handler recorded.

#include "adapters/jsonl/jsonl_pet_codec.hpp"

#include <array>
#include <charconv>
#include <limits>

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/serialize.hpp>

#include "adapters/jsonl/jsonl_pet_handler.hpp"
#include "domain/unicode.hpp"

namespace petstore::adapters::jsonl {
namespace {

using Kind = PetLineFields::Kind;

// Same depth limit as the API's bodies.
constexpr std::size_t max_json_depth = 32;
constexpr std::size_t max_quoted_name = 64;

domain::Error problem(std::string field, std::string message) {
  return domain::invalid_argument(std::move(field), std::move(message));
}

template <class Integer>
void append_integer(std::string& out, Integer value) {
  std::array<char, 24> digits{};
  const auto [end, error] = std::to_chars(digits.data(), digits.data() + digits.size(), value);
  (void)error;  // 24 characters hold every 64-bit integer
  out.append(digits.data(), end);
}

// is_plain_name: short and plain enough to quote back; anything else is described, not quoted,
// so that no message sends arbitrary input bytes (terminal escapes) to the operator's terminal.
bool is_plain_name(std::string_view name) noexcept {
  if (name.empty() || name.size() > max_quoted_name) {
    return false;
  }
  for (const char c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '_' || c == '-' || c == '.';
    if (!plain) {
      return false;
    }
  }
  return true;
}

constexpr std::string_view broken_escape =
    "the line has a \\u escape that is not a whole Unicode character";

std::string parser_message(const boost::json::error_code& ec, std::string_view line) {
  using boost::json::error;
  if (ec == error::too_deep) {
    return "the line nests arrays and objects more than " + std::to_string(max_json_depth) +
           " levels deep";
  }
  if (ec == error::illegal_leading_surrogate || ec == error::illegal_trailing_surrogate) {
    return std::string(broken_escape);
  }
  if (!domain::unicode::is_valid_utf8(line)) {
    return "the line is not valid UTF-8";
  }
  if (ec == error::incomplete) {
    return "the line is not valid JSON: it ends before the JSON object does";
  }
  return "the line is not valid JSON";
}

std::string unknown_member_message(std::string_view name) {
  const std::string allowed = "; the members are id, name, categoryId and status";
  if (is_plain_name(name)) {
    return "unknown member \"" + std::string(name) + "\"" + allowed;
  }
  return "the line has an unknown member" + allowed;
}

// to_pet: the Pet rules, one problem reported in a fixed order.
domain::Result<domain::Pet> to_pet(PetLineFields& fields) {
  if (fields.has_unknown_member) {
    const std::string& name = fields.first_unknown_member;
    return problem(is_plain_name(name) ? name : "", unknown_member_message(name));
  }
  if (fields.id == Kind::absent) {
    return problem("id", "id is required");
  }
  if (fields.id != Kind::integer || fields.id_value < domain::first_pet_id.value) {
    return problem("id", "id must be an integer from 1 to 9223372036854775807");
  }
  if (fields.name == Kind::absent) {
    return problem("name", "name is required");
  }
  if (fields.name != Kind::string) {
    return problem("name", "name must be a string");
  }
  auto name = domain::PetName::parse(fields.name_text, "name");
  if (!name) {
    return name.error();
  }
  if (fields.category_id == Kind::absent) {
    return problem("categoryId", "categoryId is required");
  }
  if (fields.category_id != Kind::integer) {
    return problem("categoryId", "categoryId must be an integer within int64");
  }
  if (fields.status == Kind::absent) {
    return problem("status", "status is required");
  }
  if (fields.status != Kind::string) {
    return problem("status", "status must be a string, one of available, pending, sold");
  }
  auto status = domain::parse_pet_status(fields.status_text, "status");
  if (!status) {
    return status.error();
  }
  return domain::Pet{domain::PetId{fields.id_value}, std::move(*name),
                     domain::CategoryId{fields.category_id_value}, *status};
}

boost::json::parse_options parse_options() {
  boost::json::parse_options options;
  options.max_depth = max_json_depth;
  return options;
}

}  // namespace

struct PetLineDecoder::Parser {
  boost::json::basic_parser<PetLineHandler> json{parse_options()};
};

PetLineDecoder::PetLineDecoder() : parser_(std::make_unique<Parser>()) {}
PetLineDecoder::~PetLineDecoder() = default;

domain::Result<domain::Pet> PetLineDecoder::decode(std::string_view line) {
  if (line.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return problem("", "the line is empty; each line must be one JSON object");
  }
  auto& json = parser_->json;
  json.reset();
  PetLineHandler& handler = json.handler();
  handler.reset();
  boost::json::error_code ec;
  const std::size_t used = json.write_some(false, line.data(), line.size(), ec);
  switch (handler.stop_reason()) {
    case LineStop::not_an_object:
      return problem("", "the line must be a JSON object");
    case LineStop::repeated_member:
      return problem("", is_plain_name(handler.repeated_member())
                             ? "member \"" + handler.repeated_member() + "\" appears twice"
                             : std::string("a member name appears twice"));
    case LineStop::none:
      break;
  }
  if (ec) {
    if (ec == boost::json::error::syntax && fails_at_a_lone_high_surrogate(line)) {
      return problem("", std::string(broken_escape));
    }
    return problem("", parser_message(ec, line));
  }
  if (used != line.size()) {
    return problem("", domain::unicode::is_valid_utf8(line.substr(used))
                           ? "the line has more content after the JSON object"
                           : "the line is not valid UTF-8");
  }
  return to_pet(handler.fields());
}

// Boost.JSON 1.81 reports a high surrogate escape that no low one follows ("\ud800" then a quote)
// as a plain syntax error, while a lone low surrogate has errors of its own; both are told as one
// problem. The line fails at the lone escape when the text up to it parses as the start of a
// document.
bool PetLineDecoder::fails_at_a_lone_high_surrogate(std::string_view line) {
  const std::size_t end = domain::unicode::lone_high_surrogate_escape_end(line);
  if (end == std::string_view::npos) {
    return false;
  }
  auto& json = parser_->json;
  json.reset();
  json.handler().reset();
  boost::json::error_code ec;
  static_cast<void>(json.write_some(true, line.data(), end, ec));
  return !ec && json.handler().stop_reason() == LineStop::none;
}

domain::Result<domain::Pet> decode_pet_line(std::string_view line) {
  return PetLineDecoder().decode(line);
}

void append_pet_line(std::string& out, const domain::Pet& pet) {
  out += R"({"id":)";
  append_integer(out, pet.id.value);
  out += R"(,"name":)";
  out += boost::json::serialize(boost::json::string_view(pet.name.value()));
  out += R"(,"categoryId":)";
  append_integer(out, pet.category_id.value);
  out += R"(,"status":")";
  out += domain::to_string(pet.status);  // a fixed, plain word: nothing to escape
  out += "\"}\n";
}

}  // namespace petstore::adapters::jsonl

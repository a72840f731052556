// decode_new_pet: one pass of Boost.JSON's SAX parser over the body, then the NewPet rules over
// what the handler recorded. boost::json::parse would silently keep one of two repeated member
// names; the handler sees every name, so it can refuse. Every message is written here.

#include <boost/json/basic_parser_impl.hpp>

#include "adapters/http/new_pet_handler.hpp"
#include "adapters/http/pet_json.hpp"
#include "domain/unicode.hpp"

namespace petstore::adapters::http {
namespace {

using Kind = NewPetFields::Kind;

constexpr std::size_t max_quoted_name = 64;

DecodeError invalid_json(std::string message) {
  return DecodeError{BodyProblem::invalid_json, std::move(message)};
}

DecodeError validation_failed(std::string message) {
  return DecodeError{BodyProblem::validation_failed, std::move(message)};
}

// is_plain_name: a member name short and plain enough to quote back in a message. Anything else
// is described, not quoted, so that no message carries arbitrary request bytes.
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

std::string unknown_member_message(std::string_view name) {
  if (name == "id") {
    return "id is assigned by the service and must not be sent";
  }
  const std::string allowed = "; the allowed members are name, categoryId and status";
  if (is_plain_name(name)) {
    return "unknown member \"" + std::string(name) + "\"" + allowed;
  }
  return "the body has an unknown member" + allowed;
}

std::string repeated_member_message(std::string_view name) {
  if (is_plain_name(name)) {
    return "member \"" + std::string(name) + "\" appears twice in one object";
  }
  return "a member name appears twice in one object";
}

constexpr std::string_view broken_escape =
    "the body has a \\u escape that is not a whole Unicode character";

// fails_at_a_lone_high_surrogate: Boost.JSON 1.81 reports a high surrogate escape that no low
// one follows ("\ud800" then a quote) as a plain syntax error, while a lone low surrogate has
// errors of its own; both are told as one problem. The body fails at the lone escape when the
// text up to it parses as the start of a document.
bool fails_at_a_lone_high_surrogate(std::string_view body) {
  const std::size_t end = domain::unicode::lone_high_surrogate_escape_end(body);
  if (end == std::string_view::npos) {
    return false;
  }
  boost::json::parse_options options;
  options.max_depth = max_json_depth;
  boost::json::basic_parser<NewPetHandler> parser(options);
  boost::json::error_code ec;
  static_cast<void>(parser.write_some(true, body.data(), end, ec));
  return !ec && parser.handler().stop_reason() == HandlerStop::none;
}

// parser_message: what to tell the client about an error of the parser itself. Only on this
// failure path is the body checked for UTF-8 as a whole, to say which of the two rules it broke.
std::string parser_message(const boost::json::error_code& ec, std::string_view body) {
  using boost::json::error;
  if (ec == error::too_deep) {
    return "the body nests arrays and objects more than " + std::to_string(max_json_depth) +
           " levels deep";
  }
  if (ec == error::illegal_leading_surrogate || ec == error::illegal_trailing_surrogate) {
    return std::string(broken_escape);
  }
  if (ec == error::exponent_overflow) {
    return "the body has a number whose exponent is out of range";
  }
  if (!domain::unicode::is_valid_utf8(body)) {
    return "the body is not valid UTF-8";
  }
  if (ec == error::incomplete) {
    return "the body is not valid JSON: it ends before the JSON object does";
  }
  return "the body is not valid JSON";
}

// to_new_pet: the NewPet rules, one problem reported in a fixed order: an unknown member, then
// name, categoryId, status.
DecodeResult to_new_pet(NewPetFields& fields) {
  if (fields.has_unknown_member) {
    return validation_failed(unknown_member_message(fields.first_unknown_member));
  }
  if (fields.name == Kind::absent) {
    return validation_failed("name is required");
  }
  if (fields.name != Kind::string) {
    return validation_failed("name must be a string");
  }
  auto name = domain::PetName::parse(fields.name_text, "name");
  if (!name) {
    return validation_failed(std::move(name.error().message));
  }
  if (fields.category_id == Kind::absent) {
    return validation_failed("categoryId is required");
  }
  if (fields.category_id != Kind::integer) {
    return validation_failed("categoryId must be an integer within int64");
  }
  domain::PetStatus status = domain::default_pet_status;
  if (fields.status == Kind::string) {
    auto parsed = domain::parse_pet_status(fields.status_text, "status");
    if (!parsed) {
      return validation_failed(std::move(parsed.error().message));
    }
    status = *parsed;
  } else if (fields.status != Kind::absent) {
    return validation_failed("status must be a string, one of available, pending, sold");
  }
  return domain::NewPet{std::move(*name), domain::CategoryId{fields.category_id_value}, status};
}

}  // namespace

DecodeResult decode_new_pet(std::string_view body) {
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return invalid_json("the body is empty; it must be a JSON object");
  }
  boost::json::parse_options options;
  options.max_depth = max_json_depth;
  boost::json::basic_parser<NewPetHandler> parser(options);
  boost::json::error_code ec;
  const std::size_t used = parser.write_some(false, body.data(), body.size(), ec);
  NewPetHandler& handler = parser.handler();
  switch (handler.stop_reason()) {
    case HandlerStop::not_an_object:
      return invalid_json("the body must be a JSON object");
    case HandlerStop::repeated_member:
      return invalid_json(repeated_member_message(handler.repeated_member()));
    case HandlerStop::none:
      break;
  }
  if (ec) {
    if (ec == boost::json::error::syntax && fails_at_a_lone_high_surrogate(body)) {
      return invalid_json(std::string(broken_escape));
    }
    return invalid_json(parser_message(ec, body));
  }
  if (used != body.size()) {
    return invalid_json(domain::unicode::is_valid_utf8(body.substr(used))
                            ? "the body has more content after the JSON object"
                            : "the body is not valid UTF-8");
  }
  return to_new_pet(handler.fields());
}

}  // namespace petstore::adapters::http

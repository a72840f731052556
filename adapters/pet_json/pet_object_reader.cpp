// One pass of Boost.JSON's SAX parser. Only on failure is the text read again: for UTF-8 validity,
// a lone surrogate escape, and where the parser stopped, which Boost.JSON 1.81 does not tell.

#include "adapters/pet_json/pet_object_reader.hpp"

#include <algorithm>
#include <utility>

#include <boost/json/basic_parser_impl.hpp>

#include "domain/unicode.hpp"

namespace petstore::adapters::pet_json {
namespace {

constexpr std::size_t max_quoted_name = 64;

std::string noun(JsonText text) { return text == JsonText::body ? "the body" : "the line"; }

}  // namespace

bool is_quotable_member_name(std::string_view name) noexcept {
  if (name.empty() || name.size() > max_quoted_name) {
    return false;
  }
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  });
}

PetObjectReader::PetObjectReader(JsonText text)
    : text_(text), parser_(boost::json::parse_options{.max_depth = max_json_depth}) {}
PetObjectReader::~PetObjectReader() = default;

void PetObjectReader::restart() {
  parser_.reset();
  parser_.handler().reset();
}

boost::system::result<PetMembers, JsonSyntaxError> PetObjectReader::read(std::string_view text) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return JsonSyntaxError{text_ == JsonText::body
                               ? "the body is empty; it must be a JSON object"
                               : "the line is empty; each line must be one JSON object"};
  }
  restart();
  boost::json::error_code ec;
  const std::size_t used = parser_.write_some(false, text.data(), text.size(), ec);
  PetMembersDecoder& decoder = parser_.handler();
  switch (decoder.stop_reason()) {
    case DecoderStop::not_an_object:
      return JsonSyntaxError{noun(text_) + " must be a JSON object"};
    case DecoderStop::repeated_member: {
      // Made before failure_offset, which resets the decoder and its name.
      const std::string& name = decoder.repeated_member();
      std::string message = is_quotable_member_name(name)
                                ? "member \"" + name + "\" appears twice in one object"
                                : "a member name appears twice in one object";
      return at(std::move(message), text, failure_offset(text));
    }
    case DecoderStop::none:
      break;
  }
  if (ec) {
    return parser_error(ec, text);
  }
  if (used != text.size()) {
    const std::size_t bad_byte = domain::unicode::valid_utf8_prefix(text);
    if (bad_byte != text.size()) {
      return at(noun(text_) + " is not valid UTF-8", text, bad_byte);
    }
    return at(noun(text_) + " has more content after the JSON object", text, used);
  }
  return std::move(decoder.members());
}

JsonSyntaxError PetObjectReader::parser_error(const boost::json::error_code& ec,
                                              std::string_view text) {
  using boost::json::error;
  const std::string broken_escape = noun(text_) +
                                    " has a \\u escape that is not a whole Unicode "
                                    "character";
  if (ec == error::syntax) {
    const std::size_t end = domain::unicode::lone_high_surrogate_escape_end(text);
    if (end != std::string_view::npos && fails_at_a_lone_high_surrogate(text, end)) {
      return at(broken_escape, text, end);
    }
  }
  if (ec == error::too_deep) {
    return at(noun(text_) + " nests arrays and objects more than " +
                  std::to_string(max_json_depth) + " levels deep",
              text, failure_offset(text));
  }
  if (ec == error::illegal_leading_surrogate || ec == error::illegal_trailing_surrogate) {
    return at(broken_escape, text, failure_offset(text));
  }
  if (ec == error::exponent_overflow) {
    return at(noun(text_) + " has a number whose exponent is out of range", text,
              failure_offset(text));
  }
  const std::size_t bad_byte = domain::unicode::valid_utf8_prefix(text);
  if (bad_byte != text.size()) {
    return at(noun(text_) + " is not valid UTF-8", text, bad_byte);
  }
  if (ec == error::incomplete) {
    return at(noun(text_) + " is not valid JSON: it ends before the JSON object does", text,
              text.size());
  }
  return at(noun(text_) + " is not valid JSON", text, failure_offset(text));
}

// Boost.JSON 1.81 reports a lone high surrogate escape ("\ud800" then a quote) as a plain syntax
// error; it is told like a lone low one. The text fails there when what precedes it parses.
bool PetObjectReader::fails_at_a_lone_high_surrogate(std::string_view text, std::size_t end) {
  restart();
  boost::json::error_code ec;
  static_cast<void>(parser_.write_some(true, text.data(), end, ec));
  return !ec && parser_.handler().stop_reason() == DecoderStop::none;
}

// failure_offset: the offset of the byte at which the parser stops on `text`, text.size() when
// only its end is missing. Fed in pieces until one fails, then that piece a byte at a time: two
// passes, however long the text.
std::size_t PetObjectReader::failure_offset(std::string_view text) {
  constexpr std::size_t piece = 256;
  boost::json::error_code ec;
  restart();
  std::size_t accepted = 0;
  while (accepted < text.size()) {
    const std::size_t size = std::min(piece, text.size() - accepted);
    static_cast<void>(parser_.write_some(true, text.data() + accepted, size, ec));
    if (ec) {
      break;
    }
    accepted += size;
  }
  if (!ec) {
    return text.size();
  }
  restart();
  static_cast<void>(parser_.write_some(true, text.data(), accepted, ec));
  for (std::size_t offset = accepted; offset < text.size(); ++offset) {
    static_cast<void>(parser_.write_some(true, text.data() + offset, 1, ec));
    if (ec) {
      return offset;
    }
  }
  return text.size();
}

// at: `message` with where `offset` is in `text`.
JsonSyntaxError PetObjectReader::at(std::string message, std::string_view text,
                                    std::size_t offset) const {
  const std::string_view before = text.substr(0, offset);
  const std::size_t line_start = before.rfind('\n') + 1;  // npos + 1 is 0
  const std::string_view line_before = before.substr(line_start);
  // A column counts code points: every byte but UTF-8's continuation bytes.
  const auto continuations = std::count_if(line_before.begin(), line_before.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0U) == 0x80U;
  });
  const auto column = 1 + line_before.size() - static_cast<std::size_t>(continuations);
  if (text_ == JsonText::body) {
    const auto line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    message += " (line " + std::to_string(line) + ", column " + std::to_string(column) + ")";
  } else {
    message += " (column " + std::to_string(column) + ")";
  }
  return JsonSyntaxError{std::move(message)};
}

}  // namespace petstore::adapters::pet_json

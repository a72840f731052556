// Fuzzes the parsing of request targets: the bytes are parsed as the router parses a target
// (origin form, else absolute URI), then every decoded path segment goes through parse_pet_id,
// the query through parse_list_query, and the raw bytes and every query value through
// check_idempotency_key. Oracle: each answer equals that of a plain model of contract section 6
// (an accepted limit is within 1..100, a parameter twice is refused, unknown ones are ignored).

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include "adapters/http/api/parameters.hpp"
#include "domain/pet_status.hpp"

#include "fuzz/fuzz_support.hpp"

namespace {

using petstore::tests::fuzz::expect;
namespace domain = petstore::domain;
namespace http = petstore::adapters::http;

// model_int64: a decimal int64 with an optional leading '-', by digit-by-digit accumulation.
std::optional<std::int64_t> model_int64(std::string_view text) {
  const bool negative = text.starts_with('-');
  if (negative) {
    text.remove_prefix(1);
  }
  if (text.empty()) {
    return std::nullopt;
  }
  const std::uint64_t limit = negative ? std::uint64_t{1} << 63U : (std::uint64_t{1} << 63U) - 1;
  std::uint64_t magnitude = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (magnitude > (limit - digit) / 10) {
      return std::nullopt;
    }
    magnitude = magnitude * 10 + digit;
  }
  if (!negative) {
    return static_cast<std::int64_t>(magnitude);
  }
  return magnitude == (std::uint64_t{1} << 63U) ? std::numeric_limits<std::int64_t>::min()
                                                : -static_cast<std::int64_t>(magnitude);
}

void check_pet_id(std::string_view text) {
  const auto parsed = http::parse_pet_id(text);
  const auto model = model_int64(text);
  expect(parsed.has_value() == model.has_value(), "parse_pet_id accepts exactly decimal int64s");
  if (parsed) {
    expect(parsed->value == *model, "parse_pet_id reads the right value");
  } else {
    expect(parsed.error().code == domain::ErrorCode::invalid_argument &&
               parsed.error().field == "petId",
           "parse_pet_id refuses as invalid_argument naming petId");
  }
}

void check_idempotency_key(std::string_view text) {
  bool visible = !text.empty() && text.size() <= 255;
  for (const char c : text) {
    visible = visible && c >= 0x21 && c <= 0x7E;
  }
  const auto checked = http::check_idempotency_key(text);
  expect(checked.has_value() == visible, "check_idempotency_key accepts 1-255 visible ASCII");
  expect(!checked || (checked->data() == text.data() && checked->size() == text.size()),
         "check_idempotency_key returns the key itself");
}

// ModelQuery: what parse_list_query should make of a query; `failed` names the parameter.
struct ModelQuery {
  std::optional<std::string> failed;
  std::int64_t limit = 20;
  std::optional<domain::PetStatus> status;
  std::optional<std::int64_t> after;
};

ModelQuery model_query(boost::urls::params_view params) {
  ModelQuery model;
  bool limit_seen = false;
  bool status_seen = false;
  bool after_seen = false;
  for (const auto& param : params) {
    const std::string& key = param.key;
    bool* seen = key == "limit"    ? &limit_seen
                 : key == "status" ? &status_seen
                 : key == "after"  ? &after_seen
                                   : nullptr;
    if (seen == nullptr) {
      continue;  // unknown parameters are ignored
    }
    const auto value = param.has_value ? std::optional<std::string>(param.value) : std::nullopt;
    const auto number = value ? model_int64(*value) : std::nullopt;
    bool valid = !*seen;
    *seen = true;
    if (key == "limit") {
      valid = valid && number && *number >= 1 && *number <= 100;
      model.limit = number.value_or(0);
    } else if (key == "after") {
      valid = valid && number;
      model.after = number;
    } else {
      for (const auto status : domain::all_pet_statuses) {
        if (value && *value == domain::to_string(status)) {
          model.status = status;
        }
      }
      valid = valid && model.status;
    }
    if (!valid) {
      model.failed = key;
      return model;
    }
  }
  return model;
}

void check_list_query(boost::urls::params_view params) {
  const auto query = http::parse_list_query(params);
  const ModelQuery model = model_query(params);
  expect(query.has_value() == !model.failed, "parse_list_query accepts what the model accepts");
  if (!query) {
    expect(query.error().code == domain::ErrorCode::invalid_argument &&
               query.error().field == *model.failed,
           "parse_list_query names the first offending parameter");
    return;
  }
  const std::int64_t limit = query->limit.value();
  expect(limit >= 1 && limit <= 100, "an accepted limit is within 1..100");
  expect(limit == model.limit, "parse_list_query reads limit (default 20)");
  expect(query->status == model.status, "parse_list_query reads status");
  expect(query->after.has_value() == model.after.has_value() &&
             (!model.after || query->after->value == *model.after),
         "parse_list_query reads after");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view target = petstore::tests::fuzz::as_text(data, size);
  check_pet_id(target);
  check_idempotency_key(target);
  const auto url = target.starts_with('/') ? boost::urls::parse_origin_form(target)
                                           : boost::urls::parse_absolute_uri(target);
  if (!url) {
    return 0;
  }
  for (const auto& segment : url->segments()) {
    check_pet_id(segment);
  }
  check_list_query(url->params());
  for (const auto& param : url->params()) {
    check_idempotency_key(param.value);
  }
  return 0;
}

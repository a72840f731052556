#include "adapters/http/api/parameters.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "adapters/http/api/ascii.hpp"

namespace petstore::adapters::http {
namespace {

domain::Error invalid_parameter(const std::string& name, const std::string& rule) {
  return domain::invalid_argument(name, name + " " + rule);
}

}  // namespace

domain::Result<domain::PetId> parse_pet_id(std::string_view text) {
  const auto id = parse_whole<std::int64_t>(text);
  if (!id) {
    return invalid_parameter("petId", "must be a decimal integer within int64");
  }
  return domain::PetId{*id};
}

domain::Result<ports::PetQuery> parse_list_query(boost::urls::params_view params) {
  ports::PetQuery query;
  bool seen_limit = false;
  bool seen_status = false;
  bool seen_after = false;
  for (const auto& param : params) {
    const auto mark_seen = [&](bool& seen) -> std::optional<domain::Error> {
      if (seen) {
        return invalid_parameter(param.key, "must not be given more than once");
      }
      seen = true;
      return std::nullopt;
    };
    if (param.key == "limit") {
      if (auto twice = mark_seen(seen_limit)) {
        return *twice;
      }
      const auto count = parse_whole<std::int64_t>(param.value);
      const auto limit = domain::PageSize::from(count.value_or(0));
      if (!param.has_value || !count || !limit) {
        return invalid_parameter("limit", "must be an integer from 1 to 100");
      }
      query.limit = *limit;
    } else if (param.key == "status") {
      if (auto twice = mark_seen(seen_status)) {
        return *twice;
      }
      auto status = domain::parse_pet_status(param.value, "status");
      if (!param.has_value || !status) {
        return invalid_parameter("status", "must be one of available, pending, sold");
      }
      query.status = *status;
    } else if (param.key == "after") {
      if (auto twice = mark_seen(seen_after)) {
        return *twice;
      }
      const auto after = parse_whole<std::int64_t>(param.value);
      if (!param.has_value || !after) {
        return invalid_parameter("after", "must be a decimal integer within int64");
      }
      query.after = domain::PetId{*after};
    }
  }
  return query;
}

domain::Result<std::string_view> check_idempotency_key(std::string_view value) {
  const bool visible =
      std::all_of(value.begin(), value.end(), [](char c) { return c > 0x20 && c < 0x7F; });
  if (value.empty() || value.size() > 255 || !visible) {
    return invalid_parameter("Idempotency-Key", "must be 1 to 255 visible ASCII characters");
  }
  return value;
}

}  // namespace petstore::adapters::http

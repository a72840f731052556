#pragma once
// Path, query and header parameters of the /v1 operations (contract section 6). Every failure is
// an invalid_argument naming the parameter, answered as 400 invalid_parameter.

#include <string_view>

#include <boost/url/params_view.hpp>

#include "domain/error.hpp"
#include "domain/pet_id.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::http {

// parse_pet_id: a decimal int64 with an optional leading '-', nothing else.
[[nodiscard]] domain::Result<domain::PetId> parse_pet_id(std::string_view text);

// parse_list_query: limit (1..100, default 20), status and after; a parameter given twice is an
// error, unknown parameters are ignored.
[[nodiscard]] domain::Result<ports::PetQuery> parse_list_query(boost::urls::params_view params);

// check_idempotency_key: 1 to 255 visible ASCII characters.
[[nodiscard]] domain::Result<std::string_view> check_idempotency_key(std::string_view value);

}  // namespace petstore::adapters::http

#pragma once
// Assertions on the JSON bodies of the contract (sections 3 and 5): the Error object, a Pet, and
// a page of Pets. They compare parsed JSON, never text, so member order and spacing are free.

#include <cstdint>
#include <string_view>
#include <vector>

#include <boost/json/value.hpp>
#include <gtest/gtest.h>

namespace petstore::tests {

// parse_json: the value `text` holds, or null when it is not JSON.
[[nodiscard]] boost::json::value parse_json(std::string_view text);

// is_error_body: whether `body` is exactly {"code","message","status"} with `code`, `status`, a
// non-empty message, and, when `mentions` is not empty, a message that contains it.
[[nodiscard]] testing::AssertionResult is_error_body(std::string_view body, unsigned status,
                                                     std::string_view code,
                                                     std::string_view mentions = {});

// is_pet_body: whether `body` is a Pet with exactly id, name, categoryId and status, and the
// name, categoryId and status given.
[[nodiscard]] testing::AssertionResult is_pet_body(std::string_view body, std::string_view name,
                                                   std::int64_t category_id,
                                                   std::string_view status);

// pet_id_of: the id of the Pet in `body`; -1 when it has none.
[[nodiscard]] std::int64_t pet_id_of(std::string_view body);

// pet_ids: the ids of the Pets in the JSON array `body`, in order; empty when it is no array.
[[nodiscard]] std::vector<std::int64_t> pet_ids(std::string_view body);

}  // namespace petstore::tests

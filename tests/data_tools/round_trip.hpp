#pragma once
// expect_round_trip: `count` sample pets written as a JSON Lines file, imported into a new store
// by the real `petstore import`, exported again by `petstore export`, imported into a second
// store and exported once more: both exports must equal the file byte for byte.

#include <cstddef>

namespace petstore::tests {

void expect_round_trip(std::size_t count);

}  // namespace petstore::tests

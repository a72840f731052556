// The measure: export then import round-trips a million pets exactly, through the real
// binary. Slow under AddressSanitizer, so it carries the CTest label "slow".

#include <gtest/gtest.h>

#include "round_trip.hpp"

namespace petstore::tests {
namespace {

TEST(DataRoundTrip, AMillionPetsExactly) { expect_round_trip(1'000'000); }

}  // namespace
}  // namespace petstore::tests

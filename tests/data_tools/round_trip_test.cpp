// Export then import round-trips pets exactly, through the real binary: 10,000 in the default
// run (the million is round_trip_million_test, label "slow").

#include "round_trip.hpp"

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

TEST(DataRoundTrip, TenThousandPetsExactly) { expect_round_trip(10'000); }

}  // namespace
}  // namespace petstore::tests

// Accept-Encoding read as RFC 9110 section 12.5.3 writes it: weights are qvalues (section
// 12.4.2), gzip;q=0 refuses gzip, "*" stands for an unnamed gzip, and an explicit identity that
// weighs more keeps the body as it is. (static_asset_test has the cases the /docs assets met
// first.)

#include "adapters/http/api/accept_encoding.hpp"

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

using adapters::http::accepts_gzip;
using adapters::http::parse_qvalue;

TEST(AcceptEncoding, QvaluesAreReadInThousandths) {
  EXPECT_EQ(parse_qvalue("1"), 1000U);
  EXPECT_EQ(parse_qvalue("1.000"), 1000U);
  EXPECT_EQ(parse_qvalue("0"), 0U);
  EXPECT_EQ(parse_qvalue("0."), 0U);
  EXPECT_EQ(parse_qvalue("0.5"), 500U);
  EXPECT_EQ(parse_qvalue("0.05"), 50U);
  EXPECT_EQ(parse_qvalue("0.001"), 1U);
  for (const char* bad : {"", "1.5", "1.001", "2", "0.0001", "abc", ".5", "0,5", "-0", "0.5x"}) {
    EXPECT_EQ(parse_qvalue(bad), std::nullopt) << bad;
  }
}

TEST(AcceptEncoding, GzipIsTakenByItsOwnWeightOrByStar) {
  for (const char* taken :
       {"gzip", "gzip;q=0.001", "GZip; Q=1.0", "br;q=1, gzip;q=0.8", "identity;q=0.5, gzip", "*",
        "*;q=0.3, br", "gzip;q=0.5, identity;q=0.5"}) {
    EXPECT_TRUE(accepts_gzip(taken)) << taken;
  }
}

TEST(AcceptEncoding, ZeroAnUnreadableWeightOrAHeavierIdentityRefuseIt) {
  for (const char* refused :
       {"gzip;q=0", "gzip;q=0.0", "gzip;q=0.000, *", "*;q=0", "gzip;q=1.5", "gzip;q=0.0001",
        "gzip;q=x", "gzip;q=0.5, identity", "gzip;q=0.2, identity;q=0.9", "deflate, br", ""}) {
    EXPECT_FALSE(accepts_gzip(refused)) << refused;
  }
}

// Repeated fields reach accepts_gzip joined by commas (request_parser.hpp): the list's rules
// decide, so a coding named twice counts at its highest weight, in either order.
TEST(AcceptEncoding, RepeatedFieldsJoinedAreReadAsOneList) {
  for (const char* taken : {"identity,gzip", "gzip,gzip;q=0", "gzip;q=0,gzip", ",gzip"}) {
    EXPECT_TRUE(accepts_gzip(taken)) << taken;
  }
  for (const char* refused : {"gzip;q=0.5,identity", "gzip;q=0,*", "br,deflate"}) {
    EXPECT_FALSE(accepts_gzip(refused)) << refused;
  }
}

}  // namespace
}  // namespace petstore::tests

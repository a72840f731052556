// listPets through the Router (contract section 6): its query parameters, the order and filter of
// a page, and the Link to the next page that appears exactly when more pets match.

#include <cstdint>
#include <string>
#include <vector>

#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

#include "support/json_bodies.hpp"
#include "support/router_harness.hpp"

namespace petstore::tests {
namespace {

using Ids = std::vector<std::int64_t>;

class RouterListPets : public testing::Test {
 protected:
  HttpResponse list(const std::string& query) {
    return router_.send(request("GET", "/v1/pets" + query));
  }

  RouterHarness router_;
};

TEST_F(RouterListPets, AnEmptyCatalogueIsAnEmptyArrayWithoutLink) {
  const HttpResponse response = list("");
  EXPECT_EQ(response.status, 200U);
  EXPECT_EQ(parse_json(response.body), parse_json("[]"));
  EXPECT_FALSE(response.header("Link"));
  EXPECT_TRUE(has_v1_headers(response));
}

TEST_F(RouterListPets, RefusesMalformedOrOutOfRangeParametersNamingThem) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"?limit=0", "limit"},
      {"?limit=101", "limit"},
      {"?limit=-1", "limit"},
      {"?limit=abc", "limit"},
      {"?limit=", "limit"},
      {"?limit", "limit"},
      {"?limit=1.5", "limit"},
      {"?limit=1e1", "limit"},
      {"?limit=+5", "limit"},
      {"?limit=%205", "limit"},
      {"?limit=99999999999999999999", "limit"},
      {"?status=lost", "status"},
      {"?status=Available", "status"},
      {"?status=", "status"},
      {"?status", "status"},
      {"?status=sold%20", "status"},
      {"?after=x", "after"},
      {"?after=", "after"},
      {"?after=1.0", "after"},
      {"?after=9223372036854775808", "after"},
      {"?after=--1", "after"},
      {"?limit=5&limit=5", "limit"},
      {"?status=sold&status=sold", "status"},
      {"?after=1&after=2", "after"},
      {"?foo=1&limit=0", "limit"},
  };
  for (const auto& [query, name] : cases) {
    const HttpResponse response = list(query);
    EXPECT_EQ(response.status, 400U) << query;
    EXPECT_TRUE(is_error_body(response.body, 400, "invalid_parameter", name)) << query;
    EXPECT_TRUE(has_v1_headers(response)) << query;
  }
}

TEST_F(RouterListPets, AcceptsValuesAtTheEdgesAndIgnoresUnknownParameters) {
  for (const char* query :
       {"?limit=1", "?limit=100", "?status=available", "?status=pending", "?status=sold",
        "?after=-9223372036854775808", "?after=9223372036854775807", "?after=0",
        "?foo=bar&foo=baz&page=2", "?LIMIT=0", "?limit=10&status=sold&after=3&x="}) {
    const HttpResponse response = list(query);
    EXPECT_EQ(response.status, 200U) << query << ": " << response.body;
  }
}

TEST_F(RouterListPets, ListsInAscendingIdFilteredByStatusAndAfter) {
  const std::int64_t a = router_.create("a", 1, "sold");
  const std::int64_t b = router_.create("b", 1, "available");
  const std::int64_t c = router_.create("c", 1, "sold");
  const std::int64_t d = router_.create("d", 1);
  EXPECT_EQ(pet_ids(list("").body), (Ids{a, b, c, d}));
  EXPECT_EQ(pet_ids(list("?status=sold").body), (Ids{a, c}));
  EXPECT_EQ(pet_ids(list("?status=available").body), (Ids{b, d}));
  EXPECT_EQ(pet_ids(list("?status=pending").body), Ids{});
  EXPECT_EQ(pet_ids(list("?after=" + std::to_string(b)).body), (Ids{c, d}));
  EXPECT_EQ(pet_ids(list("?after=" + std::to_string(a) + "&status=sold").body), Ids{c});
  EXPECT_EQ(pet_ids(list("?limit=2&status=available").body), (Ids{b, d}));
  const boost::json::value page = parse_json(list("?limit=1").body);
  ASSERT_TRUE(page.is_array() && page.as_array().size() == 1) << page;
  EXPECT_TRUE(is_pet_body(boost::json::serialize(page.as_array()[0]), "a", 1, "sold"));
}

TEST_F(RouterListPets, LinksToTheNextPageExactlyWhenMorePetsMatch) {
  Ids created;
  for (int i = 0; i < 5; ++i) {
    created.push_back(router_.create("pet" + std::to_string(i)));
  }
  const HttpResponse first = list("?limit=2");
  EXPECT_EQ(pet_ids(first.body), (Ids{created[0], created[1]}));
  const std::string next_after_second =
      "</v1/pets?limit=2&after=" + std::to_string(created[1]) + R"(>; rel="next")";
  EXPECT_EQ(first.header("Link"), next_after_second);

  const HttpResponse second = list("?limit=2&after=" + std::to_string(created[1]));
  EXPECT_EQ(pet_ids(second.body), (Ids{created[2], created[3]}));
  EXPECT_EQ(second.header("Link"),
            "</v1/pets?limit=2&after=" + std::to_string(created[3]) + R"(>; rel="next")");

  const HttpResponse last = list("?limit=2&after=" + std::to_string(created[3]));
  EXPECT_EQ(pet_ids(last.body), Ids{created[4]});
  EXPECT_FALSE(last.header("Link"));
}

TEST_F(RouterListPets, AFullLastPageHasNoLink) {
  for (int i = 0; i < 4; ++i) {
    router_.create("pet" + std::to_string(i));
  }
  const HttpResponse exact = list("?limit=4");
  EXPECT_EQ(pet_ids(exact.body).size(), 4U);
  EXPECT_FALSE(exact.header("Link"));
}

TEST_F(RouterListPets, FollowingTheLinksOfAFilteredListVisitsEveryMatchOnce) {
  Ids sold;
  for (int i = 0; i < 7; ++i) {
    const std::int64_t id =
        router_.create("pet" + std::to_string(i), 1, i % 2 == 0 ? "sold" : "pending");
    if (i % 2 == 0) {
      sold.push_back(id);
    }
  }
  Ids seen;
  std::string target = "/v1/pets?status=sold&limit=3";
  for (int pages = 0; pages < 10; ++pages) {
    const HttpResponse page = router_.send(request("GET", target));
    ASSERT_EQ(page.status, 200U) << target;
    const Ids ids = pet_ids(page.body);
    seen.insert(seen.end(), ids.begin(), ids.end());
    const auto link = page.header("Link");
    if (!link) {
      break;
    }
    ASSERT_TRUE(link->ends_with(R"(&status=sold>; rel="next")")) << *link;
    ASSERT_TRUE(link->starts_with("<")) << *link;
    target = std::string(link->substr(1, link->find('>') - 1));
  }
  EXPECT_EQ(seen, sold);
}

TEST_F(RouterListPets, TheDefaultPageHoldsTwentyPets) {
  Ids created;
  for (int i = 0; i < 21; ++i) {
    created.push_back(router_.create("pet" + std::to_string(i)));
  }
  const HttpResponse response = list("");
  EXPECT_EQ(pet_ids(response.body), Ids(created.begin(), created.begin() + 20));
  EXPECT_EQ(response.header("Link"),
            "</v1/pets?limit=20&after=" + std::to_string(created[19]) + R"(>; rel="next")");
}

}  // namespace
}  // namespace petstore::tests

// Many clients at once over real sockets: 16 connections each creating 20 pets get 320 distinct
// ids, each client's ids increase, and listing afterwards finds every one of them exactly once.

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/fake_key_verifier.hpp"
#include "support/json_bodies.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

constexpr int clients = 16;
constexpr int creates_per_client = 20;

// create_all: the ids one client got for its creates, -1 for each one that failed.
std::vector<std::int64_t> create_all(const std::string& address, int client) {
  std::vector<std::int64_t> ids;
  try {
    RawConnection connection = RawConnection::connect(address);
    for (int i = 0; i < creates_per_client; ++i) {
      const std::string body = R"({"name":"c)" + std::to_string(client) + "-" + std::to_string(i) +
                               R"(","categoryId":)" + std::to_string(client) + "}";
      const RawResponse response = connection.round_trip(format_request(
          "POST", "/v1/pets",
          {{"Authorization", bearer(test_key_a)}, {"Content-Type", "application/json"}}, body));
      ids.push_back(response.status == 201 ? pet_id_of(response.body) : -1);
    }
  } catch (const std::exception&) {
    ids.resize(creates_per_client, -1);
  }
  return ids;
}

TEST(HttpServerConcurrency, ConcurrentCreatesGetDistinctIdsThatAreAllListed) {
  ServerUnderTest server;
  std::vector<std::vector<std::int64_t>> ids(clients);
  {
    std::vector<std::jthread> threads;
    threads.reserve(clients);
    for (int client = 0; client < clients; ++client) {
      threads.emplace_back([&, client] { ids[client] = create_all(server.address(), client); });
    }
  }
  std::set<std::int64_t> distinct;
  for (const auto& one_client : ids) {
    ASSERT_EQ(one_client.size(), static_cast<std::size_t>(creates_per_client));
    EXPECT_TRUE(std::is_sorted(one_client.begin(), one_client.end()));
    EXPECT_EQ(std::adjacent_find(one_client.begin(), one_client.end()), one_client.end());
    distinct.insert(one_client.begin(), one_client.end());
  }
  EXPECT_FALSE(distinct.contains(-1)) << "a create failed";
  EXPECT_EQ(distinct.size(), static_cast<std::size_t>(clients * creates_per_client));
  EXPECT_GE(*distinct.begin(), 1);

  RawConnection lister = server.connect();
  std::vector<std::int64_t> listed;
  std::string target = "/v1/pets?limit=100";
  for (int page = 0; page < 10; ++page) {
    const RawResponse response =
        lister.round_trip(format_request("GET", target, {{"Authorization", bearer(test_key_a)}}));
    ASSERT_EQ(response.status, 200U);
    const auto page_ids = pet_ids(response.body);
    listed.insert(listed.end(), page_ids.begin(), page_ids.end());
    const auto link = response.header("Link");
    if (!link) {
      break;
    }
    target = link->substr(1, link->find('>') - 1);
  }
  EXPECT_TRUE(std::is_sorted(listed.begin(), listed.end()));
  EXPECT_EQ(std::set<std::int64_t>(listed.begin(), listed.end()), distinct);
  EXPECT_EQ(listed.size(), distinct.size());
}

}  // namespace
}  // namespace petstore::tests

// The metrics registry and its exposition: operations by route template, counters by status,
// cumulative histogram buckets, gauges, build info, and lines in the shape of format 0.0.4.
// (tests/api/metrics.test.mjs parses the real service's output with a Prometheus parser.)

#include "adapters/metrics/metrics.hpp"

#include <chrono>
#include <map>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

using adapters::metrics::Metrics;
using adapters::metrics::Operation;
using adapters::metrics::operation_of;
using namespace std::chrono_literals;

// samples: every sample line, "name{labels}" -> value text.
std::map<std::string, std::string> samples(const std::string& exposition) {
  std::map<std::string, std::string> out;
  std::istringstream in(exposition);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    const auto space = line.rfind(' ');
    out[line.substr(0, space)] = line.substr(space + 1);
  }
  return out;
}

TEST(Metrics, OperationsFollowMethodAndRouteTemplate) {
  EXPECT_EQ(operation_of("GET", "/v1/pets"), Operation::list_pets);
  EXPECT_EQ(operation_of("POST", "/v1/pets"), Operation::create_pet);
  EXPECT_EQ(operation_of("GET", "/v1/pets/{petId}"), Operation::get_pet);
  EXPECT_EQ(operation_of("GET", "/v1/store/orders"), Operation::list_orders);
  EXPECT_EQ(operation_of("DELETE", "/v1/pets"), Operation::other);
  EXPECT_EQ(operation_of("GET", "/metrics"), Operation::other);
  EXPECT_EQ(operation_of("GET", ""), Operation::other);
}

TEST(Metrics, CountsRequestsByOperationAndStatus) {
  Metrics metrics({"1.0.0", "abc"});
  for (int i = 0; i < 3; ++i) {
    metrics.request_started();
    metrics.request_finished(Operation::get_pet, 404, 2ms);
  }
  metrics.request_started();
  metrics.request_finished(Operation::create_pet, 201, 20ms);
  metrics.request_started();
  metrics.request_finished(Operation::other, 999, 1ms);  // out of range: status 0
  const auto found = samples(metrics.exposition());
  EXPECT_EQ(found.at(R"(petstore_http_requests_total{operation="getPet",status="404"})"), "3");
  EXPECT_EQ(found.at(R"(petstore_http_requests_total{operation="createPet",status="201"})"), "1");
  EXPECT_EQ(found.at(R"(petstore_http_requests_total{operation="other",status="0"})"), "1");
  EXPECT_EQ(found.count(R"(petstore_http_requests_total{operation="listPets",status="200"})"), 0U);
  EXPECT_EQ(found.at("petstore_http_requests_in_flight"), "0");
}

TEST(Metrics, HistogramBucketsAreCumulative) {
  Metrics metrics({"1.0.0", "abc"});
  for (const std::chrono::nanoseconds duration : {100us, 2000us, 2000us, 300000us, 10000000us}) {
    metrics.request_started();
    metrics.request_finished(Operation::list_pets, 200, duration);
  }
  const auto found = samples(metrics.exposition());
  const std::string name = "petstore_http_request_duration_seconds";
  EXPECT_EQ(found.at(name + R"(_bucket{operation="listPets",le="0.0005"})"), "1");
  EXPECT_EQ(found.at(name + R"(_bucket{operation="listPets",le="0.0025"})"), "3");
  EXPECT_EQ(found.at(name + R"(_bucket{operation="listPets",le="0.25"})"), "3");
  EXPECT_EQ(found.at(name + R"(_bucket{operation="listPets",le="0.5"})"), "4");
  EXPECT_EQ(found.at(name + R"(_bucket{operation="listPets",le="5"})"), "4");
  EXPECT_EQ(found.at(name + R"(_bucket{operation="listPets",le="+Inf"})"), "5");
  EXPECT_EQ(found.at(name + R"(_count{operation="listPets"})"), "5");
  EXPECT_DOUBLE_EQ(std::stod(found.at(name + R"(_sum{operation="listPets"})")), 10.3041);
  EXPECT_EQ(found.at(name + R"(_count{operation="getPet"})"), "0");
}

TEST(Metrics, GaugesFollowConnectionsAndRequestsInFlight) {
  Metrics metrics({"1.0.0", "abc"});
  metrics.connection_opened();
  metrics.connection_opened();
  metrics.connection_closed();
  metrics.request_started();
  metrics.request_started();
  metrics.request_finished(Operation::other, 200, 1ms);
  const auto found = samples(metrics.exposition());
  EXPECT_EQ(found.at("petstore_http_connections_open"), "1");
  EXPECT_EQ(found.at("petstore_http_requests_in_flight"), "1");
}

TEST(Metrics, PetsStoredAndCommitsAndBuildInfo) {
  Metrics metrics({"1.0.0", "a\"b"});
  EXPECT_EQ(samples(metrics.exposition()).count("petstore_pets_stored"), 0U);
  metrics.set_pets_stored(41);
  metrics.pet_stored();
  metrics.storage_committed(3ms);
  const auto found = samples(metrics.exposition());
  EXPECT_EQ(found.at("petstore_pets_stored"), "42");
  EXPECT_EQ(found.at("petstore_storage_commit_seconds_count"), "1");
  EXPECT_EQ(found.at(R"(petstore_storage_commit_seconds_bucket{le="0.005"})"), "1");
  EXPECT_EQ(found.at(R"(petstore_storage_commit_seconds_bucket{le="0.0025"})"), "0");
  EXPECT_EQ(found.at(R"(petstore_build_info{version="1.0.0",commit="a\"b"})"), "1");
}

TEST(Metrics, EveryMetricHasHelpAndTypeOnce) {
  Metrics metrics({"1.0.0", "abc"});
  metrics.set_pets_stored(0);
  const std::string text = metrics.exposition();
  for (const std::string name :
       {"petstore_http_requests_total counter", "petstore_http_request_duration_seconds histogram",
        "petstore_http_requests_in_flight gauge", "petstore_http_connections_open gauge",
        "petstore_pets_stored gauge", "petstore_storage_commit_seconds histogram",
        "petstore_build_info gauge"}) {
    const auto at = text.find("# TYPE " + name + "\n");
    ASSERT_NE(at, std::string::npos) << name;
    EXPECT_EQ(text.find("# TYPE " + name + "\n", at + 1), std::string::npos) << name;
  }
  EXPECT_EQ(text.back(), '\n');
}

}  // namespace
}  // namespace petstore::tests

// The metrics registry and its exposition: operations by route template, counters by status,
// cumulative histogram buckets, gauges, build info, and lines in the shape of format 0.0.4.
// (tests/api/metrics.test.mjs parses the real service's output with a Prometheus parser.)

#include "adapters/metrics/metrics.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

using adapters::metrics::Metrics;
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

// The operation label's values, as the router's table gives them.
constexpr std::array<std::string_view, 3> operations{"listPets", "createPet", "getPet"};

TEST(Metrics, AnOperationNotGivenAtConstructionCountsAsOther) {
  Metrics metrics({"1.0.0", "abc"}, operations);
  metrics.request_started();
  EXPECT_EQ(metrics.request_finished("deletePet", "HTTP/1.1", 404, 1ms), "other");
  metrics.request_started();
  EXPECT_EQ(metrics.request_finished("", "HTTP/1.1", 400, 1ms),
            "other");  // the label a log line names
  metrics.request_started();
  EXPECT_EQ(metrics.request_finished("getPet", "HTTP/1.1", 200, 1ms), "getPet");
  const auto found = samples(metrics.exposition());
  EXPECT_EQ(
      found.at(
          R"(petstore_http_requests_total{operation="other",protocol="HTTP/1.1",status="404"})"),
      "1");
  EXPECT_EQ(
      found.at(
          R"(petstore_http_requests_total{operation="other",protocol="HTTP/1.1",status="400"})"),
      "1");
  EXPECT_EQ(
      found.count(
          R"(petstore_http_requests_total{operation="deletePet",protocol="HTTP/1.1",status="404"})"),
      0U);
}

// The transports apart (issue 40): an operator sees how many clients came over HTTP/2.
TEST(Metrics, CountsEachProtocolApart) {
  Metrics metrics({"1.0.0", "abc"}, operations);
  for (const auto* protocol : {"HTTP/2", "HTTP/2", "HTTP/1.1", "HTTP/1.0"}) {
    metrics.request_started();
    metrics.request_finished("listPets", protocol, 200, 1ms);
  }
  metrics.request_started();
  metrics.request_finished("listPets", "HTTP/2", 451, 1ms);  // a rare status, by protocol too
  const auto found = samples(metrics.exposition());
  const auto count = [&found](std::string_view protocol, unsigned status) {
    return found.at("petstore_http_requests_total{operation=\"listPets\",protocol=\"" +
                    std::string(protocol) + "\",status=\"" + std::to_string(status) + "\"}");
  };
  EXPECT_EQ(count("HTTP/2", 200), "2");
  EXPECT_EQ(count("HTTP/1.1", 200), "1");
  EXPECT_EQ(count("HTTP/1.0", 200), "1");
  EXPECT_EQ(count("HTTP/2", 451), "1");
  EXPECT_EQ(
      found.count(
          R"(petstore_http_requests_total{operation="listPets",protocol="HTTP/1.1",status="451"})"),
      0U);
}

TEST(Metrics, CountsRequestsByOperationAndStatus) {
  Metrics metrics({"1.0.0", "abc"}, operations);
  for (int i = 0; i < 3; ++i) {
    metrics.request_started();
    metrics.request_finished("getPet", "HTTP/1.1", 404, 2ms);
  }
  metrics.request_started();
  metrics.request_finished("createPet", "HTTP/1.1", 201, 20ms);
  metrics.request_started();
  metrics.request_finished("other", "HTTP/1.1", 999, 1ms);  // out of range: status 0
  const auto found = samples(metrics.exposition());
  EXPECT_EQ(
      found.at(
          R"(petstore_http_requests_total{operation="getPet",protocol="HTTP/1.1",status="404"})"),
      "3");
  EXPECT_EQ(
      found.at(
          R"(petstore_http_requests_total{operation="createPet",protocol="HTTP/1.1",status="201"})"),
      "1");
  EXPECT_EQ(
      found.at(R"(petstore_http_requests_total{operation="other",protocol="HTTP/1.1",status="0"})"),
      "1");
  EXPECT_EQ(
      found.count(
          R"(petstore_http_requests_total{operation="listPets",protocol="HTTP/1.1",status="200"})"),
      0U);
  EXPECT_EQ(found.at("petstore_http_requests_in_flight"), "0");
}

// Buckets from 25 us to 10 s (issue 29): a 10 us read lands in the first, not in a 0.5 ms one.
TEST(Metrics, HistogramBucketsAreCumulative) {
  Metrics metrics({"1.0.0", "abc"}, operations);
  for (const std::chrono::nanoseconds duration :
       {10us, 30us, 100us, 2000us, 2000us, 300000us, 2000000us, 20000000us}) {
    metrics.request_started();
    metrics.request_finished("listPets", "HTTP/1.1", 200, duration);
  }
  const auto found = samples(metrics.exposition());
  const std::string name = "petstore_http_request_duration_seconds";
  const std::vector<std::pair<std::string, std::string>> cumulative{
      {"0.000025", "1"}, {"0.00005", "2"}, {"0.0001", "3"}, {"0.00025", "3"}, {"0.0005", "3"},
      {"0.001", "3"},    {"0.0025", "5"},  {"0.005", "5"},  {"0.01", "5"},    {"0.025", "5"},
      {"0.05", "5"},     {"0.1", "5"},     {"0.25", "5"},   {"0.5", "6"},     {"1", "6"},
      {"2.5", "7"},      {"5", "7"},       {"10", "7"},     {"+Inf", "8"}};
  for (const auto& [le, count] : cumulative) {
    std::string sample = name;
    sample.append(R"(_bucket{operation="listPets",le=")").append(le).append(R"("})");
    EXPECT_EQ(found.at(sample), count) << le;
  }
  std::size_t buckets = 0;
  for (const auto& [sample, value] : found) {
    buckets += sample.starts_with(name + R"(_bucket{operation="listPets")") ? 1 : 0;
  }
  EXPECT_EQ(buckets, cumulative.size());
  EXPECT_EQ(found.at(name + R"(_count{operation="listPets"})"), "8");
  EXPECT_DOUBLE_EQ(std::stod(found.at(name + R"(_sum{operation="listPets"})")), 22.30414);
  EXPECT_EQ(found.at(name + R"(_count{operation="getPet"})"), "0");
}

TEST(Metrics, GaugesFollowConnectionsAndRequestsInFlight) {
  Metrics metrics({"1.0.0", "abc"}, operations);
  metrics.connection_opened();
  metrics.connection_opened();
  metrics.connection_closed();
  metrics.request_started();
  metrics.request_started();
  metrics.request_finished("other", "HTTP/1.1", 200, 1ms);
  const auto found = samples(metrics.exposition());
  EXPECT_EQ(found.at("petstore_http_connections_open"), "1");
  EXPECT_EQ(found.at("petstore_http_requests_in_flight"), "1");
}

TEST(Metrics, PetsStoredAndCommitsAndBuildInfo) {
  Metrics metrics({"1.0.0", "a\"b"}, operations);
  EXPECT_EQ(samples(metrics.exposition()).count("petstore_pets_stored"), 0U);
  metrics.set_pets_stored(41);
  metrics.set_pets_stored(42);
  metrics.storage_committed(3ms);
  const auto found = samples(metrics.exposition());
  EXPECT_EQ(found.at("petstore_pets_stored"), "42");
  EXPECT_EQ(found.at("petstore_storage_commit_seconds_count"), "1");
  EXPECT_EQ(found.at(R"(petstore_storage_commit_seconds_bucket{le="0.005"})"), "1");
  EXPECT_EQ(found.at(R"(petstore_storage_commit_seconds_bucket{le="0.0025"})"), "0");
  EXPECT_EQ(found.at(R"(petstore_build_info{version="1.0.0",revision="a\"b"})"), "1");
}

TEST(Metrics, EveryMetricHasHelpAndTypeOnce) {
  Metrics metrics({"1.0.0", "abc"}, operations);
  metrics.set_pets_stored(0);
  metrics.set_log_lines_dropped([] { return std::uint64_t{0}; });
  const std::string text = metrics.exposition();
  for (const std::string name :
       {"petstore_http_requests_total counter", "petstore_http_request_duration_seconds histogram",
        "petstore_http_requests_in_flight gauge", "petstore_http_connections_open gauge",
        "petstore_pets_stored gauge", "petstore_storage_commit_seconds histogram",
        "petstore_build_info gauge", "petstore_log_lines_dropped_total counter",
        "process_cpu_seconds_total counter", "process_resident_memory_bytes gauge",
        "process_open_fds gauge", "process_max_fds gauge", "process_start_time_seconds gauge"}) {
    const auto at = text.find("# TYPE " + name + "\n");
    ASSERT_NE(at, std::string::npos) << name;
    EXPECT_EQ(text.find("# TYPE " + name + "\n", at + 1), std::string::npos) << name;
  }
  EXPECT_EQ(text.back(), '\n');
}

TEST(Metrics, LogLinesDroppedAreReadFromTheirSourceAtScrapeTime) {
  Metrics metrics({"1.0.0", "abc"}, operations);
  EXPECT_EQ(samples(metrics.exposition()).count("petstore_log_lines_dropped_total"), 0U);
  std::uint64_t dropped = 7;
  metrics.set_log_lines_dropped([&dropped] { return dropped; });
  EXPECT_EQ(samples(metrics.exposition()).at("petstore_log_lines_dropped_total"), "7");
  dropped = 9;
  EXPECT_EQ(samples(metrics.exposition()).at("petstore_log_lines_dropped_total"), "9");
}

// The process metrics describe this very process: its open descriptors move when it opens one,
// it has used CPU, holds memory, and started between boot and now.
TEST(Metrics, ProcessMetricsDescribeThisProcess) {
  // Use two clock ticks of CPU first: a Release build of this test may not have used one yet.
  const std::clock_t until = std::clock() + CLOCKS_PER_SEC / 50;
  volatile std::uint64_t spins = 0;
  while (std::clock() < until) {
    spins = spins + 1;
  }
  Metrics metrics({"1.0.0", "abc"}, operations);
  const auto before = samples(metrics.exposition());
  const int extra = ::dup(0);
  ASSERT_GE(extra, 0);
  const auto after = samples(metrics.exposition());
  ::close(extra);
  EXPECT_EQ(std::stoull(after.at("process_open_fds")),
            std::stoull(before.at("process_open_fds")) + 1);
  EXPECT_GT(std::stoull(after.at("process_max_fds")), 0U);
  EXPECT_GT(std::stoull(after.at("process_resident_memory_bytes")), 1U << 20);
  EXPECT_GE(std::stoull(after.at("process_virtual_memory_bytes")),
            std::stoull(after.at("process_resident_memory_bytes")));
  EXPECT_GT(std::stod(after.at("process_cpu_seconds_total")), 0.0);
  const double started = std::stod(after.at("process_start_time_seconds"));
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_LE(started, now + 1);
  EXPECT_GT(started, now - 24 * 3600);  // no test process runs for a day
}

}  // namespace
}  // namespace petstore::tests

// What one answered request costs the metrics, ours (adapters/metrics: lock-free atomics) against
// prometheus-cpp 1.0.1 (Debian's prometheus-cpp-dev) keeping the same families: a requests
// counter by operation and status, and a duration histogram by operation with the same buckets.
// Each side records N requests on 1 and on 2 threads (the serving threads of `--threads 2`) and
// renders one scrape of the result. Prints "name=value" lines, nanoseconds per request, for
// bench/metrics to tabulate.
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <prometheus/counter.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "adapters/metrics/metrics.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::array<std::string_view, 3> operations{"listPets", "createPet", "getPet"};
constexpr std::int64_t requests_per_thread = 2'000'000;

// nanoseconds_per_call: wall time of `threads` threads each calling record(i) for every i in
// [0, requests_per_thread), divided by all the calls.
double nanoseconds_per_call(unsigned threads, const std::function<void(std::int64_t)>& record) {
  const auto started = Clock::now();
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.emplace_back([&record] {
      for (std::int64_t i = 0; i < requests_per_thread; ++i) {
        record(i);
      }
    });
  }
  for (auto& worker : workers) {
    worker.join();
  }
  const auto elapsed = std::chrono::duration<double, std::nano>(Clock::now() - started).count();
  return elapsed / static_cast<double>(requests_per_thread * threads);
}

std::chrono::nanoseconds duration_of(std::int64_t i) {
  return std::chrono::nanoseconds(50'000 + (i % 97) * 1'000);
}

struct PrometheusCpp {
  std::shared_ptr<prometheus::Registry> registry = std::make_shared<prometheus::Registry>();
  prometheus::Family<prometheus::Counter>& requests =
      prometheus::BuildCounter().Name("petstore_http_requests_total").Register(*registry);
  prometheus::Family<prometheus::Histogram>& durations =
      prometheus::BuildHistogram()
          .Name("petstore_http_request_duration_seconds")
          .Register(*registry);
  std::array<prometheus::Counter*, operations.size()> counters{};
  std::array<prometheus::Histogram*, operations.size()> histograms{};

  PrometheusCpp() {
    const auto& bounds = petstore::adapters::metrics::Histogram::bounds;
    for (std::size_t op = 0; op < operations.size(); ++op) {
      const std::string name(operations[op]);
      counters[op] = &requests.Add({{"operation", name}, {"status", "200"}});
      histograms[op] =
          &durations.Add({{"operation", name}},
                         prometheus::Histogram::BucketBoundaries(bounds.begin(), bounds.end()));
    }
  }
  // record: as a serving thread would, finding the label set by value each time (what
  // Family::Add does for a status not seen before is not measured: ours has no such path).
  void record(std::int64_t i) {
    const auto op = static_cast<std::size_t>(i) % operations.size();
    counters[op]->Increment();
    histograms[op]->Observe(std::chrono::duration<double>(duration_of(i)).count());
  }
  [[nodiscard]] std::string scrape() const {
    return prometheus::TextSerializer().Serialize(registry->Collect());
  }
};

double scrape_microseconds(const std::function<std::string()>& scrape) {
  constexpr int scrapes = 2'000;
  std::size_t bytes = 0;
  const auto started = Clock::now();
  for (int i = 0; i < scrapes; ++i) {
    bytes += scrape().size();
  }
  const auto elapsed = std::chrono::duration<double, std::micro>(Clock::now() - started).count();
  return bytes > 0 ? elapsed / scrapes : 0;
}

}  // namespace

int main() {
  for (const unsigned threads : {1U, 2U}) {
    petstore::adapters::metrics::Metrics ours({"bench", "bench"}, operations);
    const double ours_ns = nanoseconds_per_call(threads, [&ours](std::int64_t i) {
      ours.request_finished(operations[static_cast<std::size_t>(i) % operations.size()], "HTTP/1.1",
                            200, duration_of(i));
    });
    PrometheusCpp theirs;
    const double theirs_ns =
        nanoseconds_per_call(threads, [&theirs](std::int64_t i) { theirs.record(i); });
    std::printf("ours_ns_per_request_threads_%u=%.1f\n", threads, ours_ns);
    std::printf("prometheus_cpp_ns_per_request_threads_%u=%.1f\n", threads, theirs_ns);
    if (threads == 1) {
      std::printf("ours_scrape_us=%.1f\n",
                  scrape_microseconds([&ours] { return ours.exposition(); }));
      std::printf("prometheus_cpp_scrape_us=%.1f\n",
                  scrape_microseconds([&theirs] { return theirs.scrape(); }));
    }
  }
  return 0;
}

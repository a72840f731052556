#pragma once
// RouterHarness: a bootstrap::Service driven through its Router without sockets. Storage is the
// test's choice: empty memory storage by default, or any repository handed in (a fault-injecting
// decorator, LMDB). Keys come from support/fake_key_verifier.hpp, time from a FakeClock. An
// answer the router gives at once and one that storage completes later are waited for alike.
// Given a logger, it writes each request's line as the server does (ExchangeWatch and the
// bootstrap's ServiceObserver), under request ids "harness-1", "harness-2", ...

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/http/api/http_message.hpp"
#include "adapters/logging/logger.hpp"
#include "adapters/metrics/metrics.hpp"
#include "bootstrap/observability.hpp"
#include "bootstrap/service.hpp"
#include "ports/pet_repository.hpp"
#include "support/fake_clock.hpp"
#include "support/test_request.hpp"

namespace petstore::tests {

using adapters::http::HttpResponse;

// ListedPet: the id and name of a pet in a response.
struct ListedPet {
  std::int64_t id = 0;
  std::string name;
  friend bool operator==(const ListedPet&, const ListedPet&) = default;
};

class RouterHarness {
 public:
  // The component service: empty memory storage, ready at once, with `settings` (metrics, say).
  explicit RouterHarness(const bootstrap::ServiceSettings& settings = {});
  // A service on `pets`; `logger`, when given, receives each request's line (with a failed
  // call's own words) and must outlive the harness.
  explicit RouterHarness(std::unique_ptr<ports::PetRepository> pets,
                         adapters::logging::Logger* logger = nullptr);

  // send: the router's response to `request`; throws when none comes within 10 seconds.
  [[nodiscard]] HttpResponse send(const TestRequest& request) const;
  // send_all: the responses to `requests`, all handed to the router before any is waited for,
  // in the order of `requests`.
  [[nodiscard]] std::vector<HttpResponse> send_all(const std::vector<TestRequest>& requests) const;

  // create: the id of a pet created through POST /v1/pets; -1 (failing the test) when the
  // answer is not 201.
  std::int64_t create(std::string_view name, std::int64_t category_id = 1,
                      std::optional<std::string_view> status = std::nullopt) const;
  // list_all: every pet, page after page of GET /v1/pets?limit=100&after=...; a page that is not
  // 200 fails the test and ends the list.
  [[nodiscard]] std::vector<ListedPet> list_all() const;

  // close_storage: closes the repository (LMDB: pending creates finish first).
  void close_storage() { service_->close_storage(); }

  // set_ready: what /readyz answers (false: starting or draining).
  void set_ready(bool ready) { service_->set_ready(ready); }

  [[nodiscard]] FakeClock& clock() { return *clock_; }

 private:
  FakeClock* clock_ = nullptr;  // owned by service_
  std::unique_ptr<bootstrap::Service> service_;
  // With a logger: what the server's observer would be told, and the last request id given.
  std::unique_ptr<adapters::metrics::Metrics> metrics_;
  std::unique_ptr<bootstrap::ServiceObserver> observer_;
  mutable std::atomic<int> requests_sent_{0};
};

// listed_pet: the id and name of the Pet in `body`; id -1 when it is none.
[[nodiscard]] ListedPet listed_pet(std::string_view body);

// has_v1_headers: whether `response` carries Cache-Control: no-store and
// X-Content-Type-Options: nosniff, as every /v1 response must.
[[nodiscard]] testing::AssertionResult has_v1_headers(const HttpResponse& response);

}  // namespace petstore::tests

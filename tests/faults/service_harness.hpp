#pragma once
// ServiceHarness: a bootstrap::Service wired from ServiceParts with the storage a test hands in
// (a FaultyPetRepository, or LMDB), the fake key verifier, a fake clock and optionally a logger,
// driven through its Router without sockets. Requests present test_key_a; answers that storage
// completes later (creates) are waited for.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/http/http_message.hpp"
#include "adapters/logging/logger.hpp"
#include "bootstrap/service.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::tests {

using adapters::http::HttpResponse;

// Request: owns the bytes an adapters::http::HttpRequest views.
struct Request {
  std::string method = "GET";
  std::string target;
  std::string body;
  std::optional<std::string> idempotency_key;
  std::string authorization;
  std::string content_type = "application/json";

  [[nodiscard]] adapters::http::HttpRequest view() const;
};

// get: GET `target`.
[[nodiscard]] Request get(std::string target);
// post_pet: POST /v1/pets of {"name": name, "categoryId": category_id}.
[[nodiscard]] Request post_pet(std::string_view name, std::int64_t category_id = 1,
                               std::optional<std::string> idempotency_key = std::nullopt);

// ListedPet: the id and name of a pet in a response.
struct ListedPet {
  std::int64_t id = 0;
  std::string name;
  friend bool operator==(const ListedPet&, const ListedPet&) = default;
};

class ServiceHarness {
 public:
  // `logger`, when given, receives the service's storage-fault lines; it must outlive the harness.
  explicit ServiceHarness(std::unique_ptr<ports::PetRepository> pets,
                          adapters::logging::Logger* logger = nullptr);

  // send: the response to `request`; throws when none comes within 10 seconds.
  [[nodiscard]] HttpResponse send(const Request& request) const;
  // send_all: the responses to `requests`, all handed to the router before any is waited for,
  // in the order of `requests`.
  [[nodiscard]] std::vector<HttpResponse> send_all(const std::vector<Request>& requests) const;
  // list_all: every pet, page after page of GET /v1/pets?limit=100&after=...; a page that is not
  // 200 fails the test and ends the list.
  [[nodiscard]] std::vector<ListedPet> list_all() const;
  // close_storage: closes the repository (LMDB: pending creates finish first).
  void close_storage() { service_->close_storage(); }

 private:
  std::unique_ptr<bootstrap::Service> service_;
};

// listed_pet: the id and name of the Pet in `body`; id -1 when it is none.
[[nodiscard]] ListedPet listed_pet(std::string_view body);

// is_unavailable / is_internal_error: whether `response` is the contract's 503 `unavailable`,
// or its 500 `internal_error` with a message free of internal_details, with the /v1 headers.
[[nodiscard]] testing::AssertionResult is_unavailable(const HttpResponse& response);
[[nodiscard]] testing::AssertionResult is_internal_error(const HttpResponse& response);

}  // namespace petstore::tests

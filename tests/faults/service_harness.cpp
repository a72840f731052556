#include "faults/service_harness.hpp"

#include <chrono>
#include <future>
#include <stdexcept>
#include <utility>

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "support/fake_clock.hpp"
#include "support/fake_key_verifier.hpp"
#include "support/json_bodies.hpp"

#include "faults/faulty_pet_repository.hpp"

namespace petstore::tests {
namespace {

constexpr auto answer_timeout = std::chrono::seconds(10);

testing::AssertionResult has_v1_headers(const HttpResponse& response) {
  if (response.header("Cache-Control") != "no-store" ||
      response.header("X-Content-Type-Options") != "nosniff") {
    return testing::AssertionFailure()
           << "status " << response.status << " lacks Cache-Control: no-store or nosniff";
  }
  return testing::AssertionSuccess();
}

testing::AssertionResult leaks_no_details(const HttpResponse& response) {
  for (const char* detail : internal_details) {
    if (response.body.find(detail) != std::string::npos) {
      return testing::AssertionFailure() << "the body leaks '" << detail << "': " << response.body;
    }
  }
  return testing::AssertionSuccess();
}

}  // namespace

adapters::http::HttpRequest Request::view() const {
  adapters::http::HttpRequest view;
  view.method = method;
  view.target = target;
  view.authorization = authorization;
  view.content_type = content_type;
  if (idempotency_key) {
    view.idempotency_key = *idempotency_key;
  }
  view.body = body;
  view.client_address = "192.0.2.7";
  return view;
}

Request get(std::string target) {
  Request request;
  request.target = std::move(target);
  request.authorization = "Bearer " + std::string(test_key_a);
  return request;
}

Request post_pet(std::string_view name, std::int64_t category_id,
                 std::optional<std::string> idempotency_key) {
  Request request = get("/v1/pets");
  request.method = "POST";
  request.body =
      boost::json::serialize(boost::json::object{{"name", name}, {"categoryId", category_id}});
  request.idempotency_key = std::move(idempotency_key);
  return request;
}

ServiceHarness::ServiceHarness(std::unique_ptr<ports::PetRepository> pets,
                               adapters::logging::Logger* logger)
    : service_(std::make_unique<bootstrap::Service>(
          bootstrap::ServiceParts{std::move(pets), make_fake_key_verifier(),
                                  std::make_unique<FakeClock>()},
          bootstrap::ServiceSettings{.logger = logger})) {
  service_->set_ready(true);
}

HttpResponse ServiceHarness::send(const Request& request) const {
  return send_all({request}).front();
}

std::vector<HttpResponse> ServiceHarness::send_all(const std::vector<Request>& requests) const {
  std::vector<adapters::http::HttpRequest> views;
  std::vector<std::future<HttpResponse>> answers;
  views.reserve(requests.size());  // each view must outlive its answer
  for (const Request& request : requests) {
    views.push_back(request.view());
    auto later = std::make_shared<std::promise<HttpResponse>>();
    answers.push_back(later->get_future());
    service_->router().handle(
        views.back(), [later](HttpResponse response) { later->set_value(std::move(response)); });
  }
  std::vector<HttpResponse> responses;
  for (auto& answer : answers) {
    if (answer.wait_for(answer_timeout) != std::future_status::ready) {
      throw std::runtime_error("the router did not answer within 10 seconds");
    }
    responses.push_back(answer.get());
  }
  return responses;
}

std::vector<ListedPet> ServiceHarness::list_all() const {
  std::vector<ListedPet> pets;
  std::string target = "/v1/pets?limit=100";
  for (;;) {
    const HttpResponse page = send(get(target));
    EXPECT_EQ(page.status, 200U) << page.body;
    const boost::json::value body = parse_json(page.body);
    if (page.status != 200 || !body.is_array()) {
      return pets;
    }
    for (const auto& pet : body.get_array()) {
      pets.push_back(listed_pet(boost::json::serialize(pet)));
    }
    if (!page.header("Link") || pets.empty()) {
      return pets;
    }
    target = "/v1/pets?limit=100&after=" + std::to_string(pets.back().id);
  }
}

ListedPet listed_pet(std::string_view body) {
  const boost::json::value value = parse_json(body);
  const auto* pet = value.if_object();
  if (pet == nullptr || !pet->contains("id") || !pet->at("id").is_int64() ||
      !pet->contains("name") || !pet->at("name").is_string()) {
    return ListedPet{-1, {}};
  }
  return ListedPet{pet->at("id").get_int64(), std::string(pet->at("name").get_string())};
}

testing::AssertionResult is_unavailable(const HttpResponse& response) {
  if (response.status != 503) {
    return testing::AssertionFailure()
           << "expected 503, got " << response.status << " " << response.body;
  }
  if (auto body = is_error_body(response.body, 503, "unavailable"); !body) {
    return body;
  }
  if (auto clean = leaks_no_details(response); !clean) {
    return clean;
  }
  return has_v1_headers(response);
}

testing::AssertionResult is_internal_error(const HttpResponse& response) {
  if (response.status != 500) {
    return testing::AssertionFailure()
           << "expected 500, got " << response.status << " " << response.body;
  }
  if (auto body = is_error_body(response.body, 500, "internal_error"); !body) {
    return body;
  }
  if (auto clean = leaks_no_details(response); !clean) {
    return clean;
  }
  return has_v1_headers(response);
}

}  // namespace petstore::tests

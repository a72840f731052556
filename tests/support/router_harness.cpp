#include "support/router_harness.hpp"

#include <chrono>
#include <future>
#include <stdexcept>
#include <utility>

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "adapters/http/api/routes.hpp"
#include "adapters/http/server/http_observer.hpp"
#include "support/fake_key_verifier.hpp"
#include "support/json_bodies.hpp"

namespace petstore::tests {
namespace {

constexpr auto answer_timeout = std::chrono::seconds(10);

}  // namespace

RouterHarness::RouterHarness(const bootstrap::ServiceSettings& settings) {
  auto clock = std::make_unique<FakeClock>();
  clock_ = clock.get();
  service_ =
      bootstrap::build_component_service(make_fake_key_verifier(), std::move(clock), settings);
}

RouterHarness::RouterHarness(std::unique_ptr<ports::PetRepository> pets,
                             adapters::logging::Logger* logger) {
  auto clock = std::make_unique<FakeClock>();
  clock_ = clock.get();
  service_ = std::make_unique<bootstrap::Service>(
      bootstrap::ServiceParts{std::move(pets), make_fake_key_verifier(), std::move(clock)},
      bootstrap::ServiceSettings{.logger = logger});
  service_->set_ready(true);
  if (logger != nullptr) {
    metrics_ = std::make_unique<adapters::metrics::Metrics>(
        adapters::metrics::BuildInfo{"test", "test"}, adapters::http::operation_ids());
    observer_ = std::make_unique<bootstrap::ServiceObserver>(*metrics_, *logger);
  }
}

HttpResponse RouterHarness::send(const TestRequest& request) const {
  return send_all({request}).front();
}

std::vector<HttpResponse> RouterHarness::send_all(const std::vector<TestRequest>& requests) const {
  std::vector<adapters::http::HttpRequest> views;
  std::vector<std::future<HttpResponse>> answers;
  std::vector<adapters::http::RequestFacts> facts;
  std::vector<adapters::http::ExchangeWatch> watches;
  views.reserve(requests.size());  // each view must outlive its answer
  for (const TestRequest& request : requests) {
    views.push_back(request.view());
    auto later = std::make_shared<std::promise<HttpResponse>>();
    answers.push_back(later->get_future());
    watches.emplace_back(observer_.get(), std::chrono::steady_clock::now());
    // A second answer would throw std::future_error from set_value, failing the test.
    facts.push_back(service_->router().handle(
        views.back(), [later](HttpResponse response) { later->set_value(std::move(response)); }));
  }
  std::vector<HttpResponse> responses;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    if (answers[i].wait_for(answer_timeout) != std::future_status::ready) {
      throw std::runtime_error("the router did not answer " + requests[i].method + " " +
                               requests[i].target + " within 10 seconds");
    }
    responses.push_back(answers[i].get());
    const std::string request_id = "harness-" + std::to_string(++requests_sent_);
    watches[i].finished(request_id, ports::TraceContext{}, requests[i].method, "HTTP/1.1", facts[i],
                        responses.back(), responses.back().body.size(),
                        std::chrono::steady_clock::now());
  }
  return responses;
}

std::int64_t RouterHarness::create(std::string_view name, std::int64_t category_id,
                                   std::optional<std::string_view> status) const {
  const HttpResponse response = send(post_pet(new_pet_json(name, category_id, status)));
  EXPECT_EQ(response.status, 201U) << response.body;
  return response.status == 201 ? pet_id_of(response.body) : -1;
}

std::vector<ListedPet> RouterHarness::list_all() const {
  std::vector<ListedPet> pets;
  std::string target = "/v1/pets?limit=100";
  for (;;) {
    const HttpResponse page = send(request("GET", target));
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

testing::AssertionResult has_v1_headers(const HttpResponse& response) {
  if (response.header("Cache-Control") != "no-store" ||
      response.header("X-Content-Type-Options") != "nosniff") {
    return testing::AssertionFailure()
           << "status " << response.status << " lacks Cache-Control: no-store or "
           << "X-Content-Type-Options: nosniff";
  }
  return testing::AssertionSuccess();
}

}  // namespace petstore::tests

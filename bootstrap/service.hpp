#pragma once
// Service: the object graph of one running Petstore (adapters -> use cases -> router), built in
// this one place; build_component_service is its twin for component tests.

#include <atomic>
#include <functional>
#include <memory>

#include "adapters/http/api/router.hpp"
#include "adapters/logging/logger.hpp"
#include "adapters/metrics/metrics.hpp"
#include "adapters/metrics/pets_stored_sampler.hpp"
#include "application/use_cases.hpp"
#include "ports/clock.hpp"
#include "ports/key_verifier.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::bootstrap {

struct ServiceParts {
  std::unique_ptr<ports::PetRepository> pets;
  std::unique_ptr<ports::KeyVerifier> keys;
  std::unique_ptr<ports::Clock> clock;
};

struct ServiceSettings {
  double auth_failures_per_minute = 60;  // per client address, then 429
  // Served at GET /metrics when set; must outlive the service.
  adapters::metrics::Metrics* metrics = nullptr;
  // Where a failed count of the stored-pets gauge is logged; must outlive the service.
  adapters::logging::Logger* logger = nullptr;
  // Whether storage can serve now (PostgreSQL: a connection works); /readyz is 503 while not.
  // Empty: always.
  std::function<bool()> storage_ready{};
  // Peers whose X-Forwarded-For names the client (contract section 9); none by default.
  adapters::http::TrustedProxies trusted_proxies{};
  // Origins whose browser pages may call the API (CORS); none by default.
  adapters::http::CorsPolicy cors{};
};

class Service {
 public:
  explicit Service(ServiceParts parts, const ServiceSettings& settings = {});
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;
  ~Service();

  [[nodiscard]] const adapters::http::Router& router() const { return router_; }

  // set_ready: what /readyz answers; false until serving starts and again while draining.
  void set_ready(bool ready) { ready_.store(ready); }

  // close_storage: finishes pending creates and closes the repository. Call after the server has
  // stopped; afterwards the service must not be used.
  void close_storage() {
    pets_stored_.reset();
    parts_.pets.reset();
  }

 private:
  adapters::http::RouterOptions router_options(const ServiceSettings& settings);

  ServiceParts parts_;
  std::unique_ptr<adapters::metrics::PetsStoredSampler> pets_stored_;  // with metrics only
  std::atomic<bool> ready_{false};
  application::FailedAuthThrottle auth_throttle_;
  application::UseCases use_cases_;
  adapters::http::Router router_;
};

// build_component_service: a service on empty memory storage, ready at once.
[[nodiscard]] std::unique_ptr<Service> build_component_service(
    std::unique_ptr<ports::KeyVerifier> keys, std::unique_ptr<ports::Clock> clock,
    const ServiceSettings& settings = {});

}  // namespace petstore::bootstrap

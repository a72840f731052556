#include "bootstrap/service.hpp"

#include <string_view>
#include <utility>

#include "adapters/http/api/client_address.hpp"
#include "adapters/storage/memory/memory_pet_repository.hpp"

namespace petstore::bootstrap {
namespace {

// count_failure_log: a failed count of the stored-pets gauge, logged.
adapters::metrics::PetsStoredSampler::FailureHandler count_failure_log(
    adapters::logging::Logger* logger) {
  if (logger == nullptr) {
    return {};
  }
  return [logger](const domain::Error& error) {
    const std::string_view code =
        error.code == domain::ErrorCode::unavailable ? "unavailable" : "internal";
    logger->error(
        "storage_error",
        {{"call", "count"}, {"code", code}, {"message", error.message}, {"detail", error.detail}});
  };
}

}  // namespace

Service::Service(ServiceParts parts, const ServiceSettings& settings)
    : parts_(std::move(parts)),
      pets_stored_(settings.metrics == nullptr
                       ? nullptr
                       : std::make_unique<adapters::metrics::PetsStoredSampler>(
                             *parts_.pets, *settings.metrics,
                             adapters::metrics::PetsStoredSampler::default_interval,
                             count_failure_log(settings.logger))),
      auth_throttle_(*parts_.clock, settings.auth_failures_per_minute,
                     application::FailedAuthThrottle::default_max_addresses,
                     adapters::http::client_address_group),
      use_cases_{application::Authenticate(*parts_.keys, auth_throttle_),
                 application::ListPets(*parts_.pets),
                 application::CreatePet(*parts_.pets, *parts_.clock),
                 application::GetPet(*parts_.pets), application::ListOrders()},
      router_(use_cases_, router_options(settings)) {}

adapters::http::RouterOptions Service::router_options(const ServiceSettings& settings) {
  using adapters::http::Readiness;
  adapters::http::RouterOptions options{[this, storage_ready = settings.storage_ready] {
                                          if (!ready_.load()) {
                                            return Readiness::not_serving;
                                          }
                                          return !storage_ready || storage_ready()
                                                     ? Readiness::ready
                                                     : Readiness::storage_unavailable;
                                        },
                                        {},
                                        settings.trusted_proxies,
                                        settings.cors};
  if (auto* metrics = settings.metrics) {
    options.metrics = [this, metrics] {
      pets_stored_->sample();
      return metrics->exposition();
    };
  }
  return options;
}

Service::~Service() = default;

std::unique_ptr<Service> build_component_service(std::unique_ptr<ports::KeyVerifier> keys,
                                                 std::unique_ptr<ports::Clock> clock,
                                                 const ServiceSettings& settings) {
  auto service = std::make_unique<Service>(
      ServiceParts{adapters::storage::memory::make_memory_pet_repository(), std::move(keys),
                   std::move(clock)},
      settings);
  service->set_ready(true);
  return service;
}

}  // namespace petstore::bootstrap

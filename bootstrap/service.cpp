#include "bootstrap/service.hpp"

#include <functional>
#include <utility>

#include "adapters/logging/logging_pet_repository.hpp"
#include "adapters/storage/memory/memory_pet_repository.hpp"

namespace petstore::bootstrap {
namespace {

ServiceParts with_fault_log(ServiceParts parts, const ServiceSettings& settings) {
  if (settings.logger != nullptr || settings.metrics != nullptr) {
    std::function<void()> pet_stored;
    if (auto* metrics = settings.metrics) {
      pet_stored = [metrics] { metrics->pet_stored(); };
    }
    parts.pets = adapters::logging::make_logging_pet_repository(
        std::move(parts.pets), settings.logger, std::move(pet_stored));
  }
  return parts;
}

}  // namespace

Service::Service(ServiceParts parts, const ServiceSettings& settings)
    : parts_(with_fault_log(std::move(parts), settings)),
      auth_throttle_(*parts_.clock, settings.auth_failures_per_minute),
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
    options.metrics = [metrics] { return metrics->exposition(); };
    // Counted once here; the create path keeps the gauge from then on
    // (make_logging_pet_repository), so that a scrape never reaches storage.
    parts_.pets->count([metrics](domain::Result<std::int64_t> count) {
      if (count) {
        metrics->set_pets_stored(*count);
      }
    });
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

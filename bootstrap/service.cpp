#include "bootstrap/service.hpp"

#include <utility>

#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "bootstrap/storage_fault_log.hpp"

namespace petstore::bootstrap {
namespace {

ServiceParts with_fault_log(ServiceParts parts, const ServiceSettings& settings) {
  if (settings.logger != nullptr || settings.metrics != nullptr) {
    parts.pets = log_storage_faults(std::move(parts.pets), settings.logger, settings.metrics);
  }
  return parts;
}

}  // namespace

Service::Service(ServiceParts parts, ServiceSettings settings)
    : parts_(with_fault_log(std::move(parts), settings)),
      auth_throttle_(*parts_.clock, settings.auth_failures_per_minute),
      use_cases_{application::Authenticate(*parts_.keys, auth_throttle_),
                 application::ListPets(*parts_.pets),
                 application::CreatePet(*parts_.pets, *parts_.clock),
                 application::GetPet(*parts_.pets), application::ListOrders()},
      router_(use_cases_, router_options(settings)) {}

adapters::http::RouterOptions Service::router_options(const ServiceSettings& settings) {
  adapters::http::RouterOptions options{[this] { return ready_.load(); }, {}};
  if (auto* metrics = settings.metrics) {
    options.metrics = [metrics] { return metrics->exposition(); };
    // Counted once here; the create path keeps the gauge from then on (log_storage_faults), so
    // that a scrape never reaches storage.
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
                                                 ServiceSettings settings) {
  auto service = std::make_unique<Service>(
      ServiceParts{adapters::make_memory_pet_repository(), std::move(keys), std::move(clock)},
      settings);
  service->set_ready(true);
  return service;
}

}  // namespace petstore::bootstrap

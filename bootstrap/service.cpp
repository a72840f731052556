#include "bootstrap/service.hpp"

#include <utility>

#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "bootstrap/storage_fault_log.hpp"

namespace petstore::bootstrap {
namespace {

ServiceParts with_fault_log(ServiceParts parts, adapters::logging::Logger* logger) {
  if (logger != nullptr) {
    parts.pets = log_storage_faults(std::move(parts.pets), *logger);
  }
  return parts;
}

}  // namespace

Service::Service(ServiceParts parts, ServiceSettings settings)
    : parts_(with_fault_log(std::move(parts), settings.logger)),
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
    // Read at scrape time; the server stops (no more scrapes) before close_storage.
    metrics->set_pets_stored([this]() -> std::optional<std::int64_t> {
      if (!parts_.pets) {
        return std::nullopt;
      }
      const auto count = parts_.pets->count();
      return count ? std::optional<std::int64_t>(*count) : std::nullopt;
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

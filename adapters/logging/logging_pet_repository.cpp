#include "adapters/logging/logging_pet_repository.hpp"

#include <string_view>
#include <utility>

namespace petstore::adapters::logging {
namespace {

using domain::ErrorCode;

bool is_fault(const domain::Error& error) {
  return error.code == ErrorCode::unavailable || error.code == ErrorCode::internal;
}

class LoggingPetRepository final : public ports::PetRepository {
 public:
  LoggingPetRepository(std::unique_ptr<ports::PetRepository> inner, Logger& logger)
      : inner_(std::move(inner)), logger_(logger) {}

  void create(ports::CreatePetCommand command, CreateDone done) override {
    inner_->create(std::move(command), reported<ports::CreateOutcome>("create", std::move(done)));
  }

  void get(domain::PetId id, GetDone done) const override {
    inner_->get(id, reported<domain::Pet>("get", std::move(done)));
  }

  void list(ports::PetQuery query, ListDone done) const override {
    inner_->list(query, reported<ports::PetPage>("list", std::move(done)));
  }

  void count(CountDone done) const override {
    inner_->count(reported<std::int64_t>("count", std::move(done)));
  }

 private:
  static void report(Logger& logger, std::string_view call, const domain::Error& error) {
    if (!is_fault(error)) {
      return;
    }
    const std::string_view code = error.code == ErrorCode::unavailable ? "unavailable" : "internal";
    if (error.detail.empty()) {
      logger.error("storage_error", {{"call", call}, {"code", code}, {"message", error.message}});
    } else {
      logger.error(
          "storage_error",
          {{"call", call}, {"code", code}, {"message", error.message}, {"detail", error.detail}});
    }
  }

  // reported: `done`, after logging the fault its result may carry; its deadline kept.
  template <class T>
  ports::Completion<T> reported(std::string_view call, ports::Completion<T> done) const {
    return std::move(done).template adapt<T>([&logger = logger_, call](domain::Result<T> result) {
      if (!result) {
        report(logger, call, result.error());
      }
      return result;
    });
  }

  std::unique_ptr<ports::PetRepository> inner_;
  Logger& logger_;
};

}  // namespace

std::unique_ptr<ports::PetRepository> make_logging_pet_repository(
    std::unique_ptr<ports::PetRepository> inner, Logger& logger) {
  return std::make_unique<LoggingPetRepository>(std::move(inner), logger);
}

}  // namespace petstore::adapters::logging

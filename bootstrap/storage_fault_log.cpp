#include "bootstrap/storage_fault_log.hpp"

#include <string_view>
#include <utility>

namespace petstore::bootstrap {
namespace {

using domain::ErrorCode;

bool is_fault(const domain::Error& error) {
  return error.code == ErrorCode::unavailable || error.code == ErrorCode::internal;
}

class StorageFaultLog final : public ports::PetRepository {
 public:
  StorageFaultLog(std::unique_ptr<ports::PetRepository> inner, adapters::logging::Logger& logger)
      : inner_(std::move(inner)), logger_(&logger) {}

  void create(ports::CreatePetCommand command, CreateDone done) override {
    inner_->create(std::move(command),
                   [logger = logger_, done = std::move(done)](domain::Result<domain::Pet> result) {
                     if (!result) {
                       report(*logger, "create", result.error());
                     }
                     done(std::move(result));
                   });
  }

  [[nodiscard]] domain::Result<domain::Pet> get(domain::PetId id) const override {
    return reported("get", inner_->get(id));
  }

  [[nodiscard]] domain::Result<ports::PetPage> list(const ports::PetQuery& query) const override {
    return reported("list", inner_->list(query));
  }

  [[nodiscard]] domain::Result<std::int64_t> count() const override {
    return reported("count", inner_->count());
  }

 private:
  static void report(adapters::logging::Logger& logger, std::string_view call,
                     const domain::Error& error) {
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

  template <class T>
  domain::Result<T> reported(std::string_view call, domain::Result<T> result) const {
    if (!result) {
      report(*logger_, call, result.error());
    }
    return result;
  }

  std::unique_ptr<ports::PetRepository> inner_;
  adapters::logging::Logger* logger_;
};

}  // namespace

std::unique_ptr<ports::PetRepository> log_storage_faults(
    std::unique_ptr<ports::PetRepository> inner, adapters::logging::Logger& logger) {
  return std::make_unique<StorageFaultLog>(std::move(inner), logger);
}

}  // namespace petstore::bootstrap

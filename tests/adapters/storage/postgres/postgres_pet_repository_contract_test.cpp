// The PostgreSQL repository against the shared PetRepository contract suite (the rapidcheck
// model test included): a fresh database per case on the executable's own server, and a reopen
// that closes every connection and opens a new pool on the same database.

#include <memory>
#include <string>

#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/postgres_server.hpp"

namespace petstore::tests {
namespace {

class PostgresHarness final : public RepositoryHarness {
 public:
  PostgresHarness() {
    auto& server = shared_postgres_server();
    options_.database_url = server.url(server.create_database());
    options_.pool_size = 4;
    repository_ = open();
  }

  [[nodiscard]] ports::PetRepository& repository() override { return *repository_; }

  bool reopen() override {
    repository_.reset();  // every connection closed before the next pool opens
    repository_ = open();
    return true;
  }

 private:
  [[nodiscard]] std::unique_ptr<ports::PetRepository> open() const {
    return adapters::storage::postgres::make_postgres_pet_repository(options_).value();
  }

  adapters::storage::postgres::PostgresOptions options_;
  std::unique_ptr<ports::PetRepository> repository_;
};

INSTANTIATE_TEST_SUITE_P(Postgres, PetRepositoryContract,
                         testing::Values(AdapterUnderTest{
                             "postgres", [] { return std::make_unique<PostgresHarness>(); }}),
                         adapter_name);

}  // namespace
}  // namespace petstore::tests

// The PostgreSQL archive (the data tools' view) against the shared PetArchive contract suite, with
// a repository (the service's view) open on the same fresh database at the same time, as a
// running service and `petstore import` would be.

#include <memory>
#include <string>

#include "adapters/storage/postgres/postgres_pet_archive.hpp"
#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "ports/pet_archive_contract.hpp"
#include "support/postgres_server.hpp"

namespace petstore::tests {
namespace {

class PostgresArchiveHarness final : public ArchiveHarness {
 public:
  PostgresArchiveHarness() {
    auto& server = shared_postgres_server();
    options_.database_url = server.url(server.create_database());
    options_.pool_size = 2;
    repository_ = adapters::storage::postgres::make_postgres_pet_repository(options_)
                      .value();  // makes the schema
    archive_ = adapters::storage::postgres::make_postgres_pet_archive(options_).value();
  }

  [[nodiscard]] ports::PetArchive& archive() override { return *archive_; }
  [[nodiscard]] ports::PetRepository& repository() override { return *repository_; }

 private:
  adapters::storage::postgres::PostgresOptions options_;
  std::unique_ptr<ports::PetRepository> repository_;
  std::unique_ptr<ports::PetArchive> archive_;
};

INSTANTIATE_TEST_SUITE_P(Postgres, PetArchiveContract,
                         testing::Values(ArchiveUnderTest{
                             "postgres",
                             [] { return std::make_unique<PostgresArchiveHarness>(); }}),
                         archive_name);

}  // namespace
}  // namespace petstore::tests

// The in-memory store against the shared PetArchive contract suite: the archive and the
// repository are one object, as they are for a service and its data tools in one process.

#include <memory>

#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "ports/pet_archive_contract.hpp"

namespace petstore::tests {
namespace {

class MemoryArchiveHarness final : public ArchiveHarness {
 public:
  [[nodiscard]] ports::PetArchive& archive() override { return *store_; }
  [[nodiscard]] ports::PetRepository& repository() override { return *store_; }

 private:
  std::unique_ptr<adapters::storage::memory::MemoryPetStore> store_ =
      adapters::storage::memory::make_memory_pet_store();
};

INSTANTIATE_TEST_SUITE_P(Memory, PetArchiveContract,
                         testing::Values(ArchiveUnderTest{
                             "memory", [] { return std::make_unique<MemoryArchiveHarness>(); }}),
                         archive_name);

}  // namespace
}  // namespace petstore::tests

#pragma once
// The PetRepository contract suite: one set of cases that every storage adapter must pass.
// An adapter's test file instantiates it with a factory for a fresh, empty repository:
//
//   INSTANTIATE_TEST_SUITE_P(Memory, PetRepositoryContract,
//                            testing::Values(AdapterUnderTest{"memory", make_memory_harness}),
//                            adapter_name);
//
// The cases use only the port and the harness, never an adapter's own API.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "ports/pet_repository.hpp"

namespace petstore::domain {

// How gtest and rapidcheck print the values the cases compare.
std::ostream& operator<<(std::ostream& os, PetStatus status);
std::ostream& operator<<(std::ostream& os, const NewPet& pet);
std::ostream& operator<<(std::ostream& os, const Pet& pet);

}  // namespace petstore::domain

namespace petstore::tests {

// RepositoryHarness: owns one repository under test and whatever it stores into.
class RepositoryHarness {
 public:
  RepositoryHarness() = default;
  RepositoryHarness(const RepositoryHarness&) = delete;
  RepositoryHarness& operator=(const RepositoryHarness&) = delete;
  virtual ~RepositoryHarness() = default;

  [[nodiscard]] virtual ports::PetRepository& repository() = 0;

  // reopen: closes the repository and opens a new one on the same data. Returns false, changing
  // nothing, when the adapter keeps nothing across a reopen (memory).
  virtual bool reopen() = 0;
};

struct AdapterUnderTest {
  std::string name;
  std::function<std::unique_ptr<RepositoryHarness>()> make;
};

// How gtest shows the parameter of a failed case.
inline std::ostream& operator<<(std::ostream& os, const AdapterUnderTest& adapter) {
  return os << adapter.name;
}

// For gtest's test names: "PetRepositoryContract/Memory.CreateAssignsIds/memory".
inline std::string adapter_name(const testing::TestParamInfo<AdapterUnderTest>& info) {
  return info.param.name;
}

// A fixed moment the cases stamp their creates with; no case reads the wall clock.
inline constexpr std::chrono::system_clock::time_point test_now{
    std::chrono::sys_days{std::chrono::year{2025} / 1 / 1}};

// new_pet: a NewPet from parts the caller knows to be valid (it fails the test otherwise).
[[nodiscard]] domain::NewPet new_pet(std::string_view name, std::int64_t category_id = 1,
                                     domain::PetStatus status = domain::default_pet_status);

// page_size: a PageSize the caller knows to be within 1..100.
[[nodiscard]] domain::PageSize page_size(std::int64_t count);

// create_pet: runs `repository.create` and waits for its `done`, whichever thread calls it.
[[nodiscard]] domain::Result<domain::Pet> create_pet(
    ports::PetRepository& repository, domain::NewPet pet,
    std::optional<ports::IdempotencyKey> idempotency = std::nullopt,
    std::chrono::system_clock::time_point received_at = test_now);

// list_all: every pet with `status` (all when nullopt), by following `after` from page to page.
[[nodiscard]] std::vector<domain::Pet> list_all(const ports::PetRepository& repository,
                                                std::optional<domain::PetStatus> status,
                                                std::int64_t limit);

class PetRepositoryContract : public testing::TestWithParam<AdapterUnderTest> {
 protected:
  void SetUp() override { harness_ = GetParam().make(); }

  [[nodiscard]] ports::PetRepository& repository() { return harness_->repository(); }
  [[nodiscard]] RepositoryHarness& harness() { return *harness_; }

  // create: creates `pet` in the repository under test. An error throws, which fails the case
  // with the error's message.
  domain::Pet create(domain::NewPet pet) {
    return create_pet(repository(), std::move(pet)).value();
  }

 private:
  std::unique_ptr<RepositoryHarness> harness_;
};

}  // namespace petstore::tests

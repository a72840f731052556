#pragma once
// The PetRepository contract suite: one set of cases that every storage adapter must pass.
// An adapter's test file instantiates it with a factory for a fresh, empty repository:
//
//   INSTANTIATE_TEST_SUITE_P(Memory, PetRepositoryContract,
//                            testing::Values(AdapterUnderTest{"memory", make_memory_harness}),
//                            adapter_name);

#include <functional>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "ports/pet_repository.hpp"

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

// For gtest's test names: "PetRepositoryContract/Memory.CreateAssignsIds/memory".
inline std::string adapter_name(const testing::TestParamInfo<AdapterUnderTest>& info) {
  return info.param.name;
}

class PetRepositoryContract : public testing::TestWithParam<AdapterUnderTest> {
 protected:
  void SetUp() override { harness_ = GetParam().make(); }

  [[nodiscard]] ports::PetRepository& repository() { return harness_->repository(); }
  [[nodiscard]] RepositoryHarness& harness() { return *harness_; }

 private:
  std::unique_ptr<RepositoryHarness> harness_;
};

}  // namespace petstore::tests

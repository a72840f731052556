#pragma once
// The PetArchive contract suite: one set of cases that every backend offering the data tools must
// pass. An adapter's test file instantiates it with a factory for a fresh, empty store:
//
//   INSTANTIATE_TEST_SUITE_P(Lmdb, PetArchiveContract,
//                            testing::Values(ArchiveUnderTest{"lmdb", make_lmdb_harness}),
//                            archive_name);
//
// The cases use only the two ports and the harness, never an adapter's own API.

#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "ports/pet_archive.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::tests {

// ArchiveHarness: one store under test, seen as the data tools see it (the archive) and as a
// service does (the repository). A backend that cannot have both open in one process (LMDB)
// closes the one not asked for, so a case never keeps a reference across a call of the other.
class ArchiveHarness {
 public:
  ArchiveHarness() = default;
  ArchiveHarness(const ArchiveHarness&) = delete;
  ArchiveHarness& operator=(const ArchiveHarness&) = delete;
  virtual ~ArchiveHarness() = default;

  [[nodiscard]] virtual ports::PetArchive& archive() = 0;
  [[nodiscard]] virtual ports::PetRepository& repository() = 0;
};

struct ArchiveUnderTest {
  std::string name;
  std::function<std::unique_ptr<ArchiveHarness>()> make;
};

inline std::ostream& operator<<(std::ostream& os, const ArchiveUnderTest& adapter) {
  return os << adapter.name;
}

inline std::string archive_name(const testing::TestParamInfo<ArchiveUnderTest>& info) {
  return info.param.name;
}

class PetArchiveContract : public testing::TestWithParam<ArchiveUnderTest> {
 protected:
  void SetUp() override { harness_ = GetParam().make(); }

  [[nodiscard]] ports::PetArchive& archive() { return harness_->archive(); }
  [[nodiscard]] ports::PetRepository& repository() { return harness_->repository(); }

 private:
  std::unique_ptr<ArchiveHarness> harness_;
};

}  // namespace petstore::tests

#pragma once
// collect_complete_read: every pet that `read` hands its sink, in order, for an archive's read_all
// and for the export use case over one alike; the read must succeed, be complete, and count
// exactly the pets it handed over.

#include <vector>

#include <gtest/gtest.h>

#include "domain/pet.hpp"

namespace petstore::tests {

template <class Read>
[[nodiscard]] std::vector<domain::Pet> collect_complete_read(const Read& read) {
  std::vector<domain::Pet> pets;
  const auto report = read([&](const domain::Pet& pet) {
    pets.push_back(pet);
    return true;
  });
  EXPECT_TRUE(report) << (report ? "" : report.error().message);
  if (report) {
    EXPECT_TRUE(report->complete);
    EXPECT_EQ(report->pets, pets.size());
  }
  return pets;
}

}  // namespace petstore::tests

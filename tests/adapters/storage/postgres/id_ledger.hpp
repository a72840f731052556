#pragma once
// IdLedger: what contract section 8 promises about ids when the server that showed them is lost,
// checked on what the test saw. Creates record their acknowledged pets; a cursor walker (pages
// after the last id it saw, as a client's walk does) records every id it was shown and how far it
// walked. problems() then compares them with the catalogue as it ends:
//   - lost: an acknowledged pet is missing, or stored under another id;
//   - reused: an id the walker was shown now names another pet;
//   - skipped: a pet stored at or below the walker's position that the walker never saw.
// Names are unique per create, so a name identifies one create. Thread-safe.

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "domain/pet.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::tests {

class IdLedger {
 public:
  // acknowledged: the pet a create's success answered with.
  void acknowledged(const domain::Pet& pet);
  // walk: one page after the walker's position, through `pets`; the pets it was shown, none when
  // the page failed.
  std::vector<domain::Pet> walk(const ports::PetRepository& pets);
  // walk_until: walks until it is shown a pet whose name starts with `prefix`, or `patience` ends.
  [[nodiscard]] bool walk_until(const ports::PetRepository& pets, const std::string& prefix,
                                std::chrono::milliseconds patience);

  // seen_unacknowledged: the ids the walker was shown whose create was not acknowledged (yet).
  [[nodiscard]] std::vector<std::int64_t> seen_unacknowledged() const;
  // shown_then_lost: how many pets the walker was shown that `catalogue` lacks (by name): pets
  // never acknowledged that a crash or failover took.
  [[nodiscard]] std::size_t shown_then_lost(const std::vector<domain::Pet>& catalogue) const;
  // problems: each broken promise in one line, given the whole catalogue as it ends.
  [[nodiscard]] std::vector<std::string> problems(const std::vector<domain::Pet>& catalogue) const;
  [[nodiscard]] std::size_t acknowledged_count() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::int64_t> acknowledged_;  // name -> id
  std::map<std::int64_t, std::string> seen_;          // id -> name, as the walker was shown
  std::int64_t position_ = 0;                         // the walker's after=
};

}  // namespace petstore::tests

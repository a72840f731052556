#include "id_ledger.hpp"

#include <algorithm>
#include <set>
#include <thread>

#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

namespace petstore::tests {

void IdLedger::acknowledged(const domain::Pet& pet) {
  const std::lock_guard lock(mutex_);
  acknowledged_[pet.name.value()] = pet.id.value;
}

std::vector<domain::Pet> IdLedger::walk(const ports::PetRepository& pets) {
  std::int64_t after = 0;
  {
    const std::lock_guard lock(mutex_);
    after = position_;
  }
  ports::PetQuery query{std::nullopt, std::nullopt, page_size(100)};
  if (after > 0) {
    query.after = domain::PetId{after};
  }
  auto page = list_now(pets, query);
  if (!page) {
    return {};
  }
  const std::lock_guard lock(mutex_);
  for (const auto& pet : page->pets) {
    seen_[pet.id.value] = pet.name.value();
    position_ = std::max(position_, pet.id.value);
  }
  return std::move(page->pets);
}

bool IdLedger::walk_until(const ports::PetRepository& pets, const std::string& prefix,
                          std::chrono::milliseconds patience) {
  const auto until = std::chrono::steady_clock::now() + patience;
  while (std::chrono::steady_clock::now() < until) {
    for (const auto& pet : walk(pets)) {
      if (pet.name.value().starts_with(prefix)) {
        return true;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

std::vector<std::int64_t> IdLedger::seen_unacknowledged() const {
  const std::lock_guard lock(mutex_);
  std::vector<std::int64_t> ids;
  for (const auto& [id, name] : seen_) {
    if (!acknowledged_.contains(name)) {
      ids.push_back(id);
    }
  }
  return ids;
}

std::size_t IdLedger::shown_then_lost(const std::vector<domain::Pet>& catalogue) const {
  std::set<std::string> stored;
  for (const auto& pet : catalogue) {
    stored.insert(pet.name.value());
  }
  const std::lock_guard lock(mutex_);
  return static_cast<std::size_t>(std::count_if(seen_.begin(), seen_.end(), [&](const auto& entry) {
    return !stored.contains(entry.second);
  }));
}

std::vector<std::string> IdLedger::problems(const std::vector<domain::Pet>& catalogue) const {
  const std::lock_guard lock(mutex_);
  std::map<std::string, std::int64_t> by_name;
  std::map<std::int64_t, std::string> by_id;
  for (const auto& pet : catalogue) {
    by_name[pet.name.value()] = pet.id.value;
    by_id[pet.id.value] = pet.name.value();
  }
  std::vector<std::string> found;
  for (const auto& [name, id] : acknowledged_) {
    const auto stored = by_name.find(name);
    if (stored == by_name.end() || stored->second != id) {
      found.push_back("lost: acknowledged " + name + " (id " + std::to_string(id) + ")" +
                      (stored == by_name.end()
                           ? " is missing"
                           : " is stored as " + std::to_string(stored->second)));
    }
  }
  for (const auto& [id, name] : seen_) {
    const auto stored = by_id.find(id);
    if (stored != by_id.end() && stored->second != name) {
      found.push_back("reused: id " + std::to_string(id) + " was shown as " + name +
                      " and now names " + stored->second);
    }
  }
  for (const auto& [id, name] : by_id) {
    if (id <= position_ && (!seen_.contains(id) || seen_.at(id) != name)) {
      found.push_back("skipped: " + name + " (id " + std::to_string(id) +
                      ") lies behind the walker's after=" + std::to_string(position_));
    }
  }
  return found;
}

std::size_t IdLedger::acknowledged_count() const {
  const std::lock_guard lock(mutex_);
  return acknowledged_.size();
}

}  // namespace petstore::tests

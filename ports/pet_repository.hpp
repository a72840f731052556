#pragma once
// PetRepository: the port through which the core stores and reads pets.
//
// Thread-safety: every member may be called concurrently from any thread.
// Errors every member may return: unavailable (storage cannot serve now: disk full, I/O error,
// closed) and internal (a stored record fails re-validation). Each member lists the others.
// An adapter is chosen at start-up (memory or LMDB); one contract suite in tests/ports holds
// every adapter to this text.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "domain/error.hpp"
#include "domain/page_size.hpp"
#include "domain/pet.hpp"

namespace petstore::ports {

// IdempotencyKey: a client-chosen key that makes a create safe to retry. Keys are scoped: the
// same `key` under two scopes (two API keys) names two different creates.
struct IdempotencyKey {
  std::string scope;
  std::string key;
};

// CreatePetCommand: what a create needs. `received_at` stamps the idempotency record, which is
// kept for at least `idempotency_retention` after it.
struct CreatePetCommand {
  domain::NewPet pet;
  std::optional<IdempotencyKey> idempotency;
  std::chrono::system_clock::time_point received_at;
};

inline constexpr std::chrono::hours idempotency_retention{24};

// PetQuery: one page of pets in ascending id, with `id > after` when given, of `status` when
// given, at most `limit` of them.
struct PetQuery {
  std::optional<domain::PetStatus> status;
  std::optional<domain::PetId> after;
  domain::PageSize limit;
};

// PetPage: the pets of one page; `has_more` is true exactly when a later page has a match.
struct PetPage {
  std::vector<domain::Pet> pets;
  bool has_more = false;
};

class PetRepository {
 public:
  using CreateDone = std::function<void(domain::Result<domain::Pet>)>;

  PetRepository() = default;
  PetRepository(const PetRepository&) = delete;
  PetRepository& operator=(const PetRepository&) = delete;
  virtual ~PetRepository() = default;

  // create: assigns the next id and stores the pet in one atomic step, then calls `done` exactly
  // once, on any thread, possibly before create returns. Ids start at 1, strictly increase and
  // are never reused (durable adapters: also across restarts). Success means the pet is as
  // durable as the adapter promises (LMDB: synced to disk). With an idempotency key seen before
  // in the same scope within the retention, nothing is created: `done` gets the pet created then
  // when `command.pet` equals the pet sent then, else conflict.
  virtual void create(CreatePetCommand command, CreateDone done) = 0;

  // get: the pet with `id`, or not_found.
  [[nodiscard]] virtual domain::Result<domain::Pet> get(domain::PetId id) const = 0;

  // list: the page `query` describes. Costs O(limit + log n), whatever the filter.
  [[nodiscard]] virtual domain::Result<PetPage> list(const PetQuery& query) const = 0;

  // count: how many pets are stored now (for metrics). Cheap: O(1) or O(log n), never a scan.
  [[nodiscard]] virtual domain::Result<std::int64_t> count() const = 0;
};

}  // namespace petstore::ports

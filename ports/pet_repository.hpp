#pragma once
// PetRepository: the port through which the core stores and reads pets.
//
// Thread-safety: every member may be called concurrently from any thread. Every call completes
// through a completion (below), so that an adapter on a network never holds up its caller.
// Errors every member may return: unavailable (storage cannot serve now: disk full, I/O error,
// closed, unreachable) and internal (a stored record fails re-validation). Each member lists
// the others.
// An adapter is chosen at start-up (memory, LMDB or PostgreSQL); one contract suite in
// tests/ports holds every adapter to this text.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "domain/error.hpp"
#include "domain/page_size.hpp"
#include "domain/pet.hpp"
#include "ports/completion.hpp"

namespace petstore::ports {

// IdempotencyKey: a client-chosen key that makes a create safe to retry. Keys are scoped: the
// same `key` under two scopes (two API keys) names two different creates.
struct IdempotencyKey {
  std::string scope;
  std::string key;
};

// CreatePetCommand: what a create needs. With `idempotency`, the adapter keeps a record of the
// key, stamped `received_at`, for at least `retention`; a record stamped more than `retention`
// before a later command's `received_at` counts as absent. (How long is the core's policy.)
struct CreatePetCommand {
  domain::NewPet pet;
  std::optional<IdempotencyKey> idempotency;
  std::chrono::system_clock::time_point received_at;
  std::chrono::system_clock::duration retention{};
};

// CreateOutcome: the pet a create stored, or (created false) the pet that an earlier create with
// the same idempotency key stored, as it was stored. Deciding what a repeat means is the core's.
struct CreateOutcome {
  domain::Pet pet;
  bool created = true;
};

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

// Completions (completion.hpp). Each call's completion runs exactly once, on any thread: the
// caller's (possibly before the call returns: memory and LMDB answer reads at once) or one of the
// adapter's own. A completion must not throw and should be quick: it may run on a thread other
// callers wait for. Its deadline bounds the call: past it the adapter answers unavailable and
// sends nothing more for it (a create already given up on is never stored later, except one
// whose commit was under way). Destroying the repository completes every pending call first
// (with its result, or unavailable) and only then returns; no call is made after that.
class PetRepository {
 public:
  using CreateDone = Completion<CreateOutcome>;
  using GetDone = Completion<domain::Pet>;
  using ListDone = Completion<PetPage>;
  using CountDone = Completion<std::int64_t>;

  PetRepository() = default;
  PetRepository(const PetRepository&) = delete;
  PetRepository& operator=(const PetRepository&) = delete;
  virtual ~PetRepository() = default;

  // create: in one atomic step, unless an unexpired record of `command.idempotency` exists (then
  // it completes with that record's pet and created false, storing nothing), assigns the next id,
  // stores the pet and the record. Ids start at 1 and strictly increase in commit order, never
  // reused (durable adapters: also across restarts); they are not promised to be gap-free.
  // Success means the pet is as durable as the adapter promises (LMDB: synced to disk), and
  // from then on `get` and `list` see it.
  virtual void create(CreatePetCommand command, CreateDone done) = 0;

  // get: the pet with `id`, or not_found (with no field or message: the core's words are the
  // driving adapter's to choose).
  virtual void get(domain::PetId id, GetDone done) const = 0;

  // list: the page `query` describes. Costs O(limit + log n), whatever the filter.
  virtual void list(PetQuery query, ListDone done) const = 0;

  // count: how many pets are stored now. O(1) or O(log n), never a scan; not for every request.
  virtual void count(CountDone done) const = 0;
};

}  // namespace petstore::ports

#include "faults/faulty_pet_repository.hpp"

#include <utility>

namespace petstore::tests {

domain::Error storage_error(StorageFault fault) {
  using domain::ErrorCode;
  // As the LMDB adapter reports them (adapters/storage/lmdb/lmdb_store.cpp): words for the client
  // in the message, LMDB's own in the detail, for the log.
  domain::Error error;
  switch (fault) {
    case StorageFault::disk_full:
      error = domain::make_error(ErrorCode::unavailable, "", "storage is full");
      error.detail = "mdb_txn_commit: /srv/petstore/data.mdb: No space left on device";
      return error;
    case StorageFault::map_full:
      error = domain::make_error(ErrorCode::unavailable, "", "storage is full");
      error.detail = "mdb_put: /srv/petstore/data.mdb: MDB_MAP_FULL: Environment mapsize limit";
      return error;
    case StorageFault::io_error:
      error = domain::make_error(ErrorCode::unavailable, "", "storage is unavailable");
      error.detail = "mdb_txn_commit: /srv/petstore/data.mdb: Input/output error";
      return error;
    case StorageFault::internal:
      break;
  }
  error = domain::make_error(ErrorCode::internal, "", "stored data is damaged");
  error.detail = "mdb_get: /srv/petstore/data.mdb: MDB_CORRUPTED: Located page was wrong type";
  return error;
}

FaultyPetRepository::FaultyPetRepository(std::unique_ptr<ports::PetRepository> inner)
    : inner_(std::move(inner)) {}

void FaultyPetRepository::fail_next(RepositoryCall call, StorageFault fault, int times) {
  const std::lock_guard lock(mutex_);
  plans_.at(static_cast<std::size_t>(call)) = Plan{fault, times};
}

void FaultyPetRepository::fail_until_cleared(RepositoryCall call, StorageFault fault) {
  const std::lock_guard lock(mutex_);
  plans_.at(static_cast<std::size_t>(call)) = Plan{fault, -1};
}

void FaultyPetRepository::clear() {
  const std::lock_guard lock(mutex_);
  plans_.fill(Plan{});
}

std::size_t FaultyPetRepository::failed_calls() const {
  const std::lock_guard lock(mutex_);
  return failed_calls_;
}

std::optional<domain::Error> FaultyPetRepository::take_fault(RepositoryCall call) const {
  const std::lock_guard lock(mutex_);
  Plan& plan = plans_.at(static_cast<std::size_t>(call));
  if (!plan.fault || plan.remaining == 0) {
    return std::nullopt;
  }
  if (plan.remaining > 0) {
    --plan.remaining;
  }
  ++failed_calls_;
  return storage_error(*plan.fault);
}

void FaultyPetRepository::create(ports::CreatePetCommand command, CreateDone done) {
  if (auto error = take_fault(RepositoryCall::create)) {
    done(std::move(*error));
    return;
  }
  inner_->create(std::move(command), std::move(done));
}

void FaultyPetRepository::get(domain::PetId id, GetDone done) const {
  if (auto error = take_fault(RepositoryCall::get)) {
    done(std::move(*error));
    return;
  }
  inner_->get(id, std::move(done));
}

void FaultyPetRepository::list(ports::PetQuery query, ListDone done) const {
  if (auto error = take_fault(RepositoryCall::list)) {
    done(std::move(*error));
    return;
  }
  inner_->list(query, std::move(done));
}

void FaultyPetRepository::count(CountDone done) const { inner_->count(std::move(done)); }

}  // namespace petstore::tests

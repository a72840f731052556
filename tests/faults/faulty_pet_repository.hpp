#pragma once
// FaultyPetRepository: a PetRepository decorator that injects storage faults through the port.
// Told to, it fails the next create, get or list (or every one until cleared) with the error a
// real adapter reports for a full disk, an I/O error, a map full beyond growth, or an internal
// failure; a failed call never reaches the wrapped repository, as a failed transaction leaves
// nothing behind. Otherwise it forwards. Thread-safe, like the port.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

#include "ports/pet_repository.hpp"

namespace petstore::tests {

enum class StorageFault {
  disk_full,  // ENOSPC: unavailable
  io_error,   // EIO: unavailable
  map_full,   // the LMDB map cannot grow past its largest size: unavailable
  internal,   // a damaged record: internal, with a message meant for logs only
};

enum class RepositoryCall : std::size_t { create = 0, get = 1, list = 2 };

// storage_error: the error a storage adapter returns for `fault`. Each one's detail names a path
// and a library error, which must never reach a client.
[[nodiscard]] domain::Error storage_error(StorageFault fault);

// Words of every storage_error(...)'s detail that a client must never see.
inline constexpr std::array<const char*, 2> internal_details{"/srv/petstore", "mdb_"};

class FaultyPetRepository final : public ports::PetRepository {
 public:
  explicit FaultyPetRepository(std::unique_ptr<ports::PetRepository> inner);

  // fail_next: the next `times` calls of `call` fail with storage_error(fault).
  void fail_next(RepositoryCall call, StorageFault fault, int times = 1);
  // fail_until_cleared: every call of `call` fails with storage_error(fault) until clear().
  void fail_until_cleared(RepositoryCall call, StorageFault fault);
  // clear: the fault is over; every call is forwarded again.
  void clear();
  // failed_calls: how many calls have failed by injection so far.
  [[nodiscard]] std::size_t failed_calls() const;

  // PetRepository
  void create(ports::CreatePetCommand command, CreateDone done) override;
  // PetRepository
  void get(domain::PetId id, GetDone done) const override;
  // PetRepository
  void list(ports::PetQuery query, ListDone done) const override;
  // PetRepository: forwarded, never failed (only metrics read it).
  void count(CountDone done) const override;

 private:
  struct Plan {
    std::optional<StorageFault> fault;
    int remaining = 0;  // calls left to fail; negative: until cleared
  };

  // take_fault: the error the next call of `call` fails with, if it is to fail.
  [[nodiscard]] std::optional<domain::Error> take_fault(RepositoryCall call) const;

  std::unique_ptr<ports::PetRepository> inner_;
  mutable std::mutex mutex_;
  mutable std::array<Plan, 3> plans_;
  mutable std::size_t failed_calls_ = 0;
};

}  // namespace petstore::tests

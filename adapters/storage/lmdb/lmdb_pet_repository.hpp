#pragma once
// The LMDB adapter behind the PetRepository port: pets on disk in one LMDB environment, each
// acknowledged create committed and synced before its `done` runs. Creates are group-committed
// by one writer thread; reads run on the caller's thread. Several processes may open one data
// dir at once (ids stay unique), so the data tools can work on a live store.

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>

#include "domain/error.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::lmdb {

inline constexpr std::size_t mebibyte = std::size_t{1} << 20U;

struct LmdbOptions {
  // Created with mode 0700 (missing parents too) when absent.
  std::filesystem::path data_dir;
  // Map size at open. Small, because the map only reserves address space and the file grows by
  // itself; a store that is already larger opens at its own size.
  std::size_t initial_map_size = 64 * mebibyte;
  // How much the map grows each time a write finds it full. Large enough that a growing store
  // resizes rarely (a resize briefly blocks every read of this process).
  std::size_t map_growth_step = 256 * mebibyte;
  // The map never grows past this; beyond it creates fail with unavailable.
  std::size_t max_map_size = std::size_t{1} << 40U;  // 1 TiB of address space
  // Most creates one write transaction (one sync) commits. Bounds the latency of a batch and
  // the size of a transaction; at low load a batch holds one create, and under load it waits at
  // most one commit's time for as many creates as the last batch held.
  std::size_t max_batch = 256;
  // Slots in the reader table (mdb_env_set_maxreaders), shared by every process on the data dir
  // and sized by the first to open it; LMDB's default. A read beyond them fails with unavailable.
  // Serving reads keep up to a quarter of them (at least one) reserved for reuse while idle
  // (lmdb_read_txn.hpp); the rest stay free for other processes (the data tools) and for bursts.
  unsigned int max_readers = 126;
  // Told after each write transaction of creates (committed and synced, or failed) how long it
  // took and how many creates it held; for metrics. Called on the writer thread; keep it quick.
  std::function<void(std::chrono::nanoseconds, std::size_t)> on_commit;
};

// make_lmdb_pet_repository: opens (creating when missing) the store in `options.data_dir`.
// Errors (each one line naming the data dir, for the operator): unavailable when the dir cannot
// be created, is not a directory, is not writable, or LMDB cannot open it; unavailable when it
// holds another schema version or not a Petstore store; internal when the store is damaged.
[[nodiscard]] domain::Result<std::unique_ptr<ports::PetRepository>> make_lmdb_pet_repository(
    const LmdbOptions& options);

}  // namespace petstore::adapters::storage::lmdb

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
  // Map sizes (docs/decisions/lmdb-map-size.md). The map is only address space; a larger store
  // opens at its own size. A resize briefly blocks this process's reads, so growth steps are large;
  // past max_map_size creates fail with unavailable.
  std::size_t initial_map_size = 64 * mebibyte;
  std::size_t map_growth_step = 256 * mebibyte;
  std::size_t max_map_size = std::size_t{1} << 40U;  // 1 TiB of address space
  // Most creates one write transaction (one sync) commits.
  std::size_t max_batch = 256;
  // Reader table slots, shared by every process on the data dir and sized by the first to open it
  // (LMDB's default); a read beyond them fails with unavailable. Idle serving reads keep up to a
  // quarter of them (Store::max_idle_reads); the rest stay free for other processes.
  unsigned int max_readers = 126;
  // Told after each write transaction of creates (committed and synced, or failed) how long it
  // took and how many creates it held; for metrics. Called on the writer thread; keep it quick.
  std::function<void(std::chrono::nanoseconds, std::size_t)> on_commit{};
};

// make_lmdb_pet_repository: opens (creating when missing) the store in `options.data_dir`. Errors
// are one line naming the data dir: internal when the store is damaged, else unavailable (the dir
// unusable, a newer schema version, not a Petstore store).
[[nodiscard]] domain::Result<std::unique_ptr<ports::PetRepository>> make_lmdb_pet_repository(
    const LmdbOptions& options);

}  // namespace petstore::adapters::storage::lmdb

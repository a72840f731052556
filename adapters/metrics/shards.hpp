#pragma once
// Per-thread slots for counters every serving thread updates on every request: one shared atomic
// would move its cache line between cores at each update (docs/dependencies.md). A scrape sums the
// slots. Threads are dealt slots in turn, once each.

#include <array>
#include <atomic>
#include <cstddef>

namespace petstore::adapters::metrics {

inline constexpr std::size_t shard_count = 16;

// this_threads_shard: the calling thread's slot, from 0 to shard_count - 1.
[[nodiscard]] inline std::size_t this_threads_shard() noexcept {
  static std::atomic<std::size_t> next{0};
  thread_local const std::size_t shard = next.fetch_add(1, std::memory_order_relaxed) % shard_count;
  return shard;
}

// Sharded: `T` a thread (its cache line alone), shard_count of them; `T` holds atomics.
template <class T>
class Sharded {
 public:
  [[nodiscard]] T& mine() noexcept { return shards_[this_threads_shard()].value; }
  // sum: `read` of every shard, added up (a scrape).
  template <class Read>
  [[nodiscard]] auto sum(Read read) const {
    decltype(read(shards_[0].value)) total{};
    for (const auto& shard : shards_) {
      total += read(shard.value);
    }
    return total;
  }

 private:
  struct alignas(64) Padded {
    T value{};
  };
  std::array<Padded, shard_count> shards_{};
};

}  // namespace petstore::adapters::metrics

#pragma once
// PublishedSequence: an append-only sequence that any thread reads without a lock while one
// writer at a time (the caller serializes writers) appends. An element is built in place, never
// moves and never changes, and becomes visible when the size that covers it is published (a
// release store; readers load it with acquire). Elements live in chunks that double in size, so a
// fixed table of chunk pointers serves any size and nothing is ever copied or reallocated.
// docs/decisions/memory-store-layout.md says why it is not TBB's concurrent_vector.

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <limits>
#include <memory>
#include <span>
#include <utility>

namespace petstore::adapters::storage::memory {

template <class T>
class PublishedSequence {
 public:
  PublishedSequence() = default;
  PublishedSequence(const PublishedSequence&) = delete;
  PublishedSequence& operator=(const PublishedSequence&) = delete;
  PublishedSequence(PublishedSequence&&) = delete;
  PublishedSequence& operator=(PublishedSequence&&) = delete;

  ~PublishedSequence() {
    const std::size_t size = published_.load(std::memory_order_relaxed);
    for (std::size_t i = 0; i < size; ++i) {
      std::destroy_at(&at(i));
    }
    for (std::size_t chunk = 0; chunk < chunks_.size(); ++chunk) {
      if (T* first = chunks_[chunk].load(std::memory_order_relaxed); first != nullptr) {
        std::allocator<T>().deallocate(first, capacity_of(chunk));
      }
    }
  }

  // size: how many elements are published; every one below it may be read at once.
  [[nodiscard]] std::size_t size() const { return published_.load(std::memory_order_acquire); }

  // operator[]: element `i`, for an `i` below a size this thread has loaded.
  [[nodiscard]] const T& operator[](std::size_t i) const { return at(i); }

  // run_from: the elements from `index` on, up to the end of its chunk or to `end` (a size this
  // thread has loaded), whichever comes first: a run read in place without locating each.
  [[nodiscard]] std::span<const T> run_from(std::size_t index, std::size_t end) const {
    const auto [chunk, offset] = locate(index);
    const std::size_t count = std::min(capacity_of(chunk) - offset, end - index);
    return {chunks_[chunk].load(std::memory_order_relaxed) + offset, count};
  }

  // back: the last element. Writers only: it reads the size without acquire.
  [[nodiscard]] const T& back() const { return at(published_.load(std::memory_order_relaxed) - 1); }

  // reserve_next: allocates the chunk the next push_back builds in, when it is missing, so that
  // the push_back allocates nothing: a writer that must append to two sequences or neither
  // reserves both first. Writers only; a chunk is allocated when the last one is full (log2
  // times in all).
  void reserve_next() {
    const std::size_t chunk = locate(published_.load(std::memory_order_relaxed)).chunk;
    if (chunks_[chunk].load(std::memory_order_relaxed) == nullptr) {
      // Relaxed: readers reach this pointer only through a size published later.
      chunks_[chunk].store(std::allocator<T>().allocate(capacity_of(chunk)),
                           std::memory_order_relaxed);
    }
  }

  // push_back: builds `value` after the last element and publishes it. Writers only, one at a
  // time; it allocates only what reserve_next did not.
  void push_back(T value) {
    reserve_next();
    const std::size_t index = published_.load(std::memory_order_relaxed);
    const auto [chunk, offset] = locate(index);
    std::construct_at(chunks_[chunk].load(std::memory_order_relaxed) + offset, std::move(value));
    published_.store(index + 1, std::memory_order_release);
  }

 private:
  // The first chunk holds first_capacity elements, each later one twice the one before.
  static constexpr std::size_t first_capacity = 64;

  struct Place {
    std::size_t chunk;
    std::size_t offset;
  };

  // locate: chunk k starts at first_capacity * (2^k - 1).
  static Place locate(std::size_t index) {
    const std::size_t power = std::bit_floor((index / first_capacity) + 1);  // 2^k
    return {static_cast<std::size_t>(std::countr_zero(power)),
            index - (first_capacity * (power - 1))};
  }

  // The last chunk's capacity wraps to 0, but it is never allocated: memory runs out first.
  static std::size_t capacity_of(std::size_t chunk) { return first_capacity << chunk; }

  [[nodiscard]] T& at(std::size_t index) const {
    const auto [chunk, offset] = locate(index);
    return chunks_[chunk].load(std::memory_order_relaxed)[offset];
  }

  std::atomic<std::size_t> published_{0};
  // Enough chunks for any size_t index: the last starts at first_capacity * (2^k - 1).
  static constexpr std::size_t chunk_count =
      std::numeric_limits<std::size_t>::digits - std::countr_zero(first_capacity) + 1;
  std::array<std::atomic<T*>, chunk_count> chunks_{};
};

}  // namespace petstore::adapters::storage::memory

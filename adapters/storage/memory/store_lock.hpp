#pragma once
// StoreLock: a shared mutex that spins on try_lock a little before it sleeps. The memory store's
// sections last a few hundred nanoseconds, and a sleeping waiter wakes microseconds later
// (docs/benchmarks.md, "Sixteen cores (issue 37)").

#include <shared_mutex>

namespace petstore::adapters::storage::memory {

class StoreLock {
 public:
  void lock() {
    spin_then([this] { return mutex_.try_lock(); }, [this] { mutex_.lock(); });
  }
  void unlock() { mutex_.unlock(); }
  void lock_shared() {
    spin_then([this] { return mutex_.try_lock_shared(); }, [this] { mutex_.lock_shared(); });
  }
  void unlock_shared() { mutex_.unlock_shared(); }

 private:
  // Tries this many times, a pause apart (a few microseconds in all), before it blocks.
  static constexpr int spins = 64;

  template <class Try, class Block>
  static void spin_then(Try attempt, Block block) {
    for (int i = 0; i < spins; ++i) {
      if (attempt()) {
        return;
      }
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    block();
  }

  std::shared_mutex mutex_;
};

}  // namespace petstore::adapters::storage::memory

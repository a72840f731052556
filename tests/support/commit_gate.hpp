#pragma once
// CommitGate and busy_batch: for the group commit of the storage adapters that batch creates
// (LMDB, PostgreSQL), whose commit hook has one shape: how long a batch took and how many
// creates it held. The gate lets a test decide what queues up while the writer is held.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "ports/pet_repository.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

namespace petstore::tests {

// CommitGate: a commit hook that records each batch's size and holds the writer in it, after the
// commit and before the writer takes its next batch, until `open`.
class CommitGate {
 public:
  using Hook = std::function<void(std::chrono::nanoseconds, std::size_t)>;

  Hook hook() {
    return [this](std::chrono::nanoseconds /*took*/, std::size_t batch) {
      std::unique_lock lock(mutex_);
      batches_.push_back(batch);
      changed_.notify_all();
      changed_.wait(lock, [this] { return open_; });
    };
  }
  void wait_for_commits(std::size_t count) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return batches_.size() >= count; });
  }
  // wait_for_creates: until the recorded batches hold `total` creates in all (a batch is
  // recorded after its creates have called back).
  void wait_for_creates(std::size_t total) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return std::reduce(batches_.begin(), batches_.end()) >= total; });
  }
  void open() {
    const std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  std::vector<std::size_t> batches() {
    const std::lock_guard lock(mutex_);
    return batches_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::size_t> batches_;
  bool open_ = false;
};

// create_at_once: issues `count` creates without waiting between them, returning once each has
// called back (each must succeed).
inline void create_at_once(ports::PetRepository& repository, int count) {
  std::atomic<int> calls{0};
  for (int i = 0; i < count; ++i) {
    repository.create({new_pet("Burst"), std::nullopt, test_now},
                      pet_done([&calls](const domain::Result<domain::Pet>& result) {
                        EXPECT_TRUE(result.has_value());
                        ++calls;
                      }));
  }
  while (calls.load() < count) {
    std::this_thread::yield();
  }
}

// busy_batch: a batch of 8, queued while the writer is held after a batch of 1: what follows it
// under load. Returns once those 9 creates have called back, with the gate open. The last
// create's callback takes `slow_answer` (an adapter that times a batch up to its last answer,
// as the PostgreSQL pool does, then waits longer for company after it).
inline void busy_batch(ports::PetRepository& repository, CommitGate& gate,
                       std::chrono::milliseconds slow_answer = {}) {
  std::atomic<int> calls{0};
  const auto count = [&calls](const domain::Result<domain::Pet>& result) {
    EXPECT_TRUE(result.has_value());
    ++calls;
  };
  repository.create({new_pet("First"), std::nullopt, test_now}, pet_done(count));
  gate.wait_for_commits(1);
  for (int i = 0; i < 7; ++i) {
    repository.create({new_pet("Busy"), std::nullopt, test_now}, pet_done(count));
  }
  repository.create({new_pet("Busy"), std::nullopt, test_now},
                    pet_done([&count, slow_answer](const domain::Result<domain::Pet>& result) {
                      std::this_thread::sleep_for(slow_answer);
                      count(result);
                    }));
  gate.open();
  while (calls.load() < 9) {
    std::this_thread::yield();
  }
}

}  // namespace petstore::tests

// Serving reads reuse kept read transactions (ReadTxn, lmdb_store.hpp): a reused one must read the
// newest commit, never an older snapshot it last read, and a commit must not be held back by a
// snapshot kept live; each holds a reader slot while idle, so only a bounded number are kept, and
// reads past the reader table fail as unavailable without leaking.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/storage/lmdb/lmdb_store.hpp"
#include "adapters/storage/lmdb/lmdb_txn.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

#include "lmdb_test_support.hpp"

namespace petstore::tests {
namespace {

using adapters::storage::lmdb::ReadTxn;
using adapters::storage::lmdb::Store;
using domain::ErrorCode;
using domain::PetStatus;

// Section 8 of the contract: a pet acknowledged before a read starts is in its answer. Every read
// path runs between the creates, so each create lands after a serving transaction was reset.
TEST(LmdbServingReads, EveryPetCreatedAfterAReadIsInTheNextRead) {
  const TempDir temp;
  const auto repository = open_repository(options_for(temp.path()));
  for (int i = 1; i <= 30; ++i) {
    const auto status = i % 2 == 0 ? PetStatus::sold : PetStatus::available;
    const auto pet = create_pet(*repository, new_pet("pet " + std::to_string(i), i, status));
    ASSERT_TRUE(pet.has_value());
    EXPECT_EQ(get_now(*repository, pet->id).value(), *pet);
    EXPECT_EQ(count_now(*repository).value(), i);
    const auto page = list_now(*repository, {std::nullopt, std::nullopt, page_size(100)}).value();
    ASSERT_EQ(page.pets.size(), static_cast<std::size_t>(i));
    EXPECT_EQ(page.pets.back(), *pet);
    const auto by_status = list_now(*repository, {status, std::nullopt, page_size(100)}).value();
    ASSERT_FALSE(by_status.pets.empty());
    EXPECT_EQ(by_status.pets.back(), *pet);
    const auto after = list_now(*repository, {std::nullopt, domain::PetId{i - 1}, page_size(1)});
    ASSERT_EQ(after.value().pets.size(), 1U);
    EXPECT_EQ(after.value().pets.front(), *pet);
    EXPECT_FALSE(after.value().has_more);
  }
}

// A kept transaction stays live between reads, so that one with nothing committed since reads its
// snapshot as it is; a commit of this process resets it. Were it still live, no page freed by a
// later commit could be reused, and a store written to without reads would grow at every commit.
TEST(LmdbServingReads, AKeptSnapshotHoldsBackNoPagesOnceThisProcessCommits) {
  const TempDir temp;
  auto store = Store::open(options_for(temp.path()));
  ASSERT_TRUE(store.has_value()) << store.error().message;
  ASSERT_TRUE((*store)->serve([](ReadTxn&) {}).has_value());  // kept, live
  const MDB_dbi meta = (*store)->databases().meta;
  // rewrite: one value of 4 pages, its old pages freed by each commit.
  const auto rewrite = [&](int round) {
    return (*store)->write([&](MDB_txn* txn) {
      std::string bytes(std::size_t{4} * 4096, static_cast<char>('a' + round % 26));
      MDB_val key{5, const_cast<char*>("churn")};
      MDB_val value{bytes.size(), bytes.data()};
      adapters::storage::lmdb::check(::mdb_put(txn, meta, &key, &value, 0), "mdb_put");
    });
  };
  ASSERT_TRUE(rewrite(0).has_value());
  const auto data = temp.path() / "data.mdb";
  const auto before = std::filesystem::file_size(data);
  for (int round = 1; round <= 100; ++round) {
    ASSERT_TRUE(rewrite(round).has_value());
  }
  // Reused pages keep the file within a few commits' worth; held back, it would grow by 400.
  EXPECT_LT(std::filesystem::file_size(data) - before, std::uintmax_t{40} * 4096);
  ASSERT_TRUE((*store)->serve([](ReadTxn&) {}).has_value());
}

// Kept transactions pass between serving threads without a lock, while the writer's commits reset
// them: however they interleave, a read sees at least every commit acknowledged before it began
// (and ThreadSanitizer, running this, sees each hand-over ordered).
TEST(LmdbServingReads, ReadsOnManyThreadsBesideCommitsSeeEveryAcknowledgedCommit) {
  const TempDir temp;
  auto options = options_for(temp.path());
  options.max_readers = 8;  // 2 kept: fewer places than reading threads
  auto store = Store::open(options);
  ASSERT_TRUE(store.has_value()) << store.error().message;
  const MDB_dbi meta = (*store)->databases().meta;
  std::atomic<std::uint64_t> acknowledged{0};  // the id of the newest commit written
  std::atomic<bool> writing{true};
  std::atomic<int> stale{0};
  std::atomic<int> reads{0};
  constexpr int reading_threads = 3;
  std::vector<std::thread> readers;
  readers.reserve(reading_threads);
  for (int i = 0; i < reading_threads; ++i) {
    readers.emplace_back([&] {
      while (writing.load()) {
        const std::uint64_t before = acknowledged.load();
        const auto done = (*store)->serve([&](ReadTxn& read) {
          stale += read.snapshot() < before ? 1 : 0;
          ++reads;
        });
        EXPECT_TRUE(done.has_value());
      }
    });
  }
  for (int round = 0; round < 300; ++round) {
    std::uint64_t id = 0;
    const auto written = (*store)->write([&](MDB_txn* txn) {
      id = ::mdb_txn_id(txn);
      std::string bytes = std::to_string(round);
      MDB_val key{5, const_cast<char*>("round")};
      MDB_val value{bytes.size(), bytes.data()};
      adapters::storage::lmdb::check(::mdb_put(txn, meta, &key, &value, 0), "mdb_put");
    });
    EXPECT_TRUE(written.has_value());
    if (!written) {
      break;  // not ASSERT: the readers must still be stopped and joined below
    }
    acknowledged.store(id);
  }
  writing.store(false);
  for (auto& reader : readers) {
    reader.join();
  }
  EXPECT_EQ(stale.load(), 0);
  EXPECT_GT(reads.load(), 0);
}

// Holds: `count` serving reads (or, with fresh, reads of their own transaction), each parked
// inside its transaction until released; counts those that got in and those that failed.
class Holds {
 public:
  Holds(const Store& store, int count, bool fresh) {
    for (int i = 0; i < count; ++i) {
      threads_.emplace_back([this, &store, fresh] {
        const auto park = [this] {
          std::unique_lock lock(mutex_);
          ++inside_;
          changed_.notify_all();
          changed_.wait(lock, [this] { return released_; });
        };
        const auto done =
            fresh ? store.read([&](MDB_txn*) { park(); }) : store.serve([&](ReadTxn&) { park(); });
        const std::lock_guard lock(mutex_);
        if (done) {
          ++succeeded_;
        } else {
          ++failed_;
          unavailable_ += done.error().code == ErrorCode::unavailable ? 1 : 0;
        }
        changed_.notify_all();
      });
    }
  }
  Holds(const Holds&) = delete;
  Holds& operator=(const Holds&) = delete;
  ~Holds() { release(); }

  // settle: waits until every read is parked inside its transaction or has failed.
  void settle() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return inside_ + failed_ == threads_.size(); });
  }
  // release: lets every parked read finish, and waits for them.
  void release() {
    {
      const std::lock_guard lock(mutex_);
      released_ = true;
    }
    changed_.notify_all();
    for (auto& thread : threads_) {
      if (thread.joinable()) {
        thread.join();
      }
    }
  }
  [[nodiscard]] std::size_t inside() {
    const std::lock_guard lock(mutex_);
    return inside_;
  }
  [[nodiscard]] std::size_t failed() {
    const std::lock_guard lock(mutex_);
    return failed_;
  }
  [[nodiscard]] std::size_t unavailable() {
    const std::lock_guard lock(mutex_);
    return unavailable_;
  }
  [[nodiscard]] std::size_t succeeded() {
    const std::lock_guard lock(mutex_);
    return succeeded_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t inside_ = 0;
  std::size_t succeeded_ = 0;
  std::size_t failed_ = 0;
  std::size_t unavailable_ = 0;  // of the failed
  bool released_ = false;
  std::vector<std::thread> threads_;
};

TEST(LmdbServingReads, ReadsPastTheReaderTableFailAsUnavailableAndOnlyTheKeptOnesHoldSlots) {
  const TempDir temp;
  auto options = options_for(temp.path());
  options.max_readers = 8;  // a fresh data dir: this process sizes the reader table
  auto store = Store::open(options);
  ASSERT_TRUE(store.has_value()) << store.error().message;
  const std::size_t kept = (*store)->max_idle_reads();
  ASSERT_EQ(kept, 2U);
  {
    // Every slot taken by serving reads: one more fails as unavailable, and waits for nothing.
    Holds full(**store, 8, false);
    full.settle();
    ASSERT_EQ(full.inside(), 8U);
    const auto refused = (*store)->serve([](ReadTxn&) { ADD_FAILURE() << "ran without a slot"; });
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error().code, ErrorCode::unavailable);
    full.release();
    EXPECT_EQ(full.succeeded(), 8U);
  }
  // Of the 8, `kept` were kept for reuse, each still holding its slot; the rest gave theirs
  // back. Transactions of their own (not reused) find exactly the others free.
  Holds fresh(**store, 8, true);
  fresh.settle();
  EXPECT_EQ(fresh.inside(), 8 - kept);
  EXPECT_EQ(fresh.failed(), kept);
  EXPECT_EQ(fresh.unavailable(), kept);
  fresh.release();
  // Serving reads reuse the kept ones first, so a burst as large as the table fits again.
  Holds again(**store, 8, false);
  again.settle();
  EXPECT_EQ(again.inside(), 8U);
}

}  // namespace
}  // namespace petstore::tests

#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "adapters/storage/group_commit/group_commit_pacing.hpp"
#include "adapters/storage/lmdb/lmdb_store.hpp"
#include "adapters/storage/lmdb/lmdb_txn.hpp"

namespace petstore::adapters::storage::lmdb {
namespace {

constexpr std::chrono::milliseconds max_company_wait{10};

// How long the writer idles before it releases the kept read snapshots that other processes'
// commits made stale (Store::release_stale_reads): the longest a quiet process holds back pages.
constexpr std::chrono::milliseconds stale_read_check{50};

class LmdbPetRepository final : public ports::PetRepository {
 public:
  LmdbPetRepository(std::unique_ptr<Store> store, const LmdbOptions& options)
      : store_(std::move(store)),
        max_batch_(options.max_batch),
        on_commit_(options.on_commit),
        writer_([this] { run_writer(); }) {}

  LmdbPetRepository(const LmdbPetRepository&) = delete;
  LmdbPetRepository& operator=(const LmdbPetRepository&) = delete;

  // Stops accepting creates, commits those already queued, then closes the store.
  ~LmdbPetRepository() override {
    {
      const std::lock_guard lock(queue_mutex_);
      stopping_ = true;
    }
    queue_ready_.notify_all();
    writer_.join();
  }

  // PetRepository
  void create(ports::CreatePetCommand command, CreateDone done) override {
    std::unique_lock lock(queue_mutex_);
    if (stopping_) {
      lock.unlock();
      done(domain::make_error(domain::ErrorCode::unavailable, "", "storage is closing"));
      return;
    }
    queue_.push_back(PendingCreate{std::move(command), std::move(done)});
    const bool wanted = queue_.size() >= wake_at_;  // a wake-up per batch, not per create
    lock.unlock();
    if (wanted) {
      queue_ready_.notify_one();
    }
  }

  void get(domain::PetId id, GetDone done) const override {
    const auto& dbs = store_->databases();
    done(store_->serve([&](ReadTxn& read) { return read_pet(read.txn(), dbs, id); }));
  }

  void list(ports::PetQuery query, ListDone done) const override {
    const auto& dbs = store_->databases();
    done(store_->serve([&](ReadTxn& read) { return read_page(read, dbs, query); }));
  }

  void count(CountDone done) const override {
    const MDB_dbi pets = store_->databases().pets;
    done(store_->serve([&](ReadTxn& read) -> domain::Result<std::int64_t> {
      MDB_stat stat{};
      check(::mdb_stat(read.txn(), pets, &stat), "mdb_stat");  // the B-tree's count: no scan
      return static_cast<std::int64_t>(stat.ms_entries);
    }));
  }

 private:
  void run_writer() {
    std::vector<PendingCreate> batch;
    std::vector<PendingCreate> given_up;
    group_commit::GroupCommitPacing pacing(max_batch_, max_company_wait);
    for (;;) {
      {
        std::unique_lock lock(queue_mutex_);
        if (!queue_ready_.wait_for(lock, stale_read_check,
                                   [this] { return stopping_ || !queue_.empty(); })) {
          lock.unlock();
          store_->release_stale_reads();
          continue;
        }
        if (queue_.empty()) {
          return;  // stopping, and every queued create is done
        }
        if (const auto until = pacing.wait_until(queue_.size(), std::chrono::steady_clock::now())) {
          wake_at_ = pacing.company();
          queue_ready_.wait_until(lock, *until,
                                  [this] { return stopping_ || queue_.size() >= wake_at_; });
          wake_at_ = 1;
        }
        const auto now = std::chrono::steady_clock::now();
        while (!queue_.empty() && batch.size() < max_batch_) {
          // A create its caller has given up on (answered 503) is never stored later.
          (queue_.front().done.expired(now) ? given_up : batch)
              .push_back(std::move(queue_.front()));
          queue_.pop_front();
        }
      }
      for (auto& create : given_up) {
        create.done(domain::make_error(domain::ErrorCode::unavailable, "",
                                       "the create's deadline passed before it was written"));
      }
      given_up.clear();
      if (batch.empty()) {
        continue;
      }
      const auto started = std::chrono::steady_clock::now();
      auto results = commit_creates(*store_, batch);
      const auto took = std::chrono::steady_clock::now() - started;
      pacing.committed(batch.size(), took);
      if (on_commit_) {
        on_commit_(took, batch.size());
      }
      // Only now, with the transaction committed and synced (or failed), is anyone told.
      for (std::size_t i = 0; i < batch.size(); ++i) {
        batch[i].done(std::move(results[i]));
      }
      batch.clear();
    }
  }

  std::unique_ptr<Store> store_;
  std::size_t max_batch_;
  std::function<void(std::chrono::nanoseconds, std::size_t)> on_commit_;
  std::mutex queue_mutex_;
  std::condition_variable queue_ready_;
  std::deque<PendingCreate> queue_;
  std::size_t wake_at_ = 1;  // the queue length at which a create wakes the writer
  bool stopping_ = false;
  std::thread writer_;  // last: it starts once everything it uses exists
};

}  // namespace

domain::Result<std::unique_ptr<ports::PetRepository>> make_lmdb_pet_repository(
    const LmdbOptions& options) {
  auto store = Store::open(options);
  if (!store) {
    return store.error();
  }
  return std::unique_ptr<ports::PetRepository>(
      std::make_unique<LmdbPetRepository>(std::move(*store), options));
}

}  // namespace petstore::adapters::storage::lmdb

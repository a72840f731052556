#include "adapters/storage/lmdb/lmdb_store.hpp"

#include <algorithm>
#include <cerrno>
#include <exception>
#include <memory>
#include <utility>

#include "adapters/storage/lmdb/lmdb_txn.hpp"

namespace petstore::adapters::storage::lmdb {
namespace {

// A burst of processes each growing the map could make begin see MAP_RESIZED again; a few
// adoptions settle it, more would mean something else is wrong.
constexpr int max_map_adoptions = 8;

domain::Error unexpected_failure(const std::exception& e) {
  auto error = domain::make_error(domain::ErrorCode::internal, "", "unexpected storage failure");
  error.detail = e.what();
  return error;
}

}  // namespace

domain::Error storage_error(int rc, std::string detail) {
  const bool damaged =
      rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND || rc == MDB_INVALID || rc == MDB_PANIC;
  auto error =
      domain::make_error(damaged ? domain::ErrorCode::internal : domain::ErrorCode::unavailable, "",
                         damaged                              ? "stored data is damaged"
                         : rc == MDB_MAP_FULL || rc == ENOSPC ? "storage is full"
                                                              : "storage is unavailable");
  error.detail = std::move(detail);
  return error;
}

Store::~Store() {
  for (auto& place : idle_reads_) {
    delete place.exchange(nullptr);  // its transaction ends before the environment closes
  }
  ::mdb_env_close(env_);
}

domain::Error Store::failure(const std::exception& e) {
  if (const auto* failed = dynamic_cast<const ::lmdb::error*>(&e)) {
    return storage_error(failed->code(), failed->what());
  }
  return unexpected_failure(e);
}

MDB_txn* Store::begin(unsigned int flags, std::shared_lock<std::shared_mutex>& lock) const {
  for (int adoptions = 0;; ++adoptions) {
    lock = std::shared_lock(map_mutex_);
    MDB_txn* txn = nullptr;
    const int rc = ::mdb_txn_begin(env_, nullptr, flags, &txn);
    if (rc == MDB_SUCCESS) {
      return txn;
    }
    lock.unlock();
    if (rc != MDB_MAP_RESIZED || adoptions == max_map_adoptions) {
      ::lmdb::error::raise("mdb_txn_begin", rc);
    }
    adopt_map_size();
  }
}

void Store::adopt_map_size() const {
  // Another process grew the map past ours: size 0 maps the size it recorded.
  const std::unique_lock lock(map_mutex_);
  reset_kept_reads();
  check(::mdb_env_set_mapsize(env_, 0), "mdb_env_set_mapsize");
}

bool Store::grow_map() {
  const std::unique_lock lock(map_mutex_);
  reset_kept_reads();
  MDB_envinfo info{};
  if (::mdb_env_info(env_, &info) != MDB_SUCCESS || info.me_mapsize >= options_.max_map_size) {
    return false;
  }
  const std::size_t room = options_.max_map_size - info.me_mapsize;
  const std::size_t next = info.me_mapsize + std::min(room, options_.map_growth_step);
  return ::mdb_env_set_mapsize(env_, next) == MDB_SUCCESS;
}

domain::Result<void> Store::read(const TxnWork& work) const {
  try {
    std::shared_lock<std::shared_mutex> lock;
    MDB_txn* txn = begin(MDB_RDONLY, lock);
    const AbortGuard guard(txn);  // ending a read transaction is aborting it
    work(txn);
    return {};
  } catch (const std::exception& e) {
    return failure(e);
  }
}

std::size_t Store::max_idle_reads() const noexcept {
  return std::max<std::size_t>(1, options_.max_readers / 4);
}

std::uint64_t Store::newest_commit() const noexcept {
  MDB_envinfo info{};
  (void)::mdb_env_info(env_, &info);  // fails only without an env or an out-parameter
  return info.me_last_txnid;
}

std::unique_ptr<ReadTxn> Store::take_read(std::shared_lock<std::shared_mutex>& lock) const {
  for (int adoptions = 0;; ++adoptions) {
    lock = std::shared_lock(map_mutex_);  // first: a resize resets every kept one before it maps
    std::unique_ptr<ReadTxn> read;
    for (auto& place : idle_reads_) {
      if (place.load(std::memory_order_relaxed) != nullptr) {  // a load is cheaper than a swap
        read.reset(place.exchange(nullptr, std::memory_order_acquire));
        if (read) {
          break;
        }
      }
    }
    if (read && read->live()) {
      if (read->snapshot() == newest_commit()) {
        return read;  // nothing committed since: its snapshot and cursors are current
      }
      read->reset();
    }
    int rc = MDB_SUCCESS;
    if (read) {
      rc = read->renew();
    } else {
      MDB_txn* txn = nullptr;
      rc = ::mdb_txn_begin(env_, nullptr, MDB_RDONLY, &txn);
      if (rc == MDB_SUCCESS) {
        read = std::make_unique<ReadTxn>(AbortGuard(txn));  // aborted if the allocation throws
      }
    }
    if (rc == MDB_SUCCESS) {
      return read;
    }
    const char* origin = read ? "mdb_txn_renew" : "mdb_txn_begin";
    read.reset();  // a failed renew left it reset: aborting it frees its slot
    lock.unlock();
    if (rc != MDB_MAP_RESIZED || adoptions == max_map_adoptions) {
      ::lmdb::error::raise(origin, rc);
    }
    adopt_map_size();
  }
}

void Store::keep_read(std::unique_ptr<ReadTxn> read) const noexcept {
  for (auto& place : idle_reads_) {
    ReadTxn* free = nullptr;
    if (place.load(std::memory_order_relaxed) == nullptr &&
        place.compare_exchange_strong(free, read.get(), std::memory_order_release,
                                      std::memory_order_relaxed)) {
      (void)read.release();  // owned by its place now
      return;
    }
  }
}  // every place taken: `read` ends here, giving its slot back

void Store::reset_kept_reads(bool only_stale) const noexcept {
  const auto newest = only_stale ? newest_commit() : 0;
  for (auto& place : idle_reads_) {
    if (place.load(std::memory_order_relaxed) == nullptr) {
      continue;
    }
    // Taken out before it is looked at: a serving read may take it at any moment. Idle once out:
    // no other thread uses it, and under MDB_NOTLS any thread may reset it.
    std::unique_ptr<ReadTxn> read(place.exchange(nullptr, std::memory_order_acquire));
    if (!read) {
      continue;
    }
    if (read->live() && (!only_stale || read->snapshot() != newest)) {
      read->reset();  // a kept newest snapshot holds back no page a later commit freed
    }
    ReadTxn* free = nullptr;
    if (place.compare_exchange_strong(free, read.get(), std::memory_order_release,
                                      std::memory_order_relaxed)) {
      (void)read.release();
    }  // else a serving read kept another there meanwhile: this one ends, freeing its slot
  }
}

void Store::release_stale_reads() const noexcept {
  const std::shared_lock lock(map_mutex_);  // as a reset requires
  reset_kept_reads(true);
}

domain::Result<void> Store::write(const TxnWork& work) {
  for (;;) {
    try {
      std::shared_lock<std::shared_mutex> lock;
      MDB_txn* txn = begin(0, lock);
      AbortGuard guard(txn);
      work(txn);
      commit(guard);       // synced: no MDB_NOSYNC, no MDB_NOMETASYNC
      reset_kept_reads();  // their snapshots would hold back the pages this commit freed
      return {};
    } catch (const ::lmdb::error& e) {
      // The transaction is gone and the shared lock released here, so the map may be resized.
      if (e.code() == MDB_MAP_FULL && grow_map()) {
        continue;
      }
      return storage_error(e.code(), e.what());
    } catch (const std::exception& e) {
      return unexpected_failure(e);
    }
  }
}

ReadTxn::~ReadTxn() {
  for (const Cursor& cursor : cursors_) {
    if (cursor.cursor != nullptr) {
      ::mdb_cursor_close(cursor.cursor);  // a read-only transaction never frees its cursors
    }
  }
}

MDB_cursor* ReadTxn::cursor(MDB_dbi dbi) {
  for (Cursor& cursor : cursors_) {
    if (cursor.cursor != nullptr && cursor.dbi == dbi) {
      if (!cursor.current) {
        check(::mdb_cursor_renew(txn_.get(), cursor.cursor), "mdb_cursor_renew");
        cursor.current = true;
      }
      return cursor.cursor;
    }
    if (cursor.cursor == nullptr) {
      check(::mdb_cursor_open(txn_.get(), dbi, &cursor.cursor), "mdb_cursor_open");
      cursor.dbi = dbi;
      cursor.current = true;
      return cursor.cursor;
    }
  }
  ::lmdb::error::raise("ReadTxn::cursor", EINVAL);  // more databases than max_cursors: a bug
}

int ReadTxn::renew() noexcept {
  const int rc = ::mdb_txn_renew(txn_.get());
  live_ = rc == MDB_SUCCESS;
  return rc;
}

void ReadTxn::reset() noexcept {
  if (!live_) {
    return;
  }
  live_ = false;
  ::mdb_txn_reset(txn_.get());
  for (Cursor& cursor : cursors_) {
    cursor.current = false;
  }
}

}  // namespace petstore::adapters::storage::lmdb

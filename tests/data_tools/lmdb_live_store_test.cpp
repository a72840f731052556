// The data tools on a store that another process keeps writing to, as a running service does:
// an export is one consistent snapshot, an import is seen whole and the writer's next ids go
// above it, and a backup holds every pet acknowledged before it started and passes the store
// checks. Also a backup taken by the process that is writing, through its own Store.

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "adapters/storage/lmdb/lmdb_store.hpp"
#include "adapters/storage/lmdb/lmdb_test_support.hpp"
#include "ports/pet_repository_contract.hpp"

#include "child_writer.hpp"
#include "data_tools_support.hpp"

namespace petstore::tests {
namespace {

constexpr std::int64_t imported_from = 1'000'000;

// expect_backup_holds: the backup in `dir` passes the store checks, holds each of `acked` as
// the writer created it, and continues ids above everything it holds.
void expect_backup_holds(const std::filesystem::path& dir, const std::vector<std::int64_t>& acked) {
  const auto repository = open_repository(options_for(dir));
  const auto all = expect_consistent_store(*repository);
  std::set<std::int64_t> ids;
  for (const auto& pet : all) {
    ids.insert(pet.id.value);
  }
  for (const auto id : acked) {
    EXPECT_TRUE(ids.count(id) == 1) << "pet " << id << " was acknowledged before the backup";
  }
  const auto next = create_pet(*repository, new_pet("after restore"));
  ASSERT_TRUE(next);
  EXPECT_GT(next->id.value, *ids.rbegin());
}

TEST(LmdbLiveStore, AnExportIsOneSnapshotWhileAnotherProcessWrites) {
  const TempDir temp;
  ChildWriter writer(temp.path());
  const auto acked = writer.wait_for(20);
  ASSERT_GE(acked.size(), 20U);
  const auto pets = exported(options_for(temp.path()));
  const auto all_acked = writer.stop();
  EXPECT_TRUE(writer.exited_cleanly());
  // One writer assigns ids 1, 2, 3... in commit order, so a snapshot is exactly 1..k, with k at
  // least what was acknowledged before the export began.
  ASSERT_GE(pets.size(), acked.size());
  for (std::size_t i = 0; i < pets.size(); ++i) {
    EXPECT_EQ(pets[i].id.value, static_cast<std::int64_t>(i + 1));
    EXPECT_EQ(pets[i].name.value(), "live " + std::to_string(i));
  }
  EXPECT_LE(pets.size(), all_acked.size());
}

TEST(LmdbLiveStore, AnImportIsSeenWholeAndTheWritersIdsContinueAboveIt) {
  const TempDir temp;
  ChildWriter writer(temp.path());
  ASSERT_GE(writer.wait_for(5).size(), 5U);
  std::vector<domain::Pet> batch;
  for (std::int64_t id = imported_from; id < imported_from + 500; ++id) {
    batch.push_back(pet(id, "imported", id));
  }
  const auto report = import_into(options_for(temp.path()), batch);
  ASSERT_TRUE(report) << report.error().message;
  // Creates are one at a time: of those acknowledged after the import returned, only the first
  // can have committed before it.
  const std::size_t before = writer.drain().size();
  const auto after = writer.wait_for(before + 3);
  const auto acked = writer.stop();
  ASSERT_TRUE(writer.exited_cleanly());
  ASSERT_GE(after.size(), before + 3);
  for (std::size_t i = before + 1; i < after.size(); ++i) {
    EXPECT_GE(after[i], imported_from + 500);
  }
  for (const auto id : acked) {  // no id of the writer falls inside the imported range
    EXPECT_TRUE(id < imported_from || id >= imported_from + 500) << id;
  }
  const auto repository = open_repository(options_for(temp.path()));
  const auto all = expect_consistent_store(*repository);
  EXPECT_EQ(all.size(), acked.size() + batch.size());
}

TEST(LmdbLiveStore, ABackupUnderWriteLoadHoldsEveryAcknowledgedPet) {
  const TempDir temp;
  const TempDir backups;
  ChildWriter writer(temp.path());
  const auto acked = writer.wait_for(50);
  ASSERT_GE(acked.size(), 50U);
  const auto backup =
      adapters::storage::lmdb::backup_lmdb_store(options_for(temp.path()), backups.path() / "b");
  ASSERT_TRUE(backup) << backup.error().message;
  const auto later = writer.wait_for(acked.size() + 20);  // still writing after the backup
  writer.stop();
  ASSERT_TRUE(writer.exited_cleanly());
  EXPECT_GE(later.size(), acked.size() + 20);
  expect_backup_holds(backups.path() / "b", acked);
}

// The writer and the backup share one Store, as they would inside one process.
TEST(LmdbLiveStore, ABackupThroughTheWritersOwnStoreHoldsEveryAcknowledgedPet) {
  const TempDir temp;
  const TempDir backups;
  auto store = adapters::storage::lmdb::Store::open(options_for(temp.path())).value();
  std::mutex mutex;
  std::vector<std::int64_t> acked;
  std::atomic<bool> stop{false};
  std::atomic<bool> failed{false};
  std::thread writer([&] {
    for (int i = 0; !stop.load(); ++i) {
      std::vector<adapters::storage::lmdb::PendingCreate> batch;
      for (int j = 0; j <= i % 4; ++j) {  // batches of 1 to 4, as group commit makes
        batch.push_back({{new_pet("same process"), std::nullopt, test_now}, {}});
      }
      for (auto& result : adapters::storage::lmdb::commit_creates(*store, batch)) {
        const std::lock_guard lock(mutex);
        failed = failed || !result;
        acked.push_back(result ? result->pet.id.value : 0);
      }
    }
  });
  const auto acked_count = [&] {
    const std::lock_guard lock(mutex);
    return acked.size();
  };
  while (acked_count() < 100) {
    std::this_thread::yield();
  }
  std::vector<std::int64_t> before;
  {
    const std::lock_guard lock(mutex);
    before = acked;
  }
  const auto backup = adapters::storage::lmdb::backup_store(*store, backups.path() / "b");
  stop = true;
  writer.join();
  ASSERT_TRUE(backup) << backup.error().message;
  EXPECT_FALSE(failed.load());
  EXPECT_GT(acked.size(), before.size());
  expect_backup_holds(backups.path() / "b", before);
}

}  // namespace
}  // namespace petstore::tests

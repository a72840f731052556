#include "adapters/storage/lmdb/lmdb_pet_archive.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <lmdb++.h>

#include "adapters/storage/lmdb/lmdb_records.hpp"
#include "adapters/storage/lmdb/lmdb_store.hpp"
#include "adapters/storage/lmdb/lmdb_txn.hpp"

namespace petstore::adapters::storage::lmdb {
namespace {

constexpr std::size_t progress_every = 4096;

class LmdbPetArchive final : public ports::PetArchive {
 public:
  explicit LmdbPetArchive(LmdbOptions options) : options_(std::move(options)) {}

  // PetArchive. read_all: every pet to `sink`, in key order, which is id order.
  domain::Result<ports::ArchiveReadReport> read_all(const PetSink& sink) const override {
    auto store = Store::open_existing(options_);
    if (!store) {
      return store.error();
    }
    const Databases& dbs = (*store)->databases();
    domain::Result<ports::ArchiveReadReport> out = ports::ArchiveReadReport{};
    auto walked = (*store)->read([&](MDB_txn* txn) {
      auto cursor = ::lmdb::cursor::open(txn, dbs.pets);
      ::lmdb::val key;
      ::lmdb::val value;
      for (bool found = cursor.get(key, value, MDB_FIRST); found;
           found = cursor.get(key, value, MDB_NEXT)) {
        const auto id = decode_pet_key(view(key));
        auto pet = decode_pet_record(view(value));
        if (!id || !pet) {
          out = damaged_record();
          return;
        }
        if (!sink(domain::with_id(*id, std::move(*pet)))) {
          out->complete = false;
          return;
        }
        ++out->pets;
      }
    });
    if (!walked) {
      return walked.error();
    }
    return out;
  }

  // write_all: every put of `pets` in one write transaction. When an id is already stored the
  // transaction is aborted, so nothing is stored, and the report names that pet.
  domain::Result<ports::ArchiveWriteReport> write_all(std::span<const domain::Pet> pets,
                                                      const Progress& progress) override {
    auto store = Store::open(options_);
    if (!store) {
      return store.error();
    }
    // Pets in strictly ascending id above every stored one (another store's export) are appended:
    // full B-tree pages, much faster than inserting.
    const bool ascending = std::ranges::adjacent_find(pets, [](const auto& a, const auto& b) {
                             return a.id.value >= b.id.value;
                           }) == pets.end();
    const Databases& dbs = (*store)->databases();
    ports::ArchiveWriteReport report;
    auto written = (*store)->write([&](MDB_txn* txn) {
      report = {};  // a retry after growing the map starts over
      const bool append = ascending && !pets.empty() &&
                          next_pet_id(txn, dbs) <= static_cast<std::uint64_t>(pets[0].id.value);
      const unsigned int flags = append ? MDB_APPEND : MDB_NOOVERWRITE;
      for (std::size_t i = 0; i < pets.size(); ++i) {
        const domain::Pet& pet = pets[i];
        const domain::NewPet body{pet.name, pet.category_id, pet.status};
        if (!put(txn, dbs.pets, pet_key(pet.id), pet_record(body), flags)) {
          report.conflict = i;
          // Aborts the transaction: nothing is stored.
          ::lmdb::error::raise("import", MDB_KEYEXIST);
        }
        put(txn, dbs.pets_by_status, status_key(pet.status, pet.id), "", 0);
        if (progress && (i + 1) % progress_every == 0) {
          progress(i + 1);
        }
      }
      report.next_id = next_pet_id(txn, dbs);
      if (progress) {
        progress(pets.size());
      }
    });
    if (report.conflict) {
      return report;
    }
    if (!written) {
      return written.error();
    }
    return report;
  }

 private:
  LmdbOptions options_;
};

}  // namespace

std::unique_ptr<ports::PetArchive> make_lmdb_pet_archive(LmdbOptions options) {
  return std::make_unique<LmdbPetArchive>(std::move(options));
}

}  // namespace petstore::adapters::storage::lmdb

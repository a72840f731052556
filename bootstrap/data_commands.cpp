// The data tools of contract section 7, wired: export and import over the PetArchive of whichever
// backend holds the store (LMDB, or PostgreSQL with --storage postgres), run by adapters/cli;
// backup is LMDB's alone (PostgreSQL has pg_dump).

#include <filesystem>
#include <memory>
#include <string>

#include "adapters/cli/data_tools.hpp"
#include "adapters/storage/lmdb/lmdb_pet_archive.hpp"
#include "adapters/storage/postgres/postgres_pet_archive.hpp"
#include "bootstrap/commands.hpp"

namespace petstore::bootstrap {
namespace {

using adapters::cli::report;

// store_problem: why the command line does not name a store, or "" when it does.
std::string store_problem(const StoreOptions& store) {
  if (store.storage == StorageKind::postgres) {
    return store.database_url.empty() ? "--storage postgres needs --database-url" : "";
  }
  return store.data_dir.empty() ? "--data-dir is required (or --storage postgres)" : "";
}

// store_name: the store for the operator's messages (a database without its password).
std::string store_name(const StoreOptions& store) {
  if (store.storage != StorageKind::postgres) {
    return store.data_dir.string();
  }
  auto described = adapters::storage::postgres::describe_database_url(store.database_url);
  return described ? "postgres " + *described : "the database";
}

// pet_archive: LMDB, or PostgreSQL with --storage postgres. Errors: a URL libpq cannot parse.
domain::Result<std::unique_ptr<ports::PetArchive>> pet_archive(const StoreOptions& store) {
  if (store.storage == StorageKind::postgres) {
    adapters::storage::postgres::PostgresOptions options;
    options.database_url = store.database_url;
    return adapters::storage::postgres::make_postgres_pet_archive(options);
  }
  return adapters::storage::lmdb::make_lmdb_pet_archive({.data_dir = store.data_dir});
}

// with_archive: `tool`'s exit code, run on the archive of `store` and its name; or 2 after one
// line when the command line names no store that can be opened.
template <class Tool>
int with_archive(const StoreOptions& store, const Tool& tool) {
  if (const auto problem = store_problem(store); !problem.empty()) {
    report(problem + " (see petstore --help)");
    return 2;
  }
  auto archive = pet_archive(store);
  if (!archive) {
    report(archive.error().message);
    return 2;
  }
  return tool(**archive, store_name(store));
}

}  // namespace

int run_export(const ExportOptions& options) {
  return with_archive(options.store, [&](ports::PetArchive& archive, const std::string& store) {
    return adapters::cli::export_pets(archive, options.out, store);
  });
}

int run_import(const ImportOptions& options) {
  return with_archive(options.store, [&](ports::PetArchive& archive, const std::string& store) {
    return adapters::cli::import_pets(archive, options.in, store);
  });
}

int run_backup(const BackupOptions& options) {
  if (options.store.storage == StorageKind::postgres) {
    report(
        "backup copies LMDB stores only; back up a PostgreSQL database with pg_dump (or "
        "pg_basebackup), or write its pets out with petstore export --storage postgres");
    return 2;
  }
  if (options.store.data_dir.empty()) {
    report("--data-dir is required (see petstore --help)");
    return 2;
  }
  auto backup =
      adapters::storage::lmdb::backup_lmdb_store({.data_dir = options.store.data_dir}, options.out);
  if (!backup) {
    report(backup.error().message);
    return 1;
  }
  report("backed up " + options.store.data_dir.string() + " to " + options.out.string() + " (" +
         std::to_string(backup->bytes) + " bytes)");
  return 0;
}

}  // namespace petstore::bootstrap

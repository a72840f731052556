// The data tools of contract section 7: export, import and backup of a store, which a service may
// be using at the same time. Export and import are use cases (application/) over the PetArchive
// port of whichever backend holds the store (LMDB, or PostgreSQL with --storage postgres); backup
// is LMDB's alone (PostgreSQL has pg_dump). The JSON Lines format comes
// from adapters/jsonl; this file joins the pieces and talks to the operator.

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "adapters/cli/export_output.hpp"
#include "adapters/cli/progress_bar.hpp"
#include "adapters/jsonl/jsonl_pet_codec.hpp"
#include "adapters/jsonl/jsonl_pet_reader.hpp"
#include "adapters/storage/lmdb/lmdb_backup.hpp"
#include "adapters/storage/lmdb/lmdb_pet_archive.hpp"
#include "adapters/storage/postgres/postgres_pet_archive.hpp"
#include "application/export_pets.hpp"
#include "application/import_pets.hpp"
#include "bootstrap/commands.hpp"

namespace petstore::bootstrap {
namespace {

namespace fs = std::filesystem;
using adapters::cli::ExportOutput;
using adapters::cli::ProgressBar;
using adapters::cli::ProgressUnit;

constexpr std::size_t max_problems_shown = 10;
// Inputs from this size up get a progress bar (on a terminal); smaller ones finish too quickly
// for one to help.
constexpr std::uint64_t large_input_bytes = 1 << 20;

void fail(const std::string& line) { std::cerr << "petstore: " << line << '\n'; }

adapters::storage::lmdb::LmdbOptions lmdb_options(const fs::path& data_dir) {
  adapters::storage::lmdb::LmdbOptions options;
  options.data_dir = data_dir;
  return options;
}

// Store: the store a data tool acts on, as chosen on its command line.
struct Store {
  std::string storage;
  fs::path data_dir;
  std::string database_url;
};

// store_problem: why the command line does not name a store, or "" when it does.
std::string store_problem(const Store& store) {
  if (store.storage == "postgres") {
    return store.database_url.empty() ? "--storage postgres needs --database-url" : "";
  }
  return store.data_dir.empty() ? "--data-dir is required (or --storage postgres)" : "";
}

// store_name: the store for the operator's messages (a database without its password).
std::string store_name(const Store& store) {
  if (store.storage != "postgres") {
    return store.data_dir.string();
  }
  auto described = adapters::storage::postgres::describe_database_url(store.database_url);
  return described ? "postgres " + *described : "the database";
}

// next_id_note: what the store's next create gets. Past the largest id (2^63 - 1, which an import
// may store) there is none, and every backend reports 2^63: saying so is the truth.
std::string next_id_note(std::uint64_t next_id) {
  constexpr auto largest = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  return next_id <= largest ? "the next id is " + std::to_string(next_id)
                            : "no id is left for creates";
}

// pet_archive: the store a data tool exports from or imports into: LMDB, or PostgreSQL with
// --storage postgres (memory keeps nothing past the process). Errors: a URL libpq cannot parse.
domain::Result<std::unique_ptr<ports::PetArchive>> pet_archive(const Store& store) {
  if (store.storage == "postgres") {
    adapters::storage::postgres::PostgresOptions options;
    options.database_url = store.database_url;
    return adapters::storage::postgres::make_postgres_pet_archive(options);
  }
  return adapters::storage::lmdb::make_lmdb_pet_archive(lmdb_options(store.data_dir));
}

// open_archive: the archive, or the exit status after saying why there is none (2: the command
// line does not name a store).
std::optional<std::unique_ptr<ports::PetArchive>> open_archive(const Store& store, int& status) {
  if (const auto problem = store_problem(store); !problem.empty()) {
    fail(problem + " (see petstore --help)");
    status = 2;
    return std::nullopt;
  }
  auto archive = pet_archive(store);
  if (!archive) {
    fail(archive.error().message);
    status = 2;
    return std::nullopt;
  }
  return std::move(*archive);
}

bool is_stdio(const std::optional<fs::path>& path) { return !path || *path == "-"; }

// input_size: the size of a regular file behind `fd`, 0 when unknown (a pipe, a terminal).
std::uint64_t input_size(int fd) {
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    return 0;
  }
  return static_cast<std::uint64_t>(info.st_size);
}

std::string plural(std::size_t count, const std::string& one, const std::string& many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// read_input: the validated pets of the input, or nullopt after reporting its problems.
// `bytes_read` receives the input's size.
std::optional<adapters::jsonl::PetLines> read_input(std::istream& in, std::uint64_t size,
                                                    ProgressBar& progress,
                                                    std::uint64_t& bytes_read) {
  progress.start("reading", size, ProgressUnit::bytes);
  adapters::jsonl::ReadOptions options;
  options.max_problems = max_problems_shown;
  options.progress = [&](std::uint64_t bytes, std::size_t /*lines*/) {
    bytes_read = bytes;
    if (bytes >= large_input_bytes) {
      progress.update(bytes);
    }
  };
  auto lines = adapters::jsonl::read_pet_lines(in, options);
  progress.finish();
  if (!lines) {
    fail(lines.error().message + "; nothing was imported");
    return std::nullopt;
  }
  if (lines->problem_count == 0) {
    return std::move(*lines);
  }
  for (const auto& problem : lines->problems) {
    fail("line " + std::to_string(problem.line) + ": " + problem.message);
  }
  const std::size_t count = lines->problem_count;
  fail(plural(count, "bad line", "bad lines") +
       (count > lines->problems.size()
            ? " (the first " + std::to_string(lines->problems.size()) + " shown)"
            : std::string()) +
       "; nothing was imported");
  return std::nullopt;
}

}  // namespace

int run_export(const ExportOptions& options) {
  const Store store{options.storage, options.data_dir, options.database_url};
  int status = 0;
  auto archive = open_archive(store, status);
  if (!archive) {
    return status;
  }
  auto output = ExportOutput::open(options.out);
  if (!output) {
    fail(output.error().message);
    return 1;
  }
  std::string line;
  auto exported = application::ExportPets(**archive)([&](const domain::Pet& pet) {
    line.clear();
    adapters::jsonl::append_pet_line(line, pet);
    return (*output)->write(line);
  });
  if (!exported) {
    fail(exported.error().message);
    return 1;
  }
  if (auto committed = (*output)->commit(); !committed) {
    fail(committed.error().message);
    return 1;
  }
  std::cerr << "petstore: exported " << plural(exported->pets, "pet", "pets") << " from "
            << store_name(store) << '\n';
  return 0;
}

int run_import(const ImportOptions& options) {
  const Store store{options.storage, options.data_dir, options.database_url};
  int status = 0;
  auto archive = open_archive(store, status);
  if (!archive) {
    return status;
  }
  std::ifstream file;
  std::istream* in = &std::cin;
  int fd = STDIN_FILENO;
  if (!is_stdio(options.in)) {
    file.open(*options.in, std::ios::binary);
    if (!file || fs::is_directory(*options.in)) {
      fail("cannot read " + options.in->string() + ": " +
           (fs::is_directory(*options.in) ? "it is a directory" : std::strerror(errno)));
      return 1;
    }
    in = &file;
    fd = -1;
  }
  std::error_code ec;
  const std::uint64_t size = fd >= 0 ? input_size(fd) : fs::file_size(*options.in, ec);
  ProgressBar progress(std::cerr, ::isatty(STDERR_FILENO) == 1);
  std::uint64_t bytes_read = 0;
  const auto lines = read_input(*in, ec ? 0 : size, progress, bytes_read);
  if (!lines) {
    return 1;
  }
  progress.start("writing", lines->pets.size(), ProgressUnit::pets);
  std::optional<std::size_t> refused_line;
  application::ImportCallbacks callbacks;
  callbacks.progress = [&, large = bytes_read >= large_input_bytes](std::size_t written) {
    if (large) {
      progress.update(written);
    }
  };
  callbacks.refused = [&](std::size_t index) { refused_line = lines->line_of[index]; };
  auto imported = application::ImportPets(**archive)(lines->pets, callbacks);
  progress.finish();
  if (!imported) {
    const auto& error = imported.error();
    fail((refused_line ? "line " + std::to_string(*refused_line) + ": " : std::string()) +
         error.message + "; nothing was imported" +
         (error.code == domain::ErrorCode::conflict ? " (an import never overwrites a pet)" : ""));
    return 1;
  }
  std::cerr << "petstore: imported " << plural(imported->pets, "pet", "pets") << " into "
            << store_name(store) << "; " << next_id_note(imported->next_id) << '\n';
  return 0;
}

int run_backup(const BackupOptions& options) {
  if (options.storage == "postgres") {
    fail(
        "backup copies LMDB stores only; back up a PostgreSQL database with pg_dump (or "
        "pg_basebackup), or write its pets out with petstore export --storage postgres");
    return 2;
  }
  if (options.data_dir.empty()) {
    fail("--data-dir is required (see petstore --help)");
    return 2;
  }
  auto backup =
      adapters::storage::lmdb::backup_lmdb_store(lmdb_options(options.data_dir), options.out);
  if (!backup) {
    fail(backup.error().message);
    return 1;
  }
  std::cerr << "petstore: backed up " << options.data_dir.string() << " to " << options.out.string()
            << " (" << backup->bytes << " bytes)\n";
  return 0;
}

}  // namespace petstore::bootstrap

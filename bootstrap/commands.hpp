#pragma once
// The commands `petstore` runs, each returning the process exit code of contract section 7:
// 0 clean stop, 1 runtime failure, 2 bad usage. Every failure prints one line on stderr.

#include "bootstrap/serve_options.hpp"

namespace petstore::bootstrap {

// run_serve: serves until SIGINT or SIGTERM, then drains (at most 10 s) and closes storage.
// SIGHUP re-reads the key file.
[[nodiscard]] int run_serve(const ServeOptions& options);

// run_keys_new: makes a key, appends its digest to the key file, prints the key once.
[[nodiscard]] int run_keys_new(const KeysOptions& options);

// run_keys_list: a line for each key: principal id, access, created, label; never a whole digest.
[[nodiscard]] int run_keys_list(const KeysOptions& options);

// run_keys_revoke: removes one key from the key file; a serving petstore drops it at SIGHUP.
[[nodiscard]] int run_keys_revoke(const KeysOptions& options);

// run_export: every pet of a store (LMDB or PostgreSQL) as JSON Lines, from one snapshot.
[[nodiscard]] int run_export(const ExportOptions& options);

// run_import: stores every pet of a JSON Lines input, keeping their ids, or none.
[[nodiscard]] int run_import(const ImportOptions& options);

// run_backup: writes a consistent, compacted copy of an LMDB store into a new or empty dir.
[[nodiscard]] int run_backup(const BackupOptions& options);

// run: parses the command line and runs the command it names.
[[nodiscard]] int run(int argc, const char* const* argv);

// The build's version and commit, as CMake stamped them into version.cpp, for /metrics, logs and
// --version. version_text: "petstore 1.0.0 (interface 1.0.0, build <commit>, <build type>)".
[[nodiscard]] const char* build_version();
[[nodiscard]] const char* build_commit();
[[nodiscard]] const char* version_text();

}  // namespace petstore::bootstrap

#pragma once
// ExportOutput: where `petstore export` writes. Standard output, or a file written through
// adapters/files' AtomicFileWriter (mode 0600, renamed over FILE only once complete and synced),
// so a failed export never leaves a truncated file where a complete one is expected.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "adapters/files/atomic_file_writer.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::cli {

class ExportOutput {
 public:
  // open: standard output when `path` is absent or "-". Errors name the file and the reason.
  [[nodiscard]] static domain::Result<std::unique_ptr<ExportOutput>> open(
      const std::optional<std::filesystem::path>& path);

  ExportOutput(const ExportOutput&) = delete;
  ExportOutput& operator=(const ExportOutput&) = delete;
  ~ExportOutput() = default;  // an uncommitted file's temporary goes with its writer

  // write: appends `bytes`, buffered; false once a write has failed (commit then says why).
  bool write(std::string_view bytes);

  // commit: flushes; for a file also syncs it and renames it into place.
  [[nodiscard]] domain::Result<void> commit();

 private:
  ExportOutput(std::optional<std::filesystem::path> path,
               std::optional<adapters::files::AtomicFileWriter> file);
  bool flush();
  [[nodiscard]] domain::Error failure(const std::string& what) const;

  std::optional<std::filesystem::path> path_;              // absent: standard output
  std::optional<adapters::files::AtomicFileWriter> file_;  // absent: standard output
  std::string buffer_;
  int errno_ = 0;  // of the first failed write
};

}  // namespace petstore::adapters::cli

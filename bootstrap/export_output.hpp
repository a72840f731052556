#pragma once
// ExportOutput: where `petstore export` writes. Standard output, or a file that is written under
// a temporary name beside it (mode 0600) and renamed over FILE only once complete and synced, so
// a failed export never leaves a truncated file where a complete one is expected.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "domain/error.hpp"

namespace petstore::bootstrap {

class ExportOutput {
 public:
  // open: standard output when `path` is absent or "-". Errors name the file and the reason.
  [[nodiscard]] static domain::Result<std::unique_ptr<ExportOutput>> open(
      const std::optional<std::filesystem::path>& path);

  ExportOutput(const ExportOutput&) = delete;
  ExportOutput& operator=(const ExportOutput&) = delete;
  ~ExportOutput();  // removes the temporary file unless committed

  // write: appends `bytes`, buffered; false once a write has failed (commit then says why).
  bool write(std::string_view bytes);

  // commit: flushes; for a file also syncs it and renames it into place.
  [[nodiscard]] domain::Result<void> commit();

 private:
  ExportOutput(int fd, std::optional<std::filesystem::path> path,
               std::optional<std::filesystem::path> temporary);
  bool flush();
  [[nodiscard]] domain::Error failure(const std::string& what) const;

  int fd_;
  std::optional<std::filesystem::path> path_;       // absent: standard output
  std::optional<std::filesystem::path> temporary_;  // until committed
  std::string buffer_;
  int errno_ = 0;  // of the first failed write
};

}  // namespace petstore::bootstrap

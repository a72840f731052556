#pragma once
// The steps of a durable write, each reporting the failed step and errno, so that every caller
// words a failure for its own reader. Writes retry on EINTR and short transfers.

#include <filesystem>
#include <string>
#include <string_view>

#include <boost/system/result.hpp>

namespace petstore::adapters::files {

// FileStep: the step of writing a file that failed.
enum class FileStep { create, write, sync, rename, sync_directory };

// FileError: the failed step and errno.
struct FileError {
  FileStep step = FileStep::write;
  int error_number = 0;

  // message: errno's text, for the caller's own wording.
  [[nodiscard]] std::string message() const;
};

template <class T>
using FileResult = boost::system::result<T, FileError>;

// write_all: every byte of `bytes` (step write).
[[nodiscard]] FileResult<void> write_all(int fd, std::string_view bytes);

// sync_file: fsync of `fd` (step sync).
[[nodiscard]] FileResult<void> sync_file(int fd);

// sync_directory: so that a name created, renamed or removed in `dir` survives a crash.
[[nodiscard]] FileResult<void> sync_directory(const std::filesystem::path& dir);

// parent_directory: the directory that holds `file` ("." for a bare name).
[[nodiscard]] std::filesystem::path parent_directory(const std::filesystem::path& file);

}  // namespace petstore::adapters::files

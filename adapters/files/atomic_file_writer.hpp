#pragma once
// AtomicFileWriter: writes a file under a temporary name beside its destination, renamed over it
// once complete and synced. Readers see the old file or the whole new one, even across a crash; a
// write that fails or is abandoned leaves nothing behind.

#include <filesystem>
#include <string_view>
#include <sys/types.h>

#include "adapters/files/durable_write.hpp"
#include "adapters/files/unique_fd.hpp"

namespace petstore::adapters::files {

class AtomicFileWriter {
 public:
  // create: the temporary ".<name>.XXXXXX" beside `destination`. Its directory must exist.
  [[nodiscard]] static FileResult<AtomicFileWriter> create(std::filesystem::path destination,
                                                           mode_t mode = 0600);

  AtomicFileWriter(AtomicFileWriter&& other) noexcept;
  AtomicFileWriter& operator=(AtomicFileWriter&&) = delete;
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  ~AtomicFileWriter();  // removes the temporary file unless committed

  // fd: the temporary file's descriptor, for what needs more than write (LMDB's copy, fchown).
  // REQUIRES: not yet committed.
  [[nodiscard]] int fd() const noexcept { return fd_.get(); }

  [[nodiscard]] FileResult<void> write(std::string_view bytes) { return write_all(fd(), bytes); }

  // commit: syncs, closes, renames over the destination, syncs the directory. REQUIRES: once.
  [[nodiscard]] FileResult<void> commit();

 private:
  AtomicFileWriter(UniqueFd fd, std::filesystem::path destination, std::filesystem::path temporary);

  UniqueFd fd_;
  std::filesystem::path destination_;
  std::filesystem::path temporary_;  // empty once renamed (or moved from)
};

}  // namespace petstore::adapters::files

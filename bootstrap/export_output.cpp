#include "bootstrap/export_output.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace petstore::bootstrap {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t buffer_limit = 1 << 20;

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t wrote = ::write(fd, bytes.data(), bytes.size());
    if (wrote < 0 && errno == EINTR) {
      continue;
    }
    if (wrote <= 0) {
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(wrote));
  }
  return true;
}

bool sync_parent(const fs::path& file) {
  const fs::path parent = file.has_parent_path() ? file.parent_path() : fs::path(".");
  const int fd = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return false;
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  return synced;
}

}  // namespace

domain::Result<std::unique_ptr<ExportOutput>> ExportOutput::open(
    const std::optional<fs::path>& path) {
  if (!path || *path == "-") {
    return std::unique_ptr<ExportOutput>(
        new ExportOutput(STDOUT_FILENO, std::nullopt, std::nullopt));
  }
  std::error_code ec;
  if (fs::is_directory(*path, ec)) {
    return domain::make_error(domain::ErrorCode::invalid_argument, "out",
                              "cannot write " + path->string() + ": it is a directory");
  }
  const fs::path parent = path->has_parent_path() ? path->parent_path() : fs::path(".");
  std::string pattern = (parent / ("." + path->filename().string() + ".XXXXXX")).string();
  const int fd = ::mkostemp(pattern.data(), O_CLOEXEC);  // mode 0600
  if (fd < 0) {
    return domain::make_error(domain::ErrorCode::unavailable, "out",
                              "cannot write " + path->string() + ": " + std::strerror(errno));
  }
  return std::unique_ptr<ExportOutput>(new ExportOutput(fd, path, fs::path(pattern)));
}

ExportOutput::ExportOutput(int fd, std::optional<fs::path> path, std::optional<fs::path> temporary)
    : fd_(fd), path_(std::move(path)), temporary_(std::move(temporary)) {
  buffer_.reserve(buffer_limit + 4096);
}

ExportOutput::~ExportOutput() {
  if (path_) {
    ::close(fd_);
  }
  if (temporary_) {
    std::error_code ignored;
    fs::remove(*temporary_, ignored);
  }
}

bool ExportOutput::write(std::string_view bytes) {
  buffer_ += bytes;
  return buffer_.size() < buffer_limit || flush();
}

bool ExportOutput::flush() {
  if (errno_ == 0 && !write_all(fd_, buffer_)) {
    errno_ = errno == 0 ? EIO : errno;
  }
  buffer_.clear();
  return errno_ == 0;
}

domain::Error ExportOutput::failure(const std::string& what) const {
  const std::string name = path_ ? path_->string() : std::string("standard output");
  return domain::make_error(domain::ErrorCode::unavailable, "out",
                            "cannot write " + name + ": " + what);
}

domain::Result<void> ExportOutput::commit() {
  if (!flush()) {
    return failure(std::strerror(errno_));
  }
  if (!path_) {
    return {};
  }
  if (::fsync(fd_) != 0) {
    return failure(std::strerror(errno));
  }
  if (::rename(temporary_->c_str(), path_->c_str()) != 0) {
    return failure(std::strerror(errno));
  }
  temporary_.reset();
  if (!sync_parent(*path_)) {
    return failure(std::strerror(errno));
  }
  return {};
}

}  // namespace petstore::bootstrap

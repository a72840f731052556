#include "adapters/cli/export_output.hpp"

#include <cstring>
#include <unistd.h>

namespace petstore::adapters::cli {
namespace {

namespace fs = std::filesystem;
namespace files = adapters::files;

constexpr std::size_t buffer_limit = 1 << 20;

}  // namespace

domain::Result<std::unique_ptr<ExportOutput>> ExportOutput::open(
    const std::optional<fs::path>& path) {
  if (!path || *path == "-") {
    return std::unique_ptr<ExportOutput>(new ExportOutput(std::nullopt, std::nullopt));
  }
  std::error_code ec;
  if (fs::is_directory(*path, ec)) {
    return domain::make_error(domain::ErrorCode::invalid_argument, "out",
                              "cannot write " + path->string() + ": it is a directory");
  }
  auto file = files::AtomicFileWriter::create(*path);
  if (!file) {
    return domain::make_error(domain::ErrorCode::unavailable, "out",
                              "cannot write " + path->string() + ": " + file.error().message());
  }
  return std::unique_ptr<ExportOutput>(new ExportOutput(path, std::move(*file)));
}

ExportOutput::ExportOutput(std::optional<fs::path> path,
                           std::optional<files::AtomicFileWriter> file)
    : path_(std::move(path)), file_(std::move(file)) {
  buffer_.reserve(buffer_limit + 4096);
}

bool ExportOutput::write(std::string_view bytes) {
  buffer_ += bytes;
  return buffer_.size() < buffer_limit || flush();
}

bool ExportOutput::flush() {
  if (errno_ == 0) {
    const auto written = file_ ? file_->write(buffer_) : files::write_all(STDOUT_FILENO, buffer_);
    if (!written) {
      errno_ = written.error().error_number;
    }
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
  if (!file_) {
    return {};
  }
  if (auto committed = file_->commit(); !committed) {
    return failure(committed.error().message());
  }
  return {};
}

}  // namespace petstore::adapters::cli

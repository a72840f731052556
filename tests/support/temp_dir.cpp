#include "support/temp_dir.hpp"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <system_error>

namespace petstore::tests {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "petstore-test-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw std::system_error(errno, std::generic_category(), "mkdtemp");
  }
  path_ = pattern;
}

TempDir::~TempDir() {
  if (keep_) {
    return;
  }
  std::error_code ignored;
  // A test may have taken permissions away; give them back so that everything can go.
  for (const auto& entry : std::filesystem::recursive_directory_iterator(path_, ignored)) {
    ::chmod(entry.path().c_str(), 0700);
  }
  ::chmod(path_.c_str(), 0700);
  std::filesystem::remove_all(path_, ignored);
}

std::filesystem::path TempDir::write(const std::string& name, std::string_view text,
                                     unsigned mode) const {
  auto file = path_ / name;
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  ::chmod(file.c_str(), mode);
  return file;
}

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

unsigned mode_of(const std::filesystem::path& file) {
  struct stat status {};
  ::stat(file.c_str(), &status);
  return status.st_mode & 07777U;
}

}  // namespace petstore::tests

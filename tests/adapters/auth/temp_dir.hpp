#pragma once
// TempDir: a fresh directory under the system temp dir, removed with everything in it when the
// test ends. Files are written with an explicit mode (chmod after writing, so the umask does not
// matter). Tests run as root, which reads any file: permission rules are checked through mode
// bits, never by expecting open() to fail.

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace petstore::tests {

class TempDir {
 public:
  TempDir() : path_(make_unique_path()) { std::filesystem::create_directory(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

  // write: replaces `name` with `text` and gives it `mode`; returns its path.
  std::filesystem::path write(const std::string& name, std::string_view text,
                              unsigned mode = 0600) const {
    const auto file = path_ / name;
    {
      std::ofstream out(file, std::ios::binary | std::ios::trunc);
      out.write(text.data(), static_cast<std::streamsize>(text.size()));
    }
    ::chmod(file.c_str(), mode);
    return file;
  }

 private:
  static std::filesystem::path make_unique_path() {
    static std::atomic<unsigned> counter{0};
    std::random_device random;
    return std::filesystem::temp_directory_path() /
           ("petstore-auth-test-" + std::to_string(::getpid()) + "-" +
            std::to_string(counter.fetch_add(1)) + "-" + std::to_string(random()));
  }

  std::filesystem::path path_;
};

// read_text: the whole content of `file`.
inline std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// mode_of: the permission bits of `file`.
inline unsigned mode_of(const std::filesystem::path& file) {
  struct stat status {};
  ::stat(file.c_str(), &status);
  return status.st_mode & 07777U;
}

}  // namespace petstore::tests

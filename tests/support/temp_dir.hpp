#pragma once
// TempDir: a fresh private directory under the system temp dir (mkdtemp), removed with everything
// in it when the test ends unless the test asked to keep it for inspection. Files are written
// with an explicit mode (chmod after writing, so the umask does not matter). Tests run as root,
// which reads any file: permission rules are checked through mode bits, never by expecting
// open() to fail.

#include <filesystem>
#include <string>
#include <string_view>

namespace petstore::tests {

class TempDir {
 public:
  // Throws std::system_error when the directory cannot be made.
  TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

  // write: replaces `name` with `text` and gives it `mode`; returns its path.
  std::filesystem::path write(const std::string& name, std::string_view text,
                              unsigned mode = 0600) const;

  // keep: leaves the directory in place at the end, for a failing test to point at.
  void keep() noexcept { keep_ = true; }

 private:
  std::filesystem::path path_;
  bool keep_ = false;
};

// read_text: the whole content of `file` ("" when it cannot be read).
[[nodiscard]] std::string read_text(const std::filesystem::path& file);

// mode_of: the permission bits of `file`.
[[nodiscard]] unsigned mode_of(const std::filesystem::path& file);

}  // namespace petstore::tests

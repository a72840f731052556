#include "adapters/auth/key_file_access.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>

#include "adapters/auth/posix_file.hpp"

namespace petstore::adapters::auth {

domain::Result<std::vector<std::string>> check_key_file_mode(const std::filesystem::path& file,
                                                             unsigned mode) {
  const std::string name = file.string();
  if ((mode & (S_IWGRP | S_IWOTH)) != 0U) {
    return domain::invalid_argument("api-keys", "refusing API key file " + name +
                                                    ": it is writable by group or others "
                                                    "(fix with: chmod 600 " +
                                                    name + ")");
  }
  std::vector<std::string> warnings;
  if ((mode & S_IROTH) != 0U) {
    warnings.push_back("API key file " + name + " is readable by others (fix with: chmod 600 " +
                       name + ")");
  }
  return warnings;
}

domain::Result<KeyFileContents> read_key_file(const std::filesystem::path& file) {
  const UniqueFd fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
  if (!fd.valid()) {
    return io_error("cannot open API key file", file, errno);
  }
  struct stat status {};
  if (::fstat(fd.get(), &status) != 0) {
    return io_error("cannot inspect API key file", file, errno);
  }
  if (!S_ISREG(status.st_mode)) {
    return domain::invalid_argument("api-keys",
                                    "API key file " + file.string() + " is not a regular file");
  }
  auto warnings = check_key_file_mode(file, status.st_mode);
  if (!warnings) {
    return warnings.error();
  }
  auto text = read_all(fd.get(), file);
  if (!text) {
    return text.error();
  }
  return KeyFileContents{std::move(*text), std::move(*warnings)};
}

}  // namespace petstore::adapters::auth

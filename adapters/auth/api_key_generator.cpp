#include "adapters/auth/api_key_generator.hpp"

#include <array>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "adapters/auth/key_digest.hpp"
#include "adapters/auth/key_file_access.hpp"
#include "adapters/auth/key_file_format.hpp"
#include "adapters/auth/posix_file.hpp"
#include "adapters/files/durable_write.hpp"
#include "adapters/files/unique_fd.hpp"

namespace petstore::adapters::auth {
namespace {

constexpr std::size_t random_bytes = 32;

// base64url: RFC 4648 section 5 without padding, made from standard base64.
std::string base64url(const std::array<unsigned char, random_bytes>& bytes) {
  std::array<unsigned char, 4 * ((random_bytes + 2) / 3) + 1> encoded{};
  const int size = EVP_EncodeBlock(encoded.data(), bytes.data(), static_cast<int>(bytes.size()));
  std::string text(reinterpret_cast<const char*>(encoded.data()), static_cast<std::size_t>(size));
  while (!text.empty() && text.back() == '=') {
    text.pop_back();
  }
  for (char& c : text) {
    c = c == '+' ? '-' : c == '/' ? '_' : c;
  }
  return text;
}

// separator_needed: true when `fd`'s file is not empty and its last byte is not a newline, so
// that an appended line would otherwise be glued to a hand-edited last line.
domain::Result<bool> separator_needed(int fd, const std::filesystem::path& file, off_t size) {
  if (size == 0) {
    return false;
  }
  char last = '\n';
  if (::pread(fd, &last, 1, size - 1) != 1) {
    return io_error("cannot read API key file", file, errno);
  }
  return last != '\n';
}

domain::Result<void> append_line(const std::filesystem::path& file, const std::string& line,
                                 std::vector<std::string>& warnings) {
  // Read access too: separator_needed looks at the last byte.
  const files::UniqueFd fd(
      ::open(file.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0600));
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
  auto mode_warnings = check_key_file_mode(file, status.st_mode);
  if (!mode_warnings) {
    return mode_warnings.error();
  }
  warnings = std::move(*mode_warnings);
  const auto separate = separator_needed(fd.get(), file, status.st_size);
  if (!separate) {
    return separate.error();
  }
  // One write for the whole line: O_APPEND keeps it in one piece next to other appenders.
  auto written = files::write_all(fd.get(), *separate ? "\n" + line : line);
  if (!written) {
    return io_error("cannot write", file, written.error().error_number);
  }
  if (auto synced = files::sync_file(fd.get()); !synced) {
    return io_error("cannot write API key file", file, synced.error().error_number);
  }
  // The directory too: a key file this call created must survive a crash as surely as its line.
  if (auto synced = files::sync_directory(files::parent_directory(file)); !synced) {
    return io_error("cannot write API key file", file, synced.error().error_number);
  }
  return {};
}

}  // namespace

domain::Result<std::string> generate_api_key() {
  std::array<unsigned char, random_bytes> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    return domain::make_error(domain::ErrorCode::internal, "",
                              "the random number generator failed");
  }
  std::string key = std::string(api_key_prefix) + base64url(bytes);
  OPENSSL_cleanse(bytes.data(), bytes.size());
  return key;
}

domain::Result<NewApiKey> create_api_key(const std::filesystem::path& file,
                                         std::string_view label) {
  if (auto valid = validate_label(label); !valid) {
    return valid.error();
  }
  auto key = generate_api_key();
  if (!key) {
    return key.error();
  }
  const auto digest = sha256(*key);
  if (!digest) {
    return digest.error();
  }
  NewApiKey created{std::move(*key), principal_id(*digest), {}};
  if (auto appended = append_line(file, format_key_line(*digest, label), created.warnings);
      !appended) {
    return appended.error();
  }
  return created;
}

}  // namespace petstore::adapters::auth

#include "adapters/auth/api_key_generator.hpp"

#include <array>
#include <cerrno>
#include <ctime>
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

// utc_time: `when` as `created=` holds it, e.g. "2026-11-27T22:30:00Z".
std::string utc_time(std::chrono::system_clock::time_point when) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(when);
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  std::array<char, 32> text{};
  const std::size_t size = std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return {text.data(), size};
}

domain::Result<void> append_line(const std::filesystem::path& file, const std::string& line,
                                 std::vector<std::string>& warnings) {
  auto locked = lock_key_file(file, true);
  if (!locked) {
    return locked.error();
  }
  warnings = std::move(locked->warnings);
  const int fd = locked->fd.get();
  const auto separate = separator_needed(fd, file, locked->status.st_size);
  if (!separate) {
    return separate.error();
  }
  if (::lseek(fd, 0, SEEK_END) < 0) {
    return io_error("cannot write API key file", file, errno);
  }
  // One write for the whole line, under the lock: no other `keys new` or `keys revoke` interleaves.
  auto written = files::write_all(fd, *separate ? "\n" + line : line);
  if (!written) {
    return io_error("cannot write", file, written.error().error_number);
  }
  if (auto synced = files::sync_file(fd); !synced) {
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

domain::Result<NewApiKey> create_api_key(const std::filesystem::path& file, std::string_view label,
                                         ports::KeyAccess access,
                                         std::chrono::system_clock::time_point now) {
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
  const std::string line = format_key_line(*digest, label, access, utc_time(now));
  if (auto appended = append_line(file, line, created.warnings); !appended) {
    return appended.error();
  }
  return created;
}

}  // namespace petstore::adapters::auth

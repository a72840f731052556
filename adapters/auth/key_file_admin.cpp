#include "adapters/auth/key_file_admin.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <ctime>
#include <optional>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "adapters/auth/key_digest.hpp"
#include "adapters/auth/key_file_access.hpp"
#include "adapters/files/atomic_file_writer.hpp"

namespace petstore::adapters::auth {
namespace {

constexpr std::size_t random_bytes = 32;

// base64url: RFC 4648 section 5 without padding, made from standard base64.
std::string base64url(const std::array<unsigned char, random_bytes>& bytes) {
  std::array<unsigned char, 4 * ((random_bytes + 2) / 3) + 1> encoded{};
  const int size = EVP_EncodeBlock(encoded.data(), bytes.data(), static_cast<int>(bytes.size()));
  std::string text(reinterpret_cast<const char*>(encoded.data()), static_cast<std::size_t>(size));
  text.erase(text.find_last_not_of('=') + 1);
  std::replace(text.begin(), text.end(), '+', '-');
  std::replace(text.begin(), text.end(), '/', '_');
  return text;
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
  // A hand-edited last line without its newline gets one, so the new line is not glued to it.
  char last = '\n';
  if (locked->status.st_size > 0 && ::pread(fd, &last, 1, locked->status.st_size - 1) != 1) {
    return io_error("cannot read API key file", file, errno);
  }
  if (::lseek(fd, 0, SEEK_END) < 0) {
    return io_error("cannot write API key file", file, errno);
  }
  // One write for the whole line, under the lock: no other `keys new` or `keys revoke` interleaves.
  auto written = files::write_all(fd, last != '\n' ? "\n" + line : line);
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

// digest_prefix_of: the hex digits `which` gives as a digest prefix, or nullopt when it is none.
std::optional<std::string_view> digest_prefix_of(std::string_view which) {
  for (const std::string_view form : {"sha256:", "key-"}) {
    if (which.starts_with(form)) {
      which.remove_prefix(form.size());
      break;
    }
  }
  const bool hex = std::all_of(which.begin(), which.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
  if (!hex || which.size() < min_revoke_prefix || which.size() > 64) {
    return std::nullopt;
  }
  return which;
}

// named_keys: the keys of `keys` that `which` names, by label or by digest prefix.
std::vector<const KeyEntry*> named_keys(const std::vector<KeyEntry>& keys, std::string_view which) {
  const auto prefix = digest_prefix_of(which);
  std::vector<const KeyEntry*> named;
  for (const KeyEntry& key : keys) {
    if ((!which.empty() && key.label == which) ||
        (prefix && to_hex(key.digest).starts_with(*prefix))) {
      named.push_back(&key);
    }
  }
  return named;
}

domain::Error not_one_key(std::string_view which, const std::vector<const KeyEntry*>& named) {
  if (named.empty()) {
    return domain::invalid_argument(
        "key", "no key has the label or digest prefix '" + std::string(which) +
                   "' (a prefix needs at least 8 hex digits; see: petstore keys list)");
  }
  std::string ids;
  for (std::size_t i = 0; i < named.size() && i < 5; ++i) {
    ids += (i == 0 ? "" : ", ") + principal_id(named[i]->digest);
  }
  if (named.size() > 5) {
    ids += ", ...";
  }
  return domain::invalid_argument("key", "'" + std::string(which) + "' names " +
                                             std::to_string(named.size()) + " keys (" + ids +
                                             "): revoke one by its prefix");
}

domain::Error malformed_file(const std::filesystem::path& file, const domain::Error& error) {
  return domain::invalid_argument("api-keys",
                                  "API key file " + file.string() + ": " + error.message);
}

// without_key: `text` without the lines that hold `digest`, every other byte kept.
std::string without_key(std::string_view text, const KeyDigest& digest, std::size_t& removed) {
  std::string kept;
  kept.reserve(text.size());
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::size_t size = end == std::string_view::npos ? text.size() : end + 1;
    const std::string_view line = text.substr(0, size);
    text.remove_prefix(size);
    if (key_of_line(line.substr(0, end == std::string_view::npos ? size : end)) == digest) {
      ++removed;
    } else {
      kept += line;
    }
  }
  return kept;
}

}  // namespace

domain::Result<std::string> generate_api_key() {
  std::array<unsigned char, random_bytes> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
    return domain::make_error(domain::ErrorCode::internal, "",
                              "the random number generator failed");
  }
  std::string key = "pst_" + base64url(bytes);
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

domain::Result<ListedKeys> list_api_keys(const std::filesystem::path& file) {
  auto contents = read_key_file(file);
  if (!contents) {
    return contents.error();
  }
  auto parsed = parse_key_file(contents->text);
  if (!parsed) {
    return malformed_file(file, parsed.error());
  }
  ListedKeys listed{std::move(parsed->keys), std::move(contents->warnings)};
  for (std::string& warning : parsed->warnings) {
    listed.warnings.push_back("API key file " + file.string() + ": " + std::move(warning));
  }
  return listed;
}

domain::Result<RevokedKey> revoke_api_key(const std::filesystem::path& file,
                                          std::string_view which) {
  auto locked = lock_key_file(file, false);
  if (!locked) {
    return locked.error();
  }
  auto text = read_all(locked->fd.get(), file, static_cast<std::size_t>(locked->status.st_size));
  if (!text) {
    return text.error();
  }
  auto parsed = parse_key_file(*text);
  if (!parsed) {
    return malformed_file(file, parsed.error());
  }
  const auto named = named_keys(parsed->keys, which);
  if (named.size() != 1) {
    return not_one_key(which, named);
  }
  RevokedKey revoked{*named.front(), 0, std::move(locked->warnings)};
  const std::string kept = without_key(*text, revoked.key.digest, revoked.lines);
  const auto failed = [&file](const files::FileError& error) {
    return io_error("cannot replace API key file", file, error.error_number);
  };
  auto writer = files::AtomicFileWriter::create(file, locked->status.st_mode & 07777U);
  if (!writer) {
    return failed(writer.error());
  }
  // The owner too: root revoking a key of the service's own file must leave it readable to it.
  if (::fchown(writer->fd(), locked->status.st_uid, locked->status.st_gid) != 0 &&
      (locked->status.st_uid != ::geteuid() || errno != EPERM)) {
    return io_error("cannot keep the owner of API key file", file, errno);
  }
  if (auto written = writer->write(kept); !written) {
    return failed(written.error());
  }
  if (auto committed = writer->commit(); !committed) {
    return failed(committed.error());
  }
  return revoked;
}

}  // namespace petstore::adapters::auth

#include "adapters/auth/key_file_admin.hpp"

#include <algorithm>
#include <cerrno>
#include <optional>
#include <unistd.h>

#include "adapters/auth/key_digest.hpp"
#include "adapters/auth/key_file_access.hpp"
#include "adapters/auth/posix_file.hpp"
#include "adapters/files/atomic_file_writer.hpp"

namespace petstore::adapters::auth {
namespace {

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
  const auto size = static_cast<std::size_t>(locked->status.st_size);
  auto text = read_all(locked->fd.get(), file, max_key_file_size, size);
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

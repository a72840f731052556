#include "bootstrap/config_file.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "bootstrap/config_toml.hpp"

namespace petstore::bootstrap {
namespace {

// config_path: FILE of `serve ... --config FILE` or `--config=FILE`, else $PETSTORE_CONFIG.
std::optional<std::string> config_path(int argc, const char* const* argv) {
  bool serving = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    serving = serving || word == "serve";
    if (serving && word == "--config" && i + 1 < argc) {
      return std::string(argv[i + 1]);
    }
    if (serving && word.starts_with("--config=")) {
      return std::string(word.substr(9));
    }
  }
  // NOLINTNEXTLINE(concurrency-mt-unsafe): read once at start, before any thread
  const char* from_environment = std::getenv("PETSTORE_CONFIG");
  if (serving && from_environment != nullptr && *from_environment != '\0') {
    return std::string(from_environment);
  }
  return std::nullopt;
}

// read_regular_file: the file's text, or why not. Opened without waiting (a FIFO with no writer
// would block for ever) and refused unless regular, so that no other kind is read or waited on.
domain::Result<std::string> read_regular_file(const std::string& path) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg): open(2) is variadic
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    return domain::invalid_argument("config", std::strerror(errno));
  }
  struct stat about {};
  std::string text;
  std::string why;
  if (::fstat(fd, &about) != 0) {
    why = std::strerror(errno);
  } else if (!S_ISREG(about.st_mode)) {
    why = S_ISDIR(about.st_mode) ? "a directory, not a file" : "not a regular file";
  } else {
    char buffer[4096];
    for (ssize_t got = 0; (got = ::read(fd, buffer, sizeof buffer)) != 0;) {
      if (got < 0 && errno != EINTR) {
        why = std::strerror(errno);
        break;
      }
      text.append(buffer, static_cast<std::size_t>(std::max<ssize_t>(got, 0)));
    }
  }
  ::close(fd);
  if (!why.empty()) {
    return domain::invalid_argument("config", why);
  }
  return text;
}

// is_unset: no value, or an empty one, which CLI11 also reads as none.
bool is_unset(const std::string& variable) {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): at start, before any thread
  const char* value = std::getenv(variable.c_str());
  return value == nullptr || *value == '\0';
}

}  // namespace

std::optional<std::string> apply_config_file(const CLI::App& serve, int argc,
                                             const char* const* argv) {
  const auto path = config_path(argc, argv);
  if (!path) {
    return std::nullopt;
  }
  const auto text = read_regular_file(*path);
  if (!text) {
    return "--config " + *path + ": " + text.error().message;
  }
  const auto entries = parse_toml(*text);
  if (!entries) {
    return "--config " + *path + ": " + entries.error().message;
  }
  for (const TomlEntry& entry : *entries) {
    const CLI::Option* option = serve.get_option_no_throw("--" + entry.key);
    if (option == nullptr || option->get_envname().empty() || entry.key == "config") {
      return "--config " + *path + ": line " + std::to_string(entry.line) + ", column " +
             std::to_string(entry.column) + ": '" + entry.key +
             "' is not a serve flag (keys are the flags without --, e.g. listen)";
    }
    std::string value;
    for (const std::string& input : entry.values) {
      value += (value.empty() ? "" : ",") + input;
    }
    // An environment variable already set wins over the file; an empty one counts as unset.
    if (is_unset(option->get_envname())) {
      // NOLINTNEXTLINE(concurrency-mt-unsafe): at start, before any thread
      ::setenv(option->get_envname().c_str(), value.c_str(), 1);
    }
  }
  return std::nullopt;
}

}  // namespace petstore::bootstrap

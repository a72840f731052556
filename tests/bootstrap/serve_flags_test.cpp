// The words of --log-format and --log-level, parsed by `serve`'s own flags: each word is its own
// enum value, and another word is refused, naming the flag.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

#include "bootstrap/serve_command_line.hpp"

namespace petstore::bootstrap {
namespace {

using adapters::logging::LogFormat;
using adapters::logging::LogLevel;

// parsed: the options `serve --api-keys keys FLAG WORD` reads, or its refusal's words.
std::variant<ServeOptions, std::string> parsed(const std::string& flag, const std::string& word) {
  CLI::App serve;
  ServeOptions options;
  ServeFlags flags;
  add_serve_flags(serve, options, flags);
  std::vector<std::string> args{word, flag, "keys", "--api-keys"};  // CLI11 takes them last first
  try {
    serve.parse(args);
  } catch (const CLI::ParseError& refused) {
    return std::string(refused.what());
  }
  return options;
}

std::optional<LogFormat> format_of(const std::string& word) {
  const auto result = parsed("--log-format", word);
  if (const auto* options = std::get_if<ServeOptions>(&result)) {
    return options->log_format;
  }
  return std::nullopt;
}

std::optional<LogLevel> level_of(const std::string& word) {
  const auto result = parsed("--log-level", word);
  if (const auto* options = std::get_if<ServeOptions>(&result)) {
    return options->log_level;
  }
  return std::nullopt;
}

std::string refusal_of(const std::string& flag, const std::string& word) {
  const auto result = parsed(flag, word);
  const auto* refusal = std::get_if<std::string>(&result);
  return refusal != nullptr ? *refusal : "";
}

TEST(ServeFlags, EachLogFormatWordIsItsOwnFormat) {
  EXPECT_EQ(format_of("json"), LogFormat::json);
  EXPECT_EQ(format_of("text"), LogFormat::text);
  EXPECT_EQ(refusal_of("--log-format", "xml"), "--log-format: xml not in {json,text}");
}

TEST(ServeFlags, EachLogLevelWordIsItsOwnLevel) {
  EXPECT_EQ(level_of("debug"), LogLevel::debug);
  EXPECT_EQ(level_of("info"), LogLevel::info);
  EXPECT_EQ(level_of("warn"), LogLevel::warn);
  EXPECT_EQ(level_of("error"), LogLevel::error);
  EXPECT_EQ(refusal_of("--log-level", "warning"),
            "--log-level: warning not in {debug,info,warn,error}");
}

}  // namespace
}  // namespace petstore::bootstrap

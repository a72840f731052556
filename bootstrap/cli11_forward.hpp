#pragma once
// CLI11's classes that bootstrap's headers name, declared without CLI11's header (which is
// large): only the .cpp files that add flags include <CLI/CLI.hpp>.

namespace CLI {  // NOLINT(readability-identifier-naming): CLI11's own namespace
class App;
class Option;
}  // namespace CLI

#pragma once
// The build's version and commit, as CMake stamped them into version.cpp, for /metrics, logs and
// --version.

namespace petstore::bootstrap {

[[nodiscard]] const char* build_version();
[[nodiscard]] const char* build_commit();

// version_text: "petstore 1.0.0 (interface 1.0.0, build <commit>, <build type>)".
[[nodiscard]] const char* version_text();

}  // namespace petstore::bootstrap

#pragma once
// The build's version and commit, as CMake stamped them into version.cpp, for /metrics and logs.

namespace petstore::bootstrap {

[[nodiscard]] const char* build_version();
[[nodiscard]] const char* build_commit();

}  // namespace petstore::bootstrap

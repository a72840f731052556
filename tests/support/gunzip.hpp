#pragma once
// gunzip: a gzip body back to its bytes, for tests of the responses the server compresses.

#include <optional>
#include <string>
#include <string_view>

namespace petstore::tests {

// gunzip: the bytes `gzipped` holds (one whole gzip member, at most 16 MiB inflated), or nullopt
// when it is no valid gzip or has bytes after the member.
[[nodiscard]] std::optional<std::string> gunzip(std::string_view gzipped);

}  // namespace petstore::tests

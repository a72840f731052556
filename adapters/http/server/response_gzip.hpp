#pragma once
// gzip for large responses: a body over gzip_threshold_bytes goes out gzipped, with zlib at its
// fastest level, to a client whose Accept-Encoding takes gzip (accept_encoding.hpp), and with
// Vary: Accept-Encoding whether or not it was. Smaller bodies (an error, a pet, a short page) are
// left alone: a few hundred bytes gain little and would cost a compressor's set-up each time.

#include <cstddef>
#include <string_view>

#include "adapters/http/api/http_message.hpp"

namespace petstore::adapters::http {

inline constexpr std::size_t gzip_threshold_bytes = 1024;

// compressible: whether the server may gzip `response`: a body over the threshold, with a status
// that has content, and not already the sender's own representation (a Content-Encoding or an
// ETag: the /docs assets gzip themselves, once, and tag each form).
[[nodiscard]] bool compressible(const HttpResponse& response);

// gzip_fast: `bytes` in gzip format at zlib's fastest level, in a buffer of the calling thread
// that stays valid until its next call; empty when zlib failed. The compressor's state (about
// 260 KiB) is made once per thread and reset for each body.
[[nodiscard]] std::string_view gzip_fast(std::string_view bytes);

}  // namespace petstore::adapters::http

#include "support/gunzip.hpp"

#include <zlib.h>

namespace petstore::tests {

std::optional<std::string> gunzip(std::string_view gzipped) {
  z_stream stream{};
  constexpr int gzip_only = 15 + 16;
  if (inflateInit2(&stream, gzip_only) != Z_OK) {
    return std::nullopt;
  }
  std::string out(std::size_t{16} << 20U, '\0');
  // zlib's interface is not const-correct; it only reads the input.
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gzipped.data()));
  stream.avail_in = static_cast<uInt>(gzipped.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int result = inflate(&stream, Z_FINISH);
  const bool whole = result == Z_STREAM_END && stream.avail_in == 0;
  out.resize(stream.total_out);
  inflateEnd(&stream);
  if (!whole) {
    return std::nullopt;
  }
  return out;
}

}  // namespace petstore::tests

// Fuzzes the framing the server enforces around Beast's parser
// (adapters/http/server/request_framing): the bytes arrive in reads of a size the first byte
// chooses and are fed as the session feeds them: the head, check_head, the body. Oracles: the
// read buffer never passes its ceiling; a body never passes its limit; a refusal is an Error of
// status 400 or 501 with a printable message; trailer fields add nothing to the head's fields,
// nor change what the router reads of them.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <string_view>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>

#include "adapters/http/server/request_framing.hpp"

#include "fuzz/fuzz_support.hpp"

namespace {

using petstore::tests::fuzz::expect;
namespace http = petstore::adapters::http;
namespace bhttp = boost::beast::http;

constexpr std::size_t header_bytes = 1024;
constexpr std::size_t body_bytes = 2048;

// Input: the bytes a client sends, delivered a read at a time.
class Input {
 public:
  Input(std::string_view bytes, std::size_t read_size) : bytes_(bytes), read_size_(read_size) {}

  // read_into: appends at most one read to `buffer`; false when nothing is left or it is full.
  bool read_into(boost::beast::flat_buffer& buffer) {
    const std::size_t room = buffer.max_size() - buffer.size();
    const std::size_t size = std::min({read_size_, room, bytes_.size()});
    if (size == 0) {
      return false;
    }
    const auto copied =
        boost::asio::buffer_copy(buffer.prepare(size), boost::asio::buffer(bytes_.data(), size));
    buffer.commit(copied);
    bytes_.remove_prefix(size);
    return true;
  }

 private:
  std::string_view bytes_;
  std::size_t read_size_;
};

// read: feed_parser until it is done or fails, reading whenever it needs more.
boost::system::error_code read(http::RequestParser& parser, boost::beast::flat_buffer& buffer,
                               Input& input, bool whole_message) {
  for (;;) {
    const auto fed = http::feed_parser(parser, buffer, whole_message, header_bytes);
    expect(buffer.size() <= buffer.max_size(), "the read buffer stays under its ceiling");
    if (fed != bhttp::error::need_more || !input.read_into(buffer)) {
      return fed;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  Input input(petstore::tests::fuzz::as_text(data + 1, size - 1), std::size_t{data[0]} * 4 + 1);
  boost::beast::flat_buffer buffer{http::read_buffer_ceiling(header_bytes)};
  input.read_into(buffer);
  http::skip_empty_lines(buffer);
  std::pmr::monotonic_buffer_resource memory;
  http::RequestParser parser(memory);
  parser.header_limit(static_cast<std::uint32_t>(header_bytes));
  parser.body_limit(body_bytes);
  if (read(parser, buffer, input, false)) {
    return 0;
  }
  const http::HeadVerdict verdict = http::check_head(parser);
  if (verdict.refusal) {
    expect(verdict.refusal->status == 400 || verdict.refusal->status == 501,
           "a refused head is a 400 or a 501");
    expect(petstore::tests::fuzz::is_printable_ascii(verdict.refusal->body),
           "a refusal's body is printable");
    return 0;
  }
  const std::size_t head_fields = parser.head_field_count();
  const http::HttpRequest head = parser.request();
  if (read(parser, buffer, input, true)) {
    return 0;
  }
  expect(parser.body().size() <= body_bytes, "a body is held to its limit");
  expect(parser.head_field_count() == head_fields, "trailer fields are not header fields");
  const http::HttpRequest whole = parser.request();
  expect(whole.authorization == head.authorization && whole.content_type == head.content_type &&
             whole.idempotency_key == head.idempotency_key &&
             whole.forwarded_for == head.forwarded_for,
         "trailer fields change nothing the router reads");
  return 0;
}

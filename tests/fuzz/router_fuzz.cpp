// Fuzzes the whole request-to-response path in process: the Router of the component service
// (memory storage, a fresh service per input). The input is up to 8 requests separated by NUL
// bytes; each is a request line `METHOD TARGET`, header lines `Name: value`, an empty line and
// the body. Authorization, Content-Type and Idempotency-Key are read (each may repeat); the
// keys `k` and `key2` are accepted. Oracles: every request is answered exactly once; the status
// is one the router may give by the contract, never a 5xx but 501 for listOrders; a non-2xx body
// is exactly the Error object with its status; /v1 responses carry Cache-Control: no-store and
// X-Content-Type-Options: nosniff; a 201 is a Pet at its Location with a fresh, larger id.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <boost/url/parse.hpp>

#include "adapters/http/api/http_message.hpp"
#include "bootstrap/service.hpp"
#include "support/fake_clock.hpp"

#include "fuzz/fuzz_key_verifier.hpp"
#include "fuzz/fuzz_support.hpp"

namespace {

using petstore::adapters::http::HttpRequest;
using petstore::adapters::http::HttpResponse;
using petstore::tests::fuzz::expect;

constexpr std::size_t max_requests = 8;

bool same_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) {
      return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
    };
    if (lower(a[i]) != lower(b[i])) {
      return false;
    }
  }
  return true;
}

void set_field(std::optional<std::string_view>& field, bool& repeated, std::string_view value) {
  repeated = repeated || field.has_value();
  field = value;
}

// frame: the request that `text` describes, viewing its bytes.
HttpRequest frame(std::string_view text) {
  HttpRequest request;
  request.client_address = "192.0.2.1";
  const std::size_t head_end = text.find("\n\n");
  std::string_view head = text.substr(0, head_end);
  request.body =
      head_end == std::string_view::npos ? std::string_view{} : text.substr(head_end + 2);
  const std::string_view line = head.substr(0, head.find('\n'));
  head.remove_prefix(std::min(head.size(), line.size() + 1));
  const std::size_t space = line.find(' ');
  request.method = line.substr(0, space);
  request.target = space == std::string_view::npos ? std::string_view{} : line.substr(space + 1);
  bool ignored = false;
  while (!head.empty()) {
    const std::string_view field = head.substr(0, head.find('\n'));
    head.remove_prefix(std::min(head.size(), field.size() + 1));
    const std::size_t colon = field.find(':');
    if (colon == std::string_view::npos) {
      continue;
    }
    const std::string_view name = field.substr(0, colon);
    std::string_view value = field.substr(colon + 1);
    value.remove_prefix(std::min(value.size(), value.find_first_not_of(" \t")));
    if (same_ignoring_case(name, "Authorization")) {
      set_field(request.authorization, request.authorization_repeated, value);
    } else if (same_ignoring_case(name, "Content-Type")) {
      set_field(request.content_type, ignored, value);
    } else if (same_ignoring_case(name, "Idempotency-Key")) {
      set_field(request.idempotency_key, request.idempotency_key_repeated, value);
    }
  }
  return request;
}

// under_v1: whether the target's path is /v1 or below, read without the router's URL parser.
bool under_v1(std::string_view target) {
  if (const auto url = boost::urls::parse_absolute_uri(target); url) {
    target = url->encoded_path();
  }
  const std::string_view path = target.substr(0, target.find_first_of("?#"));
  return path == "/v1" || path.starts_with("/v1/");
}

std::string_view expected_code(unsigned status, std::string_view code) {
  switch (status) {
    case 400:
      return code == "invalid_json" || code == "validation_failed" ? code : "invalid_parameter";
    case 401:
      return "unauthorized";
    case 404:
      return "not_found";
    case 405:
      return "method_not_allowed";
    case 415:
      return "unsupported_media_type";
    case 422:
      return "idempotency_key_reused";
    case 429:
      return "too_many_requests";
    case 501:
      return "not_implemented";
    default:
      return {};
  }
}

void check_error(const HttpResponse& response) {
  boost::json::error_code ec;
  const boost::json::value body = boost::json::parse(response.body, ec);
  expect(!ec && body.is_object() && body.get_object().size() == 3,
         "an error body is a JSON object of three members");
  const auto& error = body.get_object();
  const auto* code = error.if_contains("code");
  const auto* message = error.if_contains("message");
  const auto* status = error.if_contains("status");
  expect(code != nullptr && code->is_string() && message != nullptr && message->is_string() &&
             status != nullptr && status->is_int64(),
         "an error body has code, message and status");
  expect(status->get_int64() == response.status, "an error body's status is the HTTP status");
  const std::string_view code_text = code->get_string();
  expect(code_text == expected_code(response.status, code_text), "an error code fits its status");
  const std::string_view message_text = message->get_string();
  expect(!message_text.empty() && petstore::tests::fuzz::is_printable_ascii(message_text),
         "an error message is non-empty printable ASCII");
  expect(response.status != 401 || response.header("WWW-Authenticate"),
         "a 401 carries WWW-Authenticate");
  expect(response.status != 405 || response.header("Allow"), "a 405 carries Allow");
  expect(response.status != 429 || response.header("Retry-After"), "a 429 carries Retry-After");
}

// check_created: a 201 is a new pet with an id larger than any before, or the repeat of a
// create with an Idempotency-Key, which answers a pet created before.
void check_created(const HttpRequest& request, const HttpResponse& response,
                   std::vector<std::int64_t>& created) {
  boost::json::error_code ec;
  const boost::json::value body = boost::json::parse(response.body, ec);
  expect(!ec && body.is_object() && body.get_object().size() == 4, "a 201 body is a Pet");
  const auto* id_value = body.get_object().if_contains("id");
  expect(id_value != nullptr && id_value->is_int64(), "a Pet's id is an integer");
  const std::int64_t id = id_value->get_int64();
  if (created.empty() || id > created.back()) {
    created.push_back(id);
  } else {
    expect(
        request.idempotency_key && std::find(created.begin(), created.end(), id) != created.end(),
        "a new pet's id is larger than any before, unless the create was a repeat");
  }
  expect(response.header("Location") == "/v1/pets/" + std::to_string(id),
         "a 201 carries the pet's Location");
}

void check(const HttpRequest& request, const HttpResponse& response,
           std::vector<std::int64_t>& created) {
  const unsigned status = response.status;
  const bool expected_status = status == 200 || status == 201 || !expected_code(status, "").empty();
  expect(expected_status, "the status is one the router may answer (never a 5xx but 501)");
  if (under_v1(request.target)) {
    expect(response.header("Cache-Control") == "no-store" &&
               response.header("X-Content-Type-Options") == "nosniff",
           "a /v1 response carries Cache-Control: no-store and nosniff");
  }
  if (status >= 300) {
    check_error(response);
  } else if (status == 201) {
    check_created(request, response, created);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto service = petstore::bootstrap::build_component_service(
      std::make_unique<petstore::tests::fuzz::FuzzKeyVerifier>(),
      std::make_unique<petstore::tests::FakeClock>());
  std::string_view input = petstore::tests::fuzz::as_text(data, size);
  std::vector<std::int64_t> created;  // ids of the pets created, ascending
  for (std::size_t sent = 0; sent < max_requests && !input.empty(); ++sent) {
    const std::string_view text = input.substr(0, input.find('\0'));
    input.remove_prefix(std::min(input.size(), text.size() + 1));
    const HttpRequest request = frame(text);
    std::vector<HttpResponse> later;
    service->router().handle(
        request, [&later](HttpResponse response) { later.push_back(std::move(response)); });
    // Memory storage completes every call before it returns, so the answer is here by now.
    expect(later.size() == 1, "every request is answered exactly once");
    check(request, later.front(), created);
  }
  return 0;
}

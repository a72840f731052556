#include "adapters/http/router.hpp"

#include <string>
#include <utility>

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include "adapters/http/api_reference.hpp"
#include "adapters/http/credentials.hpp"
#include "adapters/http/error_response.hpp"
#include "adapters/http/pet_endpoints.hpp"

namespace petstore::adapters::http {
namespace {

HttpResponse method_not_allowed(std::string_view allow) {
  HttpResponse response =
      error_response(405, "method_not_allowed", "this path does not support the method sent");
  response.set_header("Allow", std::string(allow));
  return response;
}

HttpResponse not_found_path() { return error_response(404, "not_found", "no such path"); }

// Every response under /v1 is private to its key holder and is never to be sniffed.
void add_v1_headers(HttpResponse& response) {
  response.set_header("Cache-Control", "no-store");
  response.set_header("X-Content-Type-Options", "nosniff");
}

boost::system::result<boost::urls::url_view> parse_target(std::string_view target) {
  if (!target.empty() && target.front() == '/') {
    return boost::urls::parse_origin_form(target);
  }
  return boost::urls::parse_absolute_uri(target);
}

bool is_under_v1(std::string_view encoded_path) {
  return encoded_path == "/v1" || encoded_path.starts_with("/v1/");
}

// The route template of an operational path: a literal, or empty when none matches.
std::string_view operational_route(std::string_view path, const RouterOptions& options) {
  for (const std::string_view route :
       {"/healthz", "/readyz", "/openapi.json", "/docs", "/docs/redoc.standalone.js"}) {
    if (path == route) {
      return route;
    }
  }
  if (path == "/metrics" && options.metrics) {
    return "/metrics";
  }
  return "";
}

HttpResponse metrics_response(const RouterOptions& options) {
  HttpResponse response;
  response.body = options.metrics();
  response.set_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
  response.set_header("Cache-Control", "no-store");
  return response;
}

HttpResponse operational(const HttpRequest& request, std::string_view path,
                         const RouterOptions& options) {
  const bool api_reference = is_api_reference_path(path);
  const bool metrics = path == "/metrics" && options.metrics;
  if (path != "/healthz" && path != "/readyz" && !api_reference && !metrics) {
    return not_found_path();
  }
  if (request.method != "GET") {
    return method_not_allowed("GET");
  }
  if (api_reference) {
    return api_reference_response(path);
  }
  if (metrics) {
    return metrics_response(options);
  }
  HttpResponse response;
  if (path == "/healthz") {
    response.body = R"({"status":"ok"})";
  } else if (options.is_ready()) {
    response.body = R"({"status":"ready"})";
  } else {
    response = error_response(503, "unavailable", "the service is starting or shutting down");
  }
  response.set_header("Cache-Control", "no-store");
  return response;
}

// An operation that needs storage answers later, through `respond`: the response gets the /v1
// headers and `route` then.
Respond with_v1_headers(const Respond& respond, std::string_view route) {
  return [respond, route](HttpResponse later) {
    add_v1_headers(later);
    later.route = route;
    respond(std::move(later));
  };
}

// The routing step of contract section 2, on the decoded segments after "/v1": a response known
// at once, or nullopt when the operation answers through `respond`. Without `respond`, only a
// create's head is checked: the other operations have no body to wait for.
std::optional<HttpResponse> route_v1(const application::UseCases& use_cases,
                                     const ports::Principal& principal, const HttpRequest& request,
                                     const boost::urls::url_view& url, std::string_view route,
                                     const Respond* respond) {
  const auto segments = url.segments();
  auto segment = segments.begin();
  ++segment;  // "v1"
  const auto remaining = static_cast<std::size_t>(std::distance(segment, segments.end()));
  const bool get = request.method == "GET";
  if (remaining == 1 && *segment == "pets") {
    if (request.method == "POST") {
      if (respond == nullptr) {
        return refuse_create_head(request);
      }
      create_pet(use_cases.create_pet, principal, request, with_v1_headers(*respond, route));
      return std::nullopt;
    }
    if (respond == nullptr) {
      return std::nullopt;
    }
    if (get) {
      list_pets(use_cases.list_pets, url.params(), with_v1_headers(*respond, route));
      return std::nullopt;
    }
    return method_not_allowed("GET, POST");
  }
  if (respond == nullptr) {
    return std::nullopt;
  }
  if (remaining == 2 && *segment == "pets") {
    const std::string pet_id = *++segment;
    if (pet_id.empty()) {
      return not_found_path();  // "/v1/pets/": a trailing slash names no resource
    }
    if (!get) {
      return method_not_allowed("GET");
    }
    get_pet(use_cases.get_pet, pet_id, with_v1_headers(*respond, route));
    return std::nullopt;
  }
  if (remaining == 2 && *segment == "store" && *++segment == "orders") {
    return get ? list_orders(use_cases.list_orders) : method_not_allowed("GET");
  }
  return not_found_path();
}

// The route template of a path under /v1 (the segments after "v1"), or empty.
std::string_view v1_route(const boost::urls::url_view& url) {
  const auto segments = url.segments();
  auto segment = segments.begin();
  ++segment;  // "v1"
  const auto remaining = static_cast<std::size_t>(std::distance(segment, segments.end()));
  if (remaining == 1 && *segment == "pets") {
    return "/v1/pets";
  }
  if (remaining == 2 && *segment == "pets") {
    return (*++segment).empty() ? "" : "/v1/pets/{petId}";
  }
  if (remaining == 2 && *segment == "store" && *++segment == "orders") {
    return "/v1/store/orders";
  }
  return "";
}

}  // namespace

Router::Router(const application::UseCases& use_cases, RouterOptions options)
    : use_cases_(use_cases), options_(std::move(options)) {}

void Router::handle(const HttpRequest& request, const Respond& respond) const {
  if (auto answered = dispatch(request, &respond)) {
    respond(std::move(*answered));
  }
}

std::optional<HttpResponse> Router::screen_head(const HttpRequest& head) const {
  return dispatch(head, nullptr);
}

std::optional<HttpResponse> Router::dispatch(const HttpRequest& request,
                                             const Respond* respond) const {
  const auto url = parse_target(request.target);
  // A target that is no valid URI but names a path under /v1 still authenticates first and gets
  // the /v1 headers (contract section 2).
  const std::string_view path = url ? std::string_view(url->encoded_path())
                                    : request.target.substr(0, request.target.find_first_of("?#"));
  if (!url && !is_under_v1(path)) {
    return error_response(400, "invalid_parameter", "the request target is not a valid URI");
  }
  if (url && !is_under_v1(path)) {
    if (respond == nullptr) {
      return std::nullopt;  // no operational path takes a body
    }
    HttpResponse response = operational(request, url->encoded_path(), options_);
    response.route = operational_route(url->encoded_path(), options_);
    return response;
  }
  const std::string_view route = url ? v1_route(*url) : std::string_view{};
  const Credentials credentials =
      read_credentials(request.authorization, request.authorization_repeated);
  std::optional<std::string_view> token;
  if (credentials.kind == Credentials::Kind::bearer) {
    token = credentials.token;
  }
  const auto principal = use_cases_.authenticate(
      application::Credential{token, credentials.kind == Credentials::Kind::malformed,
                              request.client_address},
      request.accepted_key);
  std::optional<HttpResponse> response;
  if (!principal) {
    response = error_response(principal.error(), "invalid_parameter");
  } else if (!url) {
    response = error_response(400, "invalid_parameter", "the request target is not a valid URI");
  } else {
    response = route_v1(use_cases_, *principal, request, *url, route, respond);
  }
  if (response) {
    add_v1_headers(*response);
    response->route = route;
  }
  return response;
}

}  // namespace petstore::adapters::http

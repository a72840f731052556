#include "adapters/http/router.hpp"

#include <string>
#include <utility>

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include "adapters/http/api_reference.hpp"
#include "adapters/http/cors_headers.hpp"
#include "adapters/http/credentials.hpp"
#include "adapters/http/error_response.hpp"
#include "adapters/http/pet_endpoints.hpp"
#include "adapters/http/routes.hpp"

namespace petstore::adapters::http {
namespace {

HttpResponse method_not_allowed(const Route& route) {
  HttpResponse response =
      error_response(405, "method_not_allowed", "this path does not support the method sent");
  response.set_header("Allow", route.allow());
  return response;
}

HttpResponse not_found_path() { return error_response(404, "not_found", "no such path"); }

boost::system::result<boost::urls::url_view> parse_target(std::string_view target) {
  if (!target.empty() && target.front() == '/') {
    return boost::urls::parse_origin_form(target);
  }
  return boost::urls::parse_absolute_uri(target);
}

// is_under_v1: whether a path that fits no route is still under /v1 (and so authenticates
// first), judged as routes are matched: by its first segment, decoded.
bool is_under_v1(const boost::urls::segments_encoded_view& segments) {
  return !segments.empty() && **segments.begin() == "v1";
}

// A target that is no valid URI, judged by its raw path.
bool is_under_v1(std::string_view raw_path) {
  return raw_path == "/v1" || raw_path.starts_with("/v1/");
}

HttpResponse metrics_response(const RouterOptions& options) {
  HttpResponse response;
  response.body = options.metrics();
  response.set_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
  response.set_header("Cache-Control", "no-store");
  return response;
}

HttpResponse probe_response(Endpoint endpoint, const RouterOptions& options) {
  HttpResponse response;
  if (endpoint == Endpoint::health) {
    response.body = R"({"status":"ok"})";
  } else {
    switch (options.readiness()) {
      case Readiness::ready:
        response.body = R"({"status":"ready"})";
        break;
      case Readiness::not_serving:
        response = error_response(503, "unavailable", "the service is starting or shutting down");
        break;
      case Readiness::storage_unavailable:
        response = error_response(503, "unavailable", "the storage is unavailable");
        break;
    }
  }
  response.set_header("Cache-Control", "no-store");
  return response;
}

// operational: the answer on a path outside /v1 (no key needed, none storage-bound).
HttpResponse operational(const HttpRequest& request, const RouteMatch* match,
                         const Operation* operation, const RouterOptions& options) {
  if (match == nullptr) {
    return not_found_path();
  }
  if (operation == nullptr) {
    return method_not_allowed(*match->route);
  }
  switch (match->route->endpoint) {
    case Endpoint::health:
    case Endpoint::readiness:
      return probe_response(match->route->endpoint, options);
    case Endpoint::metrics:
      return metrics_response(options);
    default:
      return api_reference_response(match->route->endpoint, request);
  }
}

// perform_v1: runs an authenticated, routed /v1 operation: a response known at once, or nullopt
// when it answers through `respond` (moved from). Without `respond`, only a create's head is
// checked: the other operations have no body to wait for.
std::optional<HttpResponse> perform_v1(const application::UseCases& use_cases,
                                       const ports::Principal& principal,
                                       const HttpRequest& request, const boost::urls::url_view& url,
                                       const RouteMatch& match, Respond* respond) {
  const bool create = match.route->endpoint == Endpoint::pets && request.method == "POST";
  if (respond == nullptr) {
    return create ? refuse_create_head(request) : std::nullopt;
  }
  switch (match.route->endpoint) {
    case Endpoint::pets:
      if (create) {
        create_pet(use_cases.create_pet, principal, request, std::move(*respond));
      } else {
        list_pets(use_cases.list_pets, url.params(), request.storage_deadline, std::move(*respond));
      }
      return std::nullopt;
    case Endpoint::pet:
      get_pet(use_cases.get_pet, match.parameter, request.storage_deadline, std::move(*respond));
      return std::nullopt;
    default:
      return list_orders(use_cases.list_orders);
  }
}

}  // namespace

Router::Router(const application::UseCases& use_cases, RouterOptions options)
    : use_cases_(use_cases), options_(std::move(options)) {}

RequestFacts Router::handle(const HttpRequest& request, Respond respond) const {
  RequestFacts facts;
  if (auto answered = dispatch(request, &respond, facts)) {
    respond(std::move(*answered));  // not moved from: only an answer given later takes it
  }
  return facts;
}

std::optional<HttpResponse> Router::screen_head(const HttpRequest& head) const {
  RequestFacts facts;
  return dispatch(head, nullptr, facts);
}

void Router::add_cors_headers(const HttpRequest& request, HttpResponse& response) const {
  http::add_cors_headers(options_.cors, request, response);
}

std::optional<HttpResponse> Router::dispatch(const HttpRequest& request, Respond* respond,
                                             RequestFacts& facts) const {
  const auto url = parse_target(request.target);
  std::optional<RouteMatch> match;
  if (url) {
    match = match_route(url->encoded_segments());
    if (match && match->route->endpoint == Endpoint::metrics && !options_.metrics) {
      match.reset();  // served only when the service has metrics to show
    }
  }
  const Operation* operation = match ? match->route->operation(request.method) : nullptr;
  facts.route = match ? match->route->path : "";
  facts.operation = operation ? operation->id : "";
  facts.client_address = application::client_address(request.client_address, request.forwarded_for,
                                                     options_.trusted_proxies);
  // A browser's preflight carries no key: a listed origin's is answered before authentication.
  if (match && respond != nullptr) {
    if (auto preflight = answer_preflight(options_.cors, request, *match->route)) {
      return preflight;
    }
  }
  // A target that is no valid URI but names a path under /v1 still authenticates first and gets
  // the /v1 headers (contract section 2).
  const bool under_v1 =
      match ? match->route->under_v1
      : url ? is_under_v1(url->encoded_segments())
            : is_under_v1(request.target.substr(0, request.target.find_first_of("?#")));
  if (!under_v1) {
    if (!url) {
      return error_response(400, "invalid_parameter", "the request target is not a valid URI");
    }
    if (respond == nullptr) {
      return std::nullopt;  // no operational path takes a body
    }
    return operational(request, match ? &*match : nullptr, operation, options_);
  }
  const Credentials credentials =
      read_credentials(request.authorization, request.authorization_repeated);
  std::optional<std::string_view> token;
  if (credentials.kind == Credentials::Kind::bearer) {
    token = credentials.token;
  }
  auto principal = use_cases_.authenticate(
      application::Credential{token, credentials.kind == Credentials::Kind::malformed,
                              facts.client_address},
      request.accepted_key);
  std::optional<HttpResponse> response;
  if (!principal) {
    response = error_response(principal.error(), "invalid_parameter");
  } else if (!url) {
    response = error_response(400, "invalid_parameter", "the request target is not a valid URI");
  } else if (!match) {
    response = not_found_path();
  } else if (operation == nullptr) {
    response = method_not_allowed(*match->route);
  } else {
    response = perform_v1(use_cases_, *principal, request, *url, *match, respond);
  }
  if (response) {
    add_v1_headers(*response);
  }
  if (principal) {
    facts.principal = std::move(principal->id);  // the operation has taken what it needs of it
  }
  return response;
}

}  // namespace petstore::adapters::http

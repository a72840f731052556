#include "adapters/http/api/router.hpp"

#include <string>
#include <utility>

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include "adapters/http/api/cors_policy.hpp"
#include "adapters/http/api/credentials.hpp"
#include "adapters/http/api/error_response.hpp"
#include "adapters/http/api/pet_endpoints.hpp"
#include "adapters/http/api/routes.hpp"
#include "adapters/http/api/static_asset.hpp"
#include "application/authenticate.hpp"

namespace petstore::adapters::http {
namespace {

HttpResponse method_not_allowed(const Route& route) {
  HttpResponse response =
      error_response(405, "method_not_allowed", "this path does not support the method sent");
  response.set_header("Allow", route.allow());
  return response;
}

HttpResponse not_found_path() { return error_response(404, "not_found", "no such path"); }

bool is_create(const HttpRequest& request, const RouteMatch& match) {
  return match.route->endpoint == Endpoint::pets && request.method == "POST";
}

// operational: the answer on a path outside /v1 (no key needed, none storage-bound). The probes
// (/metrics, /healthz, /readyz) are never cached.
HttpResponse operational(const HttpRequest& request, const RouteMatch* match,
                         const Operation* operation, const RouterOptions& options) {
  if (match == nullptr) {
    return not_found_path();
  }
  if (operation == nullptr) {
    return method_not_allowed(*match->route);
  }
  HttpResponse response;
  switch (match->route->endpoint) {
    case Endpoint::health:
      response.body = R"({"status":"ok"})";
      break;
    case Endpoint::readiness:
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
      break;
    case Endpoint::metrics:
      response.body = options.metrics();
      response.set_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      break;
    default:
      return api_reference_response(match->route->endpoint, request);
  }
  response.set_header("Cache-Control", "no-store");
  return response;
}

// perform_v1: a response known at once, or nullopt when it answers through `respond` (moved from).
std::optional<HttpResponse> perform_v1(const application::UseCases& use_cases,
                                       const ports::Principal& principal,
                                       const HttpRequest& request, const boost::urls::url_view& url,
                                       const RouteMatch& match, Respond& respond) {
  switch (match.route->endpoint) {
    case Endpoint::pets:
      if (is_create(request, match)) {
        create_pet(use_cases.create_pet, principal, request, std::move(respond));
      } else {
        list_pets(use_cases.list_pets, url.params(), request, std::move(respond));
      }
      return std::nullopt;
    case Endpoint::pet:
      get_pet(use_cases.get_pet, match.parameter, request, std::move(respond));
      return std::nullopt;
    default:
      return list_orders(use_cases.list_orders);
  }
}

}  // namespace

Router::Router(const application::UseCases& use_cases, RouterOptions options)
    : use_cases_(use_cases), options_(std::move(options)) {}

// Router::Step: what routing finds from a request's head, with any refusal it already earns.
// Without one the request is operational (not under /v1) or an authenticated /v1 operation.
struct Router::Step {
  RequestFacts facts;
  std::optional<boost::urls::url_view> url;
  std::optional<RouteMatch> match;
  const Operation* operation = nullptr;
  bool under_v1 = false;
  std::optional<ports::Principal> principal;
  std::optional<HttpResponse> refusal;
  // A listed origin's CORS preflight, answered before authentication: it carries no key.
  std::optional<HttpResponse> preflight;
};

RequestFacts Router::handle(const HttpRequest& request, Respond respond) const {
  Step step = route(request);
  std::optional<HttpResponse> answer =
      step.preflight ? std::move(step.preflight) : std::move(step.refusal);
  if (!answer && !step.under_v1) {
    answer = operational(request, step.match ? &*step.match : nullptr, step.operation, options_);
  } else if (!answer) {
    answer = perform_v1(use_cases_, *step.principal, request, *step.url, *step.match, respond);
    if (answer) {
      answer->v1_fields = true;
    }
  }
  if (answer) {
    respond(std::move(*answer));  // not moved from: only an answer given later takes it
  }
  if (step.principal) {  // the operation has taken its part
    step.facts.principal = std::move(step.principal->id);
    step.facts.key_label = std::move(step.principal->label);
  }
  return std::move(step.facts);
}

std::optional<HttpResponse> Router::screen_head(const HttpRequest& head) const {
  Step step = route(head);
  if (step.refusal || !step.under_v1 || !is_create(head, *step.match)) {
    return std::move(step.refusal);  // only a create takes a body: the others wait for none
  }
  auto refused = refuse_create_head(head);
  if (refused) {
    refused->v1_fields = true;
  }
  return refused;
}

void Router::add_cors_headers(const HttpRequest& request, HttpResponse& response) const {
  http::add_cors_headers(options_.cors, request, response);
}

Router::Step Router::route(const HttpRequest& request) const {
  Step step;
  // The usual target's path has nothing to decode: it is matched on its bytes, and Boost.URL
  // parses the target only for a query to read (and a path that is not plain).
  const std::string_view path = request.target.substr(0, request.target.find('?'));
  const bool plain = is_plain_path(path);
  if (plain && path.size() == request.target.size()) {
    step.url.emplace();  // no query: no parameters
  } else if (auto url = request.target.starts_with('/')
                            ? boost::urls::parse_origin_form(request.target)
                            : boost::urls::parse_absolute_uri(request.target)) {
    step.url = *url;
  }
  if (step.url) {
    step.match = plain ? match_plain_path(path) : match_route(step.url->encoded_segments());
    if (step.match && step.match->route->endpoint == Endpoint::metrics && !options_.metrics) {
      step.match.reset();  // served only when the service has metrics to show
    }
  }
  const auto& url = step.url;
  const auto& match = step.match;
  step.operation = match ? match->route->operation(request.method) : nullptr;
  step.facts.route = match ? match->route->path : "";
  step.facts.operation = step.operation ? step.operation->id : "";
  step.facts.client_address =
      client_address(request.client_address, request.forwarded_for, options_.trusted_proxies);
  if (match) {
    step.preflight = answer_preflight(options_.cors, request, *match->route);
    if (step.preflight) {
      return step;
    }
  }
  // A path that fits no route, even in a target that is no valid URI, is still under /v1 (so it
  // authenticates first and gets the /v1 headers, contract section 2) by its first segment,
  // decoded as routes are matched. A plain path's is its own decoding; an invalid target's, raw.
  if (match) {
    step.under_v1 = match->route->under_v1;
  } else if (url && !plain) {
    const auto segments = url->encoded_segments();
    step.under_v1 = !segments.empty() && **segments.begin() == "v1";
  } else {
    const std::string_view raw =
        plain ? path : request.target.substr(0, request.target.find_first_of("?#"));
    step.under_v1 = raw == "/v1" || raw.starts_with("/v1/");
  }
  if (!step.under_v1) {
    if (!url) {
      step.refusal =
          error_response(400, "invalid_parameter", "the request target is not a valid URI");
    }
    return step;
  }
  const Credentials credentials =
      read_credentials(request.authorization, request.authorization_repeated);
  auto principal = use_cases_.authenticate(
      application::Credential{
          credentials.kind == Credentials::Kind::bearer ? std::optional(credentials.token)
                                                        : std::nullopt,
          credentials.kind == Credentials::Kind::malformed, step.facts.client_address},
      request.accepted_key);
  if (!principal) {
    step.refusal = error_response(principal.error(), "invalid_parameter");
  } else if (!url) {
    step.refusal =
        error_response(400, "invalid_parameter", "the request target is not a valid URI");
  } else if (!match) {
    step.refusal = not_found_path();
  } else if (step.operation == nullptr) {
    step.refusal = method_not_allowed(*match->route);
  } else if (is_create(request, *match)) {
    if (auto allowed = application::authorize_write(*principal); !allowed) {
      step.refusal = error_response(allowed.error(), "invalid_parameter");
    }
  }
  if (step.refusal) {
    step.refusal->v1_fields = true;
  }
  if (principal) {
    step.principal = std::move(*principal);
  }
  return step;
}

}  // namespace petstore::adapters::http

#include "adapters/http/api/routes.hpp"

#include <algorithm>

namespace petstore::adapters::http {
namespace {

// fits: whether `segments` fit `route`'s template; its parameter segment, if any, goes to
// `parameter`.
bool fits(const Route& route, const boost::urls::segments_encoded_view& segments,
          std::string& parameter) {
  std::string_view rest = route.path.substr(1);  // after the leading '/'
  auto segment = segments.begin();
  for (;;) {
    if (segment == segments.end()) {
      return false;
    }
    const std::size_t slash = rest.find('/');
    const std::string_view piece = rest.substr(0, slash);
    const auto decoded = **segment;
    if (piece.starts_with('{')) {
      if (decoded.empty()) {
        return false;  // "/v1/pets/": a trailing slash names no resource
      }
      parameter.assign(decoded.begin(), decoded.end());
    } else if (decoded != piece) {
      return false;
    }
    ++segment;
    if (slash == std::string_view::npos) {
      return segment == segments.end();
    }
    rest.remove_prefix(slash + 1);
  }
}

}  // namespace

const Operation* Route::operation(std::string_view method) const {
  // RFC 9110 section 9.3.2: HEAD is GET without the content, so it reaches GET's operation.
  const std::string_view sought = method == "HEAD" ? "GET" : method;
  for (const Operation& candidate : operations) {
    if (!candidate.method.empty() && candidate.method == sought) {
      return &candidate;
    }
  }
  return nullptr;
}

std::string Route::allow() const {
  std::string methods;
  for (const Operation& candidate : operations) {
    if (candidate.method.empty()) {
      continue;
    }
    methods.append(methods.empty() ? "" : ", ").append(candidate.method);
    if (candidate.method == "GET") {
      methods.append(", HEAD");
    }
  }
  return methods;
}

std::optional<RouteMatch> match_route(const boost::urls::segments_encoded_view& segments) {
  RouteMatch match;
  for (const Route& route : routes) {
    if (fits(route, segments, match.parameter)) {
      match.route = &route;
      return match;
    }
    match.parameter.clear();
  }
  return std::nullopt;
}

std::vector<std::string_view> operation_ids() {
  std::vector<std::string_view> ids;
  for (const Route& route : routes) {
    for (const Operation& operation : route.operations) {
      if (!operation.method.empty() &&
          std::find(ids.begin(), ids.end(), operation.id) == ids.end()) {
        ids.push_back(operation.id);
      }
    }
  }
  return ids;
}

}  // namespace petstore::adapters::http

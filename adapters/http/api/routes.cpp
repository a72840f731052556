#include "adapters/http/api/routes.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

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

// fits_plain: fits() for a plain path (is_plain_path), whose segments are the pieces between
// its slashes.
bool fits_plain(const Route& route, std::string_view path, std::string& parameter) {
  std::string_view rest = route.path.substr(1);  // after the leading '/'
  std::string_view segments = path.substr(1);
  for (;;) {
    const std::size_t slash = rest.find('/');
    const std::string_view piece = rest.substr(0, slash);
    const std::size_t end = segments.find('/');
    const std::string_view segment = segments.substr(0, end);
    if (piece.starts_with('{')) {
      if (segment.empty()) {
        return false;  // "/v1/pets/": a trailing slash names no resource
      }
      parameter.assign(segment);
    } else if (segment != piece) {
      return false;
    }
    if (slash == std::string_view::npos || end == std::string_view::npos) {
      return slash == end;  // both ended: as many segments as the template has
    }
    rest.remove_prefix(slash + 1);
    segments.remove_prefix(end + 1);
  }
}

// path_characters: RFC 3986's pchar without '%' (unreserved, sub-delims, ':', '@'), and '/'.
constexpr std::array<bool, 256> path_characters = [] {
  std::array<bool, 256> table{};
  for (int c = 'a'; c <= 'z'; ++c) {
    table[static_cast<std::size_t>(c)] = true;
  }
  for (int c = 'A'; c <= 'Z'; ++c) {
    table[static_cast<std::size_t>(c)] = true;
  }
  for (int c = '0'; c <= '9'; ++c) {
    table[static_cast<std::size_t>(c)] = true;
  }
  for (const char c : std::string_view("-._~!$&'()*+,;=:@/")) {
    table[static_cast<unsigned char>(c)] = true;
  }
  return table;
}();

}  // namespace

bool is_plain_path(std::string_view path) {
  if (!path.starts_with('/') || path.find("/.") != std::string_view::npos) {
    return false;  // Boost.URL's segments may hide a leading "/." (RFC 3986 section 3.3)
  }
  return std::all_of(path.begin(), path.end(),
                     [](char c) { return path_characters[static_cast<unsigned char>(c)]; });
}

std::optional<RouteMatch> match_plain_path(std::string_view path) {
  RouteMatch match;
  for (const Route& route : routes) {
    if (fits_plain(route, path, match.parameter)) {
      match.route = &route;
      return match;
    }
    match.parameter.clear();
  }
  return std::nullopt;
}

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

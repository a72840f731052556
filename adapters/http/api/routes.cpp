#include "adapters/http/api/routes.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <string>

namespace petstore::adapters::http {
namespace {

// fits: whether the segments that `next` yields (each decoded, then nullopt after the last) fit
// `route`'s template; its parameter segment, if any, goes to `parameter`. One matcher for both
// kinds of path: a segment is used before `next` is called again.
template <class Next>
bool fits(const Route& route, Next next, std::string& parameter) {
  std::string_view rest = route.path.substr(1);  // after the leading '/'
  for (;;) {
    const std::optional<std::string_view> segment = next();
    if (!segment) {
      return false;
    }
    const std::size_t slash = rest.find('/');
    const std::string_view piece = rest.substr(0, slash);
    if (piece.starts_with('{')) {
      if (segment->empty()) {
        return false;  // "/v1/pets/": a trailing slash names no resource
      }
      parameter.assign(*segment);
    } else if (*segment != piece) {
      return false;
    }
    if (slash == std::string_view::npos) {
      return !next();  // as many segments as the template has
    }
    rest.remove_prefix(slash + 1);
  }
}

// first_fit: the first route whose template fits the segments of each `segments_of()`.
template <class SegmentsOf>
std::optional<RouteMatch> first_fit(SegmentsOf segments_of) {
  RouteMatch match;
  for (const Route& route : routes) {
    if (fits(route, segments_of(), match.parameter)) {
      match.route = &route;
      return match;
    }
    match.parameter.clear();
  }
  return std::nullopt;
}

// path_characters: RFC 3986's pchar without '%' (unreserved, sub-delims, ':', '@'), and '/'.
constexpr std::array<bool, 256> path_characters = [] {
  std::array<bool, 256> table{};
  for (std::size_t c = 0; c < table.size(); ++c) {
    table[c] =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        std::string_view("-._~!$&'()*+,;=:@/").find(static_cast<char>(c)) != std::string_view::npos;
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
  return first_fit([path] {
    return [rest = path.substr(1), ended = false]() mutable -> std::optional<std::string_view> {
      if (ended) {
        return std::nullopt;
      }
      const std::size_t slash = rest.find('/');
      const std::string_view segment = rest.substr(0, slash);
      ended = slash == std::string_view::npos;
      rest.remove_prefix(ended ? rest.size() : slash + 1);
      return segment;
    };
  });
}

const Operation* Route::operation(std::string_view method) const {
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
  return first_fit([&segments] {
    return [at = segments.begin(), end = segments.end(),
            decoded = std::string()]() mutable -> std::optional<std::string_view> {
      if (at == end) {
        return std::nullopt;
      }
      decoded = (*at).decode();
      ++at;
      return std::string_view(decoded);
    };
  });
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

#pragma once
// The adapter's errors in the core's vocabulary, written once: unavailable (worth a retry: the
// database away, slow or closing), and a stored pet that fails its checks (internal).

#include <string>
#include <utility>

#include "domain/error.hpp"

namespace petstore::adapters::storage::postgres {

// unavailable: `message` for the client, `detail` (no password) for the log.
[[nodiscard]] inline domain::Error unavailable(std::string message, std::string detail = {}) {
  auto error = domain::make_error(domain::ErrorCode::unavailable, "", std::move(message));
  error.detail = std::move(detail);
  return error;
}

// damaged: a row that fails the domain's checks when read back (the port calls it internal).
[[nodiscard]] inline domain::Error damaged(std::string detail) {
  auto error = domain::make_error(domain::ErrorCode::internal, "", "a stored pet is damaged");
  error.detail = std::move(detail);
  return error;
}

}  // namespace petstore::adapters::storage::postgres

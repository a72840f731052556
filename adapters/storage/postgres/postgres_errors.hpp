#pragma once
// The adapter's errors in the core's vocabulary, written once (unavailable: worth a retry, the
// database away, slow or closing).

#include <string>
#include <string_view>
#include <utility>

#include "domain/error.hpp"

namespace petstore::adapters::storage::postgres {

// unavailable: `message` for the client, `detail` (no password) for the log.
[[nodiscard]] inline domain::Error unavailable(std::string message, std::string detail = {}) {
  auto error = domain::make_error(domain::ErrorCode::unavailable, "", std::move(message));
  error.detail = std::move(detail);
  return error;
}

// transient_sqlstate: a refusal another try may pass: the connection (class 08), a rollback the
// server chose (40: deadlock, serialization), resources (53), operator intervention (57: shutdown,
// cancel, a statement timeout), a lock not granted in time (55P03).
[[nodiscard]] inline bool transient_sqlstate(std::string_view sqlstate) {
  return sqlstate.starts_with("08") || sqlstate.starts_with("40") || sqlstate.starts_with("53") ||
         sqlstate.starts_with("57") || sqlstate == "55P03";
}

// damaged: a row that fails the domain's checks when read back (the port calls it internal).
[[nodiscard]] inline domain::Error damaged(std::string detail) {
  auto error = domain::make_error(domain::ErrorCode::internal, "", "a stored pet is damaged");
  error.detail = std::move(detail);
  return error;
}

}  // namespace petstore::adapters::storage::postgres

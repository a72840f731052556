#pragma once
// The core's closed error vocabulary and the result type every fallible core operation returns.
// Only adapters/http maps these codes to HTTP statuses; the core never speaks HTTP.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include <boost/system/result.hpp>

namespace petstore::domain {

// ErrorCode: what went wrong, in the few words every layer shares.
enum class ErrorCode {
  invalid_argument,    // outside input broke a rule; `Error::field` names the input
  not_found,           // the thing asked for does not exist
  unauthenticated,     // no credential, or one that is not accepted
  permission_denied,   // the credential is accepted but may not do this (a read-only key's create)
  conflict,            // the request contradicts an earlier one (a reused idempotency key)
  resource_exhausted,  // a quota or rate was exceeded
  unavailable,         // storage cannot serve now (full disk, I/O error, shutting down)
  unimplemented,       // the operation exists in the interface but is not specified yet
  internal,            // a bug or an unexpected failure
};

// Error: a code, the name of the offending field or parameter (empty when none), and a
// human-readable message that never carries internals (paths, exception text). `detail` may carry
// them: it is for the operator's log and never reaches a client.
struct Error {
  ErrorCode code = ErrorCode::internal;
  std::string field;
  std::string message;
  std::int64_t retry_after_seconds = 0;  // resource_exhausted: when trying again can succeed
  std::string detail;

  friend bool operator==(const Error&, const Error&) = default;
};

// ErrorException: what `Result<T>::value()` throws, so that an untested result fails loudly.
class ErrorException : public std::runtime_error {
 public:
  explicit ErrorException(Error error)
      : std::runtime_error(error.message), error_(std::move(error)) {}
  [[nodiscard]] const Error& error() const noexcept { return error_; }

 private:
  Error error_;
};

// Found by argument-dependent lookup from boost::system::result<T, Error>::value().
[[noreturn]] inline void throw_exception_from_error(const Error& error,
                                                    const boost::source_location& /*where*/) {
  throw ErrorException(error);
}

// Result<T>: either a T or an Error. Functions returning it are [[nodiscard]].
template <class T>
using Result = boost::system::result<T, Error>;

// Shorthands for the point of failure: `return invalid_argument("name", "...")`.
[[nodiscard]] inline Error make_error(ErrorCode code, std::string field, std::string message) {
  Error error;
  error.code = code;
  error.field = std::move(field);
  error.message = std::move(message);
  return error;
}
[[nodiscard]] inline Error invalid_argument(std::string field, std::string message) {
  return make_error(ErrorCode::invalid_argument, std::move(field), std::move(message));
}

}  // namespace petstore::domain

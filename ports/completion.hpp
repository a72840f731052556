#pragma once
// Completion<T>: how a port call answers: a Callback (callback.hpp) of domain::Result<T> that,
// destroyed uncalled (a call lost in an adapter, a closed repository), answers unavailable. It
// carries the request's deadline, so every layer under it keeps one clock (past it an adapter
// answers unavailable and sends nothing more), and its trace context (trace_context.hpp).
//
// Example:
//   repository.get(id, GetDone([reply](domain::Result<domain::Pet> pet) mutable { ... },
//   deadline));

#include <chrono>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "domain/error.hpp"
#include "ports/callback.hpp"
#include "ports/trace_context.hpp"

namespace petstore::ports {

using Deadline = std::chrono::steady_clock::time_point;
// no_deadline: a call that waits as long as the adapter's own bound (tests, data tools).
inline constexpr Deadline no_deadline = Deadline::max();

// completion_inline_bytes: the HTTP reply (24 bytes) and a new pet (48, create's settle keeps the
// pet sent), so that a request's answer allocates nothing.
inline constexpr std::size_t completion_inline_bytes = 72;

template <class T>
domain::Result<T> dropped_call() {
  return domain::make_error(domain::ErrorCode::unavailable, "",
                            "the call was dropped without an answer");
}

template <class T>
class Completion : public Callback<domain::Result<T>, completion_inline_bytes, &dropped_call<T>> {
 public:
  using Result = domain::Result<T>;

  Completion() noexcept = default;

  // Completion: `continuation` (invocable with Result; it should not throw) answers a call that
  // must be done by `deadline`, made for the request of `trace`.
  template <class F, class = std::enable_if_t<!std::is_same_v<std::remove_cvref_t<F>, Completion> &&
                                              std::is_invocable_v<std::remove_cvref_t<F>&, Result>>>
  // NOLINTNEXTLINE(google-explicit-constructor,hicpp-explicit-conversions): lambdas convert
  Completion(F&& continuation, Deadline deadline = no_deadline, TraceContext trace = {})
      : Completion::Callback(std::forward<F>(continuation)),
        deadline_(deadline),
        trace_(std::move(trace)) {}

  [[nodiscard]] Deadline deadline() const noexcept { return deadline_; }
  [[nodiscard]] const TraceContext& trace() const noexcept { return trace_; }
  [[nodiscard]] bool expired(Deadline now) const noexcept { return now >= deadline_; }

 private:
  Deadline deadline_ = no_deadline;
  TraceContext trace_;
};

}  // namespace petstore::ports

#pragma once
// Completion<T>: how a port call answers. It is move-only and runs its continuation exactly
// once: when called, or, destroyed uncalled (a call lost in an adapter, a closed repository),
// with unavailable, so "exactly once" is a property of the type rather than of each caller. It
// carries the deadline of the request it answers, so every layer under it keeps one clock: past
// the deadline an adapter answers unavailable and sends nothing more on the call's behalf.
// Continuations of up to inline_bytes (a few pointers) live inside it, without a heap
// allocation. Not thread-safe: one owner at a time, moved from layer to layer.
//
// Example:
//   repository.get(id, GetDone([respond](domain::Result<domain::Pet> pet) { ... }, deadline));
//   // a use case that maps its adapter's answer keeps the caller's deadline:
//   repository.create(command, std::move(done).adapt<ports::CreateOutcome>(settle));

#include <chrono>
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include "domain/error.hpp"

namespace petstore::ports {

using Deadline = std::chrono::steady_clock::time_point;
// no_deadline: a call that waits as long as the adapter's own bound (tests, data tools).
inline constexpr Deadline no_deadline = Deadline::max();

template <class T>
class Completion {
 public:
  using Result = domain::Result<T>;
  static constexpr std::size_t inline_bytes = 48;

  Completion() noexcept = default;

  // Completion: `continuation` (invocable with Result, noexcept in spirit) answers a call that
  // must be done by `deadline`. Implicit, so that a lambda is a completion.
  template <class F, class = std::enable_if_t<!std::is_same_v<std::remove_cvref_t<F>, Completion> &&
                                              std::is_invocable_v<std::remove_cvref_t<F>&, Result>>>
  // NOLINTNEXTLINE(google-explicit-constructor,hicpp-explicit-conversions): lambdas convert
  Completion(F&& continuation, Deadline deadline = no_deadline) : deadline_(deadline) {
    using Stored = std::remove_cvref_t<F>;
    if constexpr (fits_inline<Stored>()) {
      ::new (static_cast<void*>(storage_)) Stored(std::forward<F>(continuation));
      ops_ = &inline_ops<Stored>;
    } else {
      ::new (static_cast<void*>(storage_)) Stored*(new Stored(std::forward<F>(continuation)));
      ops_ = &heap_ops<Stored>;
    }
  }

  Completion(Completion&& other) noexcept : deadline_(other.deadline_) { take(other); }
  Completion& operator=(Completion&& other) noexcept {
    if (this != &other) {
      reset();
      deadline_ = other.deadline_;
      take(other);
    }
    return *this;
  }
  Completion(const Completion&) = delete;
  Completion& operator=(const Completion&) = delete;
  ~Completion() { reset(); }

  // operator(): runs the continuation with `result`; the completion is empty afterwards.
  // REQUIRES: not empty.
  void operator()(Result result) {
    const Ops* ops = std::exchange(ops_, nullptr);
    ops->invoke(storage_, std::move(result));
    ops->destroy(storage_);
  }

  [[nodiscard]] Deadline deadline() const noexcept { return deadline_; }
  [[nodiscard]] bool expired(Deadline now) const noexcept { return now >= deadline_; }
  explicit operator bool() const noexcept { return ops_ != nullptr; }

  // adapt: a completion of U, with this one's deadline, whose continuation maps U's result
  // with `map` (Result<U> -> Result<T>) and answers this one. Dropped uncalled, it answers
  // unavailable through this one too.
  template <class U, class Map>
  [[nodiscard]] Completion<U> adapt(Map map) && {
    const Deadline deadline = deadline_;
    return Completion<U>([map = std::move(map), done = std::move(*this)](
                             domain::Result<U> result) mutable { done(map(std::move(result))); },
                         deadline);
  }

 private:
  struct Ops {
    void (*invoke)(void* storage, Result&& result);
    void (*relocate)(void* from, void* to) noexcept;  // moves, then destroys `from`
    void (*destroy)(void* storage) noexcept;
  };

  template <class F>
  static constexpr bool fits_inline() {
    // NOLINTNEXTLINE(misc-redundant-expression): constant per F, as it should be
    return sizeof(F) <= inline_bytes && alignof(F) <= alignof(std::max_align_t) &&
           std::is_nothrow_move_constructible_v<F>;
  }

  template <class F>
  static constexpr Ops inline_ops{
      [](void* storage, Result&& result) {
        (*std::launder(static_cast<F*>(storage)))(std::move(result));
      },
      [](void* from, void* to) noexcept {
        F* source = std::launder(static_cast<F*>(from));
        ::new (to) F(std::move(*source));
        source->~F();
      },
      [](void* storage) noexcept { std::launder(static_cast<F*>(storage))->~F(); }};

  template <class F>
  static constexpr Ops heap_ops{
      [](void* storage, Result&& result) {
        (**std::launder(static_cast<F**>(storage)))(std::move(result));
      },
      [](void* from, void* to) noexcept { ::new (to) F*(*std::launder(static_cast<F**>(from))); },
      [](void* storage) noexcept { delete *std::launder(static_cast<F**>(storage)); }};

  void take(Completion& other) noexcept {
    ops_ = std::exchange(other.ops_, nullptr);
    if (ops_ != nullptr) {
      ops_->relocate(other.storage_, storage_);
    }
  }

  // reset: an uncalled continuation answers unavailable before it goes.
  void reset() noexcept {
    if (ops_ != nullptr) {
      (*this)(domain::make_error(domain::ErrorCode::unavailable, "",
                                 "the call was dropped without an answer"));
    }
  }

  alignas(std::max_align_t) unsigned char storage_[inline_bytes]{};
  const Ops* ops_ = nullptr;
  Deadline deadline_ = no_deadline;
};

}  // namespace petstore::ports

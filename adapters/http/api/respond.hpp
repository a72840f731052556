#pragma once
// Respond: how a response that is not known at once is delivered, exactly once, on any thread.
// A copyable callable as std::function<void(HttpResponse)> is, but one that keeps a target of up
// to inline_bytes inside itself: std::function keeps only trivially copyable targets inline, so
// the server's responder (a counted claim on the request's slot) cost a heap allocation a request.

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace petstore::adapters::http {

struct HttpResponse;

class Respond {
 public:
  static constexpr std::size_t inline_bytes = 16;  // a shared_ptr, or two pointers

  Respond() noexcept = default;

  // Respond: calls `target` (invocable with HttpResponse). Implicit, so that a lambda is one.
  template <class F,
            class = std::enable_if_t<!std::is_same_v<std::remove_cvref_t<F>, Respond> &&
                                     std::is_invocable_v<std::remove_cvref_t<F>&, HttpResponse&&>>>
  // NOLINTNEXTLINE(google-explicit-constructor,hicpp-explicit-conversions): lambdas convert
  Respond(F&& target) {
    using Stored = std::remove_cvref_t<F>;
    if constexpr (fits_inline<Stored>()) {
      ::new (static_cast<void*>(storage_)) Stored(std::forward<F>(target));
      ops_ = &inline_ops<Stored>;
    } else {
      ::new (static_cast<void*>(storage_)) Stored*(new Stored(std::forward<F>(target)));
      ops_ = &heap_ops<Stored>;
    }
  }

  Respond(const Respond& other) : ops_(other.ops_) {
    if (ops_ != nullptr) {
      ops_->copy(other.storage_, storage_);
    }
  }
  Respond(Respond&& other) noexcept : ops_(std::exchange(other.ops_, nullptr)) {
    if (ops_ != nullptr) {
      ops_->move(other.storage_, storage_);
    }
  }
  Respond& operator=(const Respond& other) {
    if (this != &other) {
      Respond copy(other);
      *this = std::move(copy);
    }
    return *this;
  }
  Respond& operator=(Respond&& other) noexcept {
    if (this != &other) {
      reset();
      ops_ = std::exchange(other.ops_, nullptr);
      if (ops_ != nullptr) {
        ops_->move(other.storage_, storage_);
      }
    }
    return *this;
  }
  ~Respond() { reset(); }

  // operator(): gives `response` to the target. REQUIRES: not empty.
  void operator()(HttpResponse response) const;

  explicit operator bool() const noexcept { return ops_ != nullptr; }

  // fits_inline: whether a target of type Stored lives inside a Respond (else on the heap).
  template <class Stored>
  static constexpr bool fits_inline() {
    // NOLINTNEXTLINE(misc-redundant-expression): constant per Stored, as it should be
    return sizeof(Stored) <= inline_bytes && alignof(Stored) <= alignof(std::max_align_t) &&
           std::is_nothrow_move_constructible_v<Stored>;
  }

 private:
  struct Ops {
    void (*invoke)(void* storage, HttpResponse& response);
    void (*copy)(const void* from, void* to);
    void (*move)(void* from, void* to) noexcept;  // leaves `from` destroyed
    void (*destroy)(void* storage) noexcept;
  };

  template <class Stored>
  static Stored& inline_target(void* storage) {
    return *std::launder(static_cast<Stored*>(storage));
  }
  template <class Stored>
  static Stored*& heap_target(void* storage) {
    return *std::launder(static_cast<Stored**>(storage));
  }
  template <class Stored>
  static const Stored& inline_target(const void* storage) {
    return *std::launder(static_cast<const Stored*>(storage));
  }
  template <class Stored>
  static Stored* heap_target(const void* storage) {
    return *std::launder(static_cast<Stored* const*>(storage));
  }

  template <class Stored>
  static constexpr Ops inline_ops{
      [](void* storage, HttpResponse& response) {
        inline_target<Stored>(storage)(std::move(response));
      },
      [](const void* from, void* to) { ::new (to) Stored(inline_target<Stored>(from)); },
      [](void* from, void* to) noexcept {
        ::new (to) Stored(std::move(inline_target<Stored>(from)));
        inline_target<Stored>(from).~Stored();
      },
      [](void* storage) noexcept { inline_target<Stored>(storage).~Stored(); }};

  template <class Stored>
  static constexpr Ops heap_ops{
      [](void* storage, HttpResponse& response) {
        (*heap_target<Stored>(storage))(std::move(response));
      },
      [](const void* from, void* to) {
        ::new (to) Stored*(new Stored(*heap_target<Stored>(from)));
      },
      [](void* from, void* to) noexcept { ::new (to) Stored*(heap_target<Stored>(from)); },
      [](void* storage) noexcept { delete heap_target<Stored>(storage); }};

  void reset() noexcept {
    if (ops_ != nullptr) {
      std::exchange(ops_, nullptr)->destroy(storage_);
    }
  }

  // Mutable as std::function's target is: a const Respond calls its target as it is.
  alignas(std::max_align_t) mutable unsigned char storage_[inline_bytes]{};
  const Ops* ops_ = nullptr;
};

}  // namespace petstore::adapters::http

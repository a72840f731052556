#pragma once
// Callback<Arg, InlineBytes, dropped>: an answer given later, exactly once. Move-only; destroyed
// uncalled (an answer lost on some path), it calls its target with dropped(), so "answered exactly
// once" is a property of the type, not of each caller. Targets of up to InlineBytes live inside it
// without a heap allocation. Not thread-safe: one owner at a time. Used by Completion
// (completion.hpp) and the HTTP reply.

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace petstore::ports {

template <class Arg, std::size_t InlineBytes, Arg (*dropped)()>
class Callback {
 public:
  static constexpr std::size_t inline_bytes = InlineBytes;
  // Pointer alignment keeps a callback free of padding; a target that needs more lives apart.
  static constexpr std::size_t inline_alignment = alignof(void*);

  Callback() noexcept = default;

  // Callback: calls `target` (invocable with Arg; it should not throw).
  template <class F,
            class = std::enable_if_t<!std::is_base_of_v<Callback, std::remove_cvref_t<F>> &&
                                     std::is_invocable_v<std::remove_cvref_t<F>&, Arg>>>
  // NOLINTNEXTLINE(google-explicit-constructor,hicpp-explicit-conversions): lambdas convert
  Callback(F&& target) {
    using Stored = std::remove_cvref_t<F>;
    if constexpr (fits_inline<Stored>()) {
      ::new (static_cast<void*>(storage_)) Stored(std::forward<F>(target));
      ops_ = &inline_ops<Stored>;
    } else {
      ::new (static_cast<void*>(storage_)) Stored*(new Stored(std::forward<F>(target)));
      ops_ = &heap_ops<Stored>;
    }
  }

  Callback(Callback&& other) noexcept { take(other); }
  Callback& operator=(Callback&& other) noexcept {
    if (this != &other) {
      reset();
      take(other);
    }
    return *this;
  }
  Callback(const Callback&) = delete;
  Callback& operator=(const Callback&) = delete;
  ~Callback() { reset(); }

  // operator(): gives `arg` to the target, which then goes; the callback is empty afterwards.
  // REQUIRES: not empty.
  void operator()(Arg arg) {
    const Ops* ops = std::exchange(ops_, nullptr);
    ops->invoke(storage_, std::move(arg));
    ops->destroy(storage_);
  }

  explicit operator bool() const noexcept { return ops_ != nullptr; }

  // fits_inline: whether a target of type F lives inside a callback (else on the heap).
  template <class F>
  static constexpr bool fits_inline() {
    // NOLINTNEXTLINE(misc-redundant-expression): constant per F, as it should be
    return sizeof(F) <= inline_bytes && alignof(F) <= inline_alignment &&
           std::is_nothrow_move_constructible_v<F>;
  }

 private:
  struct Ops {
    void (*invoke)(void* storage, Arg&& arg);
    void (*relocate)(void* from, void* to) noexcept;  // moves, then destroys `from`
    void (*destroy)(void* storage) noexcept;
  };

  template <class F>
  static constexpr Ops inline_ops{
      [](void* storage, Arg&& arg) { (*std::launder(static_cast<F*>(storage)))(std::move(arg)); },
      [](void* from, void* to) noexcept {
        F* source = std::launder(static_cast<F*>(from));
        ::new (to) F(std::move(*source));
        source->~F();
      },
      [](void* storage) noexcept { std::launder(static_cast<F*>(storage))->~F(); }};

  template <class F>
  static constexpr Ops heap_ops{
      [](void* storage, Arg&& arg) { (**std::launder(static_cast<F**>(storage)))(std::move(arg)); },
      [](void* from, void* to) noexcept { ::new (to) F*(*std::launder(static_cast<F**>(from))); },
      [](void* storage) noexcept { delete *std::launder(static_cast<F**>(storage)); }};

  void take(Callback& other) noexcept {
    ops_ = std::exchange(other.ops_, nullptr);
    if (ops_ != nullptr) {
      ops_->relocate(other.storage_, storage_);
    }
  }

  // reset: an uncalled target is given dropped() before it goes.
  void reset() noexcept {
    if (ops_ != nullptr) {
      (*this)(dropped());
    }
  }

  alignas(inline_alignment) unsigned char storage_[inline_bytes]{};
  const Ops* ops_ = nullptr;
};

}  // namespace petstore::ports

#pragma once
// What the libFuzzer harnesses share: an oracle check that stops the run with a reason (libFuzzer
// then saves the input as a crash) and a view of the fuzzer's bytes as text.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace petstore::tests::fuzz {

// expect: aborts, naming the broken oracle, when `holds` is false.
inline void expect(bool holds, const char* oracle) {
  if (!holds) {
    std::fprintf(stderr, "fuzz oracle broken: %s\n", oracle);
    std::abort();
  }
}

// as_text: the fuzzer's input as a string_view (it is not NUL-terminated).
[[nodiscard]] inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};  // NOLINT: bytes viewed as chars
}

// is_printable_ascii: whether every byte is 0x20-0x7E, the alphabet of every error message.
[[nodiscard]] inline bool is_printable_ascii(std::string_view text) {
  for (const char c : text) {
    if (c < 0x20 || c > 0x7E) {
      return false;
    }
  }
  return true;
}

}  // namespace petstore::tests::fuzz

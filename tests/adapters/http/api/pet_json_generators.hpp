#pragma once
// rapidcheck generators for the JSON codec's properties: valid names (non-ASCII and white space
// included), whole-range category ids, pets, and NewPet bodies written in varied but valid JSON.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "adapters/http/api/pet_json.hpp"
#include "adapters/pet_json/pet_encoder.hpp"
#include "domain/pet.hpp"

namespace petstore::tests {

inline void append_utf8(std::string& out, std::uint32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// A code point a name may hold: printable ASCII, Unicode white space that is not a control,
// Latin-1, CJK, astral (emoji), and JSON's own specials `"`, `\` and `/`.
inline rc::Gen<std::uint32_t> gen_name_code_point() {
  static const std::vector<std::uint32_t> white_space{0x20,   0x85,   0xA0,   0x1680,
                                                      0x2003, 0x2028, 0x202F, 0x3000};
  static const std::vector<std::uint32_t> specials{'"', '\\', '/'};
  return rc::gen::oneOf(rc::gen::inRange<std::uint32_t>(0x20, 0x7F),
                        rc::gen::elementOf(white_space), rc::gen::elementOf(specials),
                        rc::gen::inRange<std::uint32_t>(0xA1, 0x800),
                        rc::gen::inRange<std::uint32_t>(0x4E00, 0x9FFF),
                        rc::gen::inRange<std::uint32_t>(0x1F400, 0x1F650));
}

inline bool is_name_white_space(std::uint32_t c) {
  return c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 || c == 0x2003 || c == 0x2028 ||
         c == 0x202F || c == 0x3000;
}

// The UTF-8 text of a valid name: 1 to 200 code points, at least one of them not white space.
inline rc::Gen<std::string> gen_name_text() {
  return rc::gen::map(
      rc::gen::scale(2.0, rc::gen::container<std::vector<std::uint32_t>>(gen_name_code_point())),
      [](std::vector<std::uint32_t> points) {
        if (points.size() > 200) {
          points.resize(200);
        }
        bool visible = false;
        for (const std::uint32_t c : points) {
          visible = visible || !is_name_white_space(c);
        }
        if (!visible && points.empty()) {
          points.push_back('x');
        } else if (!visible) {
          points.front() = 'x';
        }
        std::string text;
        for (const std::uint32_t c : points) {
          append_utf8(text, c);
        }
        return text;
      });
}

// Any int64, with the edges and small values weighted up.
inline rc::Gen<std::int64_t> gen_int64() {
  using Limits = std::numeric_limits<std::int64_t>;
  return rc::gen::weightedOneOf<std::int64_t>(
      {{3, rc::gen::arbitrary<std::int64_t>()},
       {1, rc::gen::element<std::int64_t>(Limits::min(), Limits::min() + 1, -1, 0, 1,
                                          Limits::max() - 1, Limits::max())},
       {2, rc::gen::map(rc::gen::arbitrary<std::uint64_t>(),
                        [](std::uint64_t bits) { return static_cast<std::int64_t>(bits); })}});
}

inline rc::Gen<domain::PetStatus> gen_status() {
  return rc::gen::elementOf(domain::all_pet_statuses);
}

inline domain::PetName name_of(const std::string& text) {
  return domain::PetName::parse(text).value();
}

inline rc::Gen<domain::Pet> gen_pet() {
  return rc::gen::apply(
      [](std::int64_t id, const std::string& name, std::int64_t category, domain::PetStatus s) {
        return domain::Pet{domain::PetId{id}, name_of(name), domain::CategoryId{category}, s};
      },
      gen_int64(), gen_name_text(), gen_int64(), gen_status());
}

// gen_json_text: JSON text of at most `depth` levels whose member names come from a small pool
// (the NewPet names, id, a), so that valid NewPets, broken rules and repeated names all turn up.
rc::Gen<std::string> gen_json_text(int depth);

// gen_json_body: mostly an object of good NewPet members and a few pool members, else any
// gen_json_text(3); about one in seven is a valid NewPet.
rc::Gen<std::string> gen_json_body();

// escape_all: `text` as a JSON string whose every non-ASCII character is a \u escape (astral ones
// as surrogate pairs), so that decoding must undo escapes, not copy bytes.
std::string escape_all(std::string_view text);

// Member: a member's key and value, each as JSON text.
struct Member {
  std::string key;
  std::string value;
};

// A NewPet body's parts: members in random order, the name raw or fully escaped; `space` is the
// JSON white space join() puts around every token.
struct NewPetBody {
  std::string name;
  std::int64_t category_id = 0;
  std::optional<domain::PetStatus> status;
  std::vector<Member> members;
  std::string space;
};

rc::Gen<NewPetBody> gen_new_pet_body();

// join: the members as one JSON object, with `space` around every token.
std::string join(const std::vector<Member>& members, std::string_view space);

// shuffle: `items` in an order rapidcheck picks (and can shrink).
template <class T>
void shuffle(std::vector<T>& items) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const auto j = *rc::gen::inRange<std::size_t>(0, i);
    std::swap(items[i - 1], items[j]);
  }
}

}  // namespace petstore::tests

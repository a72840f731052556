#include "pet_json_generators.hpp"

#include "domain/unicode.hpp"

namespace petstore::tests {
namespace {

rc::Gen<std::string> gen_member(int depth);

void append_u_escape(std::string& out, std::uint32_t unit) {
  constexpr std::string_view hex = "0123456789ABCDEF";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) {
    out += hex[(unit >> static_cast<unsigned>(shift)) & 0xFU];
  }
}

std::string json_string(std::string_view text) {
  std::string out;
  adapters::pet_json::append_json_string(out, text);
  return out;
}

// gen_member: `"name":value`, the name from a small pool so that repeats are common.
rc::Gen<std::string> gen_member(int depth) {
  static const std::vector<std::string> names{"name", "categoryId", "status", "id", "a"};
  return rc::gen::exec(
      [depth] { return '"' + *rc::gen::elementOf(names) + "\":" + *gen_json_text(depth); });
}

// gen_object: an object of good NewPet members, each often present, and a few pool members.
rc::Gen<std::string> gen_object() {
  return rc::gen::exec([] {
    std::vector<std::string> members;
    for (const char* good : {R"("name":"Rex")", R"("categoryId":7)", R"("status":"sold")"}) {
      if (*rc::gen::inRange(0, 5) > 0) {
        members.emplace_back(good);
      }
    }
    for (int count = *rc::gen::inRange(0, 3); count > 0; --count) {
      members.push_back(*gen_member(2));
    }
    shuffle(members);
    std::string text = "{";
    for (const std::string& member : members) {
      text += (text.size() > 1 ? "," : "") + member;
    }
    return text + "}";
  });
}

}  // namespace

rc::Gen<std::string> gen_json_text(int depth) {
  static const std::vector<std::string> scalars{"1",
                                                "-0",
                                                "1.5",
                                                "1e2",
                                                "null",
                                                "true",
                                                "\"sold\"",
                                                "\"Rex\"",
                                                "[]",
                                                "{}",
                                                "\"\"",
                                                "\" \"",
                                                "\"\\u00e9\"",
                                                "9223372036854775808",
                                                "-9223372036854775808"};
  if (depth == 0) {
    return rc::gen::elementOf(scalars);
  }
  return rc::gen::exec([depth] {
    const auto kind = *rc::gen::inRange(0, 4);
    if (kind == 0) {
      return *rc::gen::elementOf(scalars);
    }
    const auto count = *rc::gen::inRange(0, 5);
    std::string text = kind == 1 ? "[" : "{";
    for (int i = 0; i < count; ++i) {
      text += i == 0 ? "" : ",";
      text += kind == 1 ? *gen_json_text(depth - 1) : *gen_member(depth - 1);
    }
    return text + (kind == 1 ? "]" : "}");
  });
}

rc::Gen<std::string> gen_json_body() {
  return rc::gen::weightedOneOf<std::string>({{1, gen_json_text(3)}, {3, gen_object()}});
}

std::string escape_all(std::string_view text) {
  std::string out = "\"";
  while (!text.empty()) {
    const std::uint32_t c = domain::unicode::decode_next(text).value();
    if (c < 0x10000) {
      append_u_escape(out, c);
    } else {
      append_u_escape(out, 0xD800 + ((c - 0x10000) >> 10U));
      append_u_escape(out, 0xDC00 + ((c - 0x10000) & 0x3FFU));
    }
  }
  return out + "\"";
}

rc::Gen<NewPetBody> gen_new_pet_body() {
  return rc::gen::exec([] {
    NewPetBody body;
    body.name = *gen_name_text();
    body.category_id = *gen_int64();
    if (*rc::gen::arbitrary<bool>()) {
      body.status = *gen_status();
    }
    const bool escaped = *rc::gen::arbitrary<bool>();
    body.members.push_back({R"("name")", escaped ? escape_all(body.name) : json_string(body.name)});
    const bool minus_zero = body.category_id == 0 && *rc::gen::arbitrary<bool>();
    body.members.push_back(
        {R"("categoryId")", minus_zero ? "-0" : std::to_string(body.category_id)});
    if (body.status) {
      body.members.push_back({R"("status")", json_string(domain::to_string(*body.status))});
    }
    shuffle(body.members);
    static const std::vector<std::string> spaces{"", " ", "\n", "\t", " \r\n "};
    body.space = *rc::gen::elementOf(spaces);
    return body;
  });
}

std::string join(const std::vector<Member>& members, std::string_view space) {
  std::string out(space);
  out += '{';
  bool first = true;
  for (const Member& member : members) {
    if (!first) {
      out.append(space).append(",");
    }
    first = false;
    out.append(space).append(member.key).append(space).append(":");
    out.append(space).append(member.value);
  }
  out.append(space).append("}").append(space);
  return out;
}

}  // namespace petstore::tests

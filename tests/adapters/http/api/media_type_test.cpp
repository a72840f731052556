// Content-Type as RFC 9110 sections 8.3.1 and 5.6.6 read it: quoted parameter values may hold
// ';' and '=', escapes are unescaped before the charset is compared, empty parameters are
// allowed, and anything that is not the grammar is not JSON.

#include "adapters/http/api/media_type.hpp"

#include <string_view>

#include <gtest/gtest.h>

namespace petstore::tests {
namespace {

using adapters::http::classify_json_media_type;
using adapters::http::JsonMediaType;

TEST(MediaType, ApplicationJsonWithAnyParametersInUtf8IsJson) {
  for (const std::string_view type :
       {"application/json", "Application/JSON", " application/json ", "application/json;",
        "application/json; charset=utf-8", "application/json;charset=UTF-8",
        R"(application/json; charset="utf-8")", R"(application/json; charset="utf\-8")",
        R"(application/json; foo="a;b")", R"(application/json; foo="a=b"; charset=utf-8)",
        R"(application/json; foo="say \"hi\"")", "application/json ; charset=utf-8",
        "application/json; ;charset=utf-8", "application/json;\tprofile=x"}) {
    EXPECT_EQ(classify_json_media_type(type), JsonMediaType::json) << type;
  }
}

TEST(MediaType, ApplicationJsonInAnotherCharsetIsToldApart) {
  for (const std::string_view type :
       {"application/json; charset=latin1", "application/json; charset=iso-8859-1",
        R"(application/json; foo="charset=utf-8"; charset="utf-16")",
        "application/json; charset=utf-8; charset=utf-16"}) {
    EXPECT_EQ(classify_json_media_type(type), JsonMediaType::other_charset) << type;
  }
}

TEST(MediaType, AnythingElseIsNotJson) {
  for (const std::string_view type :
       {"", "application", "application/", "/json", "application/jsonx", "text/json",
        "application/json-patch+json", "application/*", "application /json", "application/ json",
        "application/json x", "application/json; charset", "application/json; charset=",
        "application/json; =utf-8", R"(application/json; foo="unclosed)",
        R"(application/json; foo="a"b)", "application/json; foo=a b", "application/json,text/plain",
        "application/json; foo=\"\x01\""}) {
    EXPECT_EQ(classify_json_media_type(type), JsonMediaType::not_json) << type;
  }
}

}  // namespace
}  // namespace petstore::tests

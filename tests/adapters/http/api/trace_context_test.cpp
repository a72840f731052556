// W3C Trace Context (Level 1, section 3.2): which traceparent values are continued, which start
// a new trace, and what the request's own context then holds.

#include "adapters/http/api/trace_context.hpp"

#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace petstore::adapters::http {
namespace {

const std::string trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
const std::string parent_id = "00f067aa0ba902b7";
const std::string valid = "00-" + trace_id + "-" + parent_id + "-01";

bool is_lower_hex(std::string_view text) {
  return text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// expect_well_formed: a context whose traceparent is a version-00 value with non-zero ids.
void expect_well_formed(const ports::TraceContext& trace) {
  ASSERT_FALSE(trace.empty());
  const std::string_view parent = trace.parent();
  EXPECT_TRUE(parse_traceparent(parent).has_value()) << parent;
  EXPECT_TRUE(parent.starts_with("00-")) << parent;
  EXPECT_TRUE(is_lower_hex(trace.trace_id())) << parent;
  EXPECT_TRUE(is_lower_hex(trace.span_id())) << parent;
}

TEST(TraceContext, AValidTraceparentIsContinuedUnderANewSpanOfTheService) {
  const auto trace = trace_request({valid, false, "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"});
  expect_well_formed(trace);
  EXPECT_EQ(trace.trace_id(), trace_id);
  EXPECT_NE(trace.span_id(), parent_id) << "the service's own span";
  EXPECT_TRUE(trace.parent().ends_with("-01")) << "sampled is kept";
  EXPECT_EQ(trace.tracestate, "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7");
  const auto unsampled = trace_request({"00-" + trace_id + "-" + parent_id + "-00", false, {}});
  EXPECT_TRUE(unsampled.parent().ends_with("-00"));
  EXPECT_EQ(unsampled.tracestate, "");
  // Flags other than sampled are not passed on (a version-00 traceparent has no others).
  EXPECT_TRUE(trace_request({"00-" + trace_id + "-" + parent_id + "-fe", false, {}})
                  .parent()
                  .ends_with("-00"));
  EXPECT_TRUE(trace_request({"00-" + trace_id + "-" + parent_id + "-03", false, {}})
                  .parent()
                  .ends_with("-01"));
}

TEST(TraceContext, ALaterVersionIsReadAsVersion00WhereItFits) {
  const std::vector<std::string> later{"01-" + trace_id + "-" + parent_id + "-01",
                                       "cc-" + trace_id + "-" + parent_id + "-01",
                                       "01-" + trace_id + "-" + parent_id + "-01-what-comes-later"};
  for (const std::string& value : later) {
    const auto ids = parse_traceparent(value);
    ASSERT_TRUE(ids.has_value()) << value;
    EXPECT_EQ(ids->trace_id, trace_id);
    EXPECT_EQ(trace_request({value, false, {}}).trace_id(), trace_id);
  }
}

TEST(TraceContext, MalformedValuesStartANewTraceAndDropTheTracestate) {
  const std::string upper_trace = "4BF92F3577B34DA6A3CE929D0E0E4736";
  const std::vector<std::string> malformed{
      "ff-" + trace_id + "-" + parent_id + "-01",              // version ff
      "00-" + std::string(32, '0') + "-" + parent_id + "-01",  // all-zero trace id
      "00-" + trace_id + "-" + std::string(16, '0') + "-01",   // all-zero parent id
      "00-" + upper_trace + "-" + parent_id + "-01",           // upper-case trace id
      "00-" + trace_id + "-00F067AA0BA902B7-01",               // upper-case parent id
      "0A-" + trace_id + "-" + parent_id + "-01",              // upper-case version
      "00-" + trace_id + "-" + parent_id + "-0A",              // upper-case flags
      "00-" + trace_id + "-" + parent_id + "-01-",             // 00 longer than 55
      "00-" + trace_id + "-" + parent_id + "-1",               // 00 shorter than 55
      "00-" + trace_id.substr(1) + "-" + parent_id + "-01",    // trace id of 31
      "00-" + trace_id + "0-" + parent_id + "-01",             // trace id of 33
      "00-" + trace_id + "-" + parent_id.substr(1) + "-01",    // parent id of 15
      "01-" + trace_id + "-" + parent_id + "-01x",             // later version, no '-'
      "00_" + trace_id + "_" + parent_id + "_01",              // wrong separators
      "0g-" + trace_id + "-" + parent_id + "-01",              // not hex
      "00-" + trace_id + "-" + parent_id + "-xy",              // flags not hex
      std::string(),
      std::string("garbage"),
  };
  for (const std::string& value : malformed) {
    EXPECT_FALSE(parse_traceparent(value).has_value()) << value;
    const auto trace = trace_request({value, false, "congo=t61rcWkgMzE"});
    expect_well_formed(trace);
    EXPECT_NE(trace.trace_id(), trace_id) << value;
    EXPECT_EQ(trace.tracestate, "") << "a tracestate is kept only beside a valid traceparent";
    EXPECT_TRUE(trace.parent().ends_with("-00")) << value;
  }
}

TEST(TraceContext, ARepeatedTraceparentIsNotTrusted) {
  const auto trace = trace_request({valid, true, "congo=t61rcWkgMzE"});
  expect_well_formed(trace);
  EXPECT_NE(trace.trace_id(), trace_id);
  EXPECT_EQ(trace.tracestate, "");
}

TEST(TraceContext, ATracestateTooLongOrNotPrintableIsDroppedAndTheTraceKept) {
  for (const std::string& state :
       {std::string(max_tracestate_size + 1, 'a'), std::string("congo=t61\x01"),
        std::string("congo=caf\xc3\xa9")}) {
    const auto trace = trace_request({valid, false, state});
    EXPECT_EQ(trace.trace_id(), trace_id);
    EXPECT_EQ(trace.tracestate, "");
  }
  EXPECT_EQ(trace_request({valid, false, std::string(max_tracestate_size, 'a')}).tracestate.size(),
            max_tracestate_size);
}

// New ids are random in every digit: over 1,000 traces each place of the trace id and of the span
// id takes each of the 16 digits (a digit missed by chance: about 1 in 10^26).
TEST(TraceContext, NoTraceparentStartsANewTraceEachTime) {
  std::set<std::string, std::less<>> traces;
  std::set<std::string, std::less<>> spans;
  std::vector<std::set<char>> digits_at(32 + 16);
  for (int request = 0; request < 1000; ++request) {
    const auto trace = trace_request({std::nullopt, false, std::nullopt});
    expect_well_formed(trace);
    traces.emplace(trace.trace_id());
    spans.emplace(trace.span_id());
    const std::string ids = std::string(trace.trace_id()) + std::string(trace.span_id());
    for (std::size_t place = 0; place < ids.size() && place < digits_at.size(); ++place) {
      digits_at[place].insert(ids[place]);
    }
  }
  EXPECT_EQ(traces.size(), 1000U);
  EXPECT_EQ(spans.size(), 1000U);
  for (std::size_t place = 0; place < digits_at.size(); ++place) {
    EXPECT_EQ(digits_at[place].size(), 16U) << "place " << place;
  }
}

RC_GTEST_PROP(TraceContext, EveryWellFormedTraceparentIsContinued,
              (const std::array<unsigned char, 16>& trace_bytes,
               const std::array<unsigned char, 8>& parent_bytes, bool sampled)) {
  static constexpr std::string_view digits = "0123456789abcdef";
  std::string value = "00-";
  for (const unsigned char byte : trace_bytes) {
    value += digits[byte >> 4U];
    value += digits[byte & 0xFU];
  }
  value += '-';
  for (const unsigned char byte : parent_bytes) {
    value += digits[byte >> 4U];
    value += digits[byte & 0xFU];
  }
  value += sampled ? "-01" : "-00";
  const bool zero_trace = value.substr(3, 32) == std::string(32, '0');
  const bool zero_parent = value.substr(36, 16) == std::string(16, '0');
  const auto ids = parse_traceparent(value);
  RC_ASSERT(ids.has_value() == (!zero_trace && !zero_parent));
  if (ids) {
    const auto trace = trace_request({value, false, std::nullopt});
    RC_ASSERT(trace.trace_id() == value.substr(3, 32));
    RC_ASSERT(trace.parent().ends_with(sampled ? "-01" : "-00"));
  }
}

}  // namespace
}  // namespace petstore::adapters::http

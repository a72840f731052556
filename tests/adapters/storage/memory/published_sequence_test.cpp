// PublishedSequence: what one writer appends reads back whole and in place, from any thread.

#include "adapters/storage/memory/published_sequence.hpp"

#include <atomic>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace petstore::tests {
namespace {

using adapters::storage::memory::PublishedSequence;

// Any run of appends, across as many chunks as it takes: each element reads back as appended and
// stays where it was built, by index and in runs. The elements own heap memory, so AddressSanitizer
// sees one freed twice or never.
RC_GTEST_PROP(PublishedSequenceProperties, EveryElementReadsBackWhereItWasBuilt, ()) {
  const auto values = *rc::gen::container<std::vector<std::string>>(
      *rc::gen::inRange<std::size_t>(0, 3000), rc::gen::arbitrary<std::string>());
  PublishedSequence<std::string> sequence;
  std::vector<const std::string*> places;
  for (const auto& value : values) {
    sequence.push_back(value);
    RC_ASSERT(sequence.size() == places.size() + 1);
    RC_ASSERT(sequence.back() == value);
    places.push_back(&sequence.back());
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    RC_ASSERT(&sequence[i] == places[i]);
    RC_ASSERT(sequence[i] == values[i]);
  }
  // Runs read from any start up to any end hold those elements, in place, and none past the end.
  const auto end = *rc::gen::inRange<std::size_t>(0, values.size() + 1);
  const auto start = *rc::gen::inRange<std::size_t>(0, end + 1);
  for (std::size_t next = start; next < end;) {
    const auto run = sequence.run_from(next, end);
    RC_ASSERT(!run.empty());
    RC_ASSERT(next + run.size() <= end);
    for (const auto& element : run) {
      RC_ASSERT(&element == places[next]);
      ++next;
    }
  }
}

// A reader that runs beside the writer sees a size only once every element below it is built:
// element i always holds the text of i. On x86 it catches the size published before the element;
// a weaker order (relaxed) shows only under ThreadSanitizer, which scripts/tsan runs it under.
TEST(PublishedSequence, AReaderSeesOnlyWholeElements) {
  constexpr std::size_t appends = 100'000;
  PublishedSequence<std::string> sequence;
  std::atomic<bool> writing{true};
  std::atomic<std::size_t> wrong{0};
  std::atomic<std::size_t> reads{0};
  constexpr int reader_count = 2;
  std::vector<std::thread> readers;
  readers.reserve(reader_count);
  for (int r = 0; r < reader_count; ++r) {
    readers.emplace_back([&] {
      while (writing.load()) {
        const std::size_t size = sequence.size();
        if (size == 0) {
          continue;
        }
        // The newest, the first and one between: the newest is the one being published.
        for (const std::size_t i : {size - 1, std::size_t{0}, size / 2}) {
          wrong += sequence[i] != "element " + std::to_string(i) ? 1 : 0;
        }
        ++reads;
      }
    });
  }
  for (std::size_t i = 0; i < appends; ++i) {
    sequence.push_back("element " + std::to_string(i));
  }
  writing = false;
  for (auto& reader : readers) {
    reader.join();
  }
  EXPECT_EQ(wrong.load(), 0U);
  EXPECT_GT(reads.load(), 0U);
  EXPECT_EQ(sequence.size(), appends);
}

}  // namespace
}  // namespace petstore::tests

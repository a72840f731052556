// Storage faults injected through the PetRepository port (contract section 3, issue "Stop and
// faults"): during a full disk, an I/O error or a map full beyond growth, createPet, listPets and
// getPet answer 503 `unavailable` with the Error body; an internal failure answers 500
// `internal_error` without its details. A failed create leaves nothing behind (no pet, no id, no
// idempotency record) and the service works again once the fault clears. Each fault's request
// line is an error with the adapter's words for the operator, under the request's id.

#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <gtest/gtest.h>

#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "support/log_capture.hpp"
#include "support/router_harness.hpp"

#include "faults/fault_assertions.hpp"
#include "faults/faulty_pet_repository.hpp"

namespace petstore::tests {
namespace {

// post_pet_once: POST /v1/pets of `name` under Idempotency-Key `key`.
TestRequest post_pet_once(std::string_view name, std::string key) {
  TestRequest made = post_pet(new_pet_json(name));
  made.idempotency_key = std::move(key);
  return made;
}

class StorageFaultTest : public testing::Test {
 protected:
  StorageFaultTest() {
    auto faulty = std::make_unique<FaultyPetRepository>(
        adapters::storage::memory::make_memory_pet_repository());
    storage_ = faulty.get();
    harness_ = std::make_unique<RouterHarness>(std::move(faulty), log_.get());
  }

  // fault_lines: the request lines logged so far that carry a fault, parsed.
  std::vector<boost::json::object> fault_lines() {
    std::vector<boost::json::object> lines;
    std::istringstream text(log_.text());
    for (std::string line; std::getline(text, line);) {
      auto parsed = boost::json::parse(line).as_object();
      if (parsed.at("event") == "request" && parsed.contains("fault")) {
        lines.push_back(std::move(parsed));
      }
    }
    return lines;
  }

  // created: the id of a pet created now; fails the test unless the answer is 201.
  std::int64_t created(const std::string& name) {
    const HttpResponse response = harness_->send(post_pet(new_pet_json(name)));
    EXPECT_EQ(response.status, 201U) << response.body;
    return listed_pet(response.body).id;
  }

  LogCapture log_{adapters::logging::LogFormat::json, adapters::logging::LogLevel::info};
  FaultyPetRepository* storage_ = nullptr;  // owned by harness_
  std::unique_ptr<RouterHarness> harness_;
};

// is_fault_line: whether `line` is the error-level request line of request `request_id`, an
// `operation` answered 503 (unavailable) or 500 (internal), whose fault is `error`'s message and
// the adapter's detail.
testing::AssertionResult is_fault_line(const boost::json::object& line, std::string_view request_id,
                                       std::string_view operation, const domain::Error& error) {
  const std::int64_t status = error.code == domain::ErrorCode::unavailable ? 503 : 500;
  const auto text = [&line](std::string_view key) -> std::string_view {
    const auto* value = line.if_contains(key);
    const auto* string = value != nullptr ? value->if_string() : nullptr;
    return string != nullptr ? std::string_view(*string) : std::string_view("<missing>");
  };
  const auto* logged_status = line.if_contains("status");
  if (text("level") != "error" || text("request_id") != request_id ||
      text("operation") != operation || logged_status == nullptr || !logged_status->is_int64() ||
      logged_status->get_int64() != status ||
      text("fault") != error.message + ": " + error.detail) {
    return testing::AssertionFailure() << boost::json::serialize(line);
  }
  return testing::AssertionSuccess();
}

class UnavailableStorageTest : public StorageFaultTest,
                               public testing::WithParamInterface<StorageFault> {};

TEST_P(UnavailableStorageTest, AFailedCreateAnswers503AndLeavesNothingBehind) {
  ASSERT_EQ(created("Rex"), 1);
  storage_->fail_next(RepositoryCall::create, GetParam());

  EXPECT_TRUE(is_unavailable(harness_->send(post_pet(new_pet_json("Max")))));

  EXPECT_EQ(harness_->list_all(), (std::vector<ListedPet>{{1, "Rex"}}));
  EXPECT_EQ(created("Bella"), 2);  // the failed create took no id
  EXPECT_EQ(harness_->list_all(), (std::vector<ListedPet>{{1, "Rex"}, {2, "Bella"}}));
  EXPECT_EQ(storage_->failed_calls(), 1U);
}

TEST_P(UnavailableStorageTest, ListAndGetAnswer503DuringTheFaultAnd200After) {
  ASSERT_EQ(created("Rex"), 1);
  storage_->fail_until_cleared(RepositoryCall::list, GetParam());
  storage_->fail_until_cleared(RepositoryCall::get, GetParam());

  for (int attempt = 0; attempt < 3; ++attempt) {
    EXPECT_TRUE(is_unavailable(harness_->send(request("GET", "/v1/pets"))));
    EXPECT_TRUE(
        is_unavailable(harness_->send(request("GET", "/v1/pets?status=available&limit=5"))));
    EXPECT_TRUE(is_unavailable(harness_->send(request("GET", "/v1/pets/1"))));
  }
  // Requests refused before storage is reached still get their own answers.
  EXPECT_EQ(harness_->send(request("GET", "/v1/pets?limit=0")).status, 400U);
  EXPECT_EQ(harness_->send(request("GET", "/v1/pets/x")).status, 400U);

  storage_->clear();
  const HttpResponse pet = harness_->send(request("GET", "/v1/pets/1"));
  EXPECT_EQ(pet.status, 200U) << pet.body;
  EXPECT_EQ(listed_pet(pet.body), (ListedPet{1, "Rex"}));
  EXPECT_EQ(harness_->list_all(), (std::vector<ListedPet>{{1, "Rex"}}));
  EXPECT_EQ(storage_->failed_calls(), 9U);
}

TEST_P(UnavailableStorageTest, TheServiceWorksAgainWhenTheFaultClears) {
  storage_->fail_until_cleared(RepositoryCall::create, GetParam());
  for (int attempt = 0; attempt < 5; ++attempt) {
    EXPECT_TRUE(is_unavailable(harness_->send(post_pet(new_pet_json("Rex")))));
  }
  EXPECT_TRUE(harness_->list_all().empty());

  storage_->clear();
  EXPECT_EQ(created("Rex"), 1);
  EXPECT_EQ(created("Max"), 2);
  EXPECT_EQ(harness_->list_all(), (std::vector<ListedPet>{{1, "Rex"}, {2, "Max"}}));
}

// A create that failed recorded no idempotency key: the retry with the same key creates the pet,
// and a repeat of that retry answers the same pet.
TEST_P(UnavailableStorageTest, ARetryAfterAFailedCreateWithAnIdempotencyKeyCreatesOnce) {
  storage_->fail_next(RepositoryCall::create, GetParam());
  EXPECT_TRUE(is_unavailable(harness_->send(post_pet_once("Rex", "retry-1"))));

  const HttpResponse retry = harness_->send(post_pet_once("Rex", "retry-1"));
  EXPECT_EQ(retry.status, 201U) << retry.body;
  EXPECT_EQ(listed_pet(retry.body), (ListedPet{1, "Rex"}));
  const HttpResponse repeat = harness_->send(post_pet_once("Rex", "retry-1"));
  EXPECT_EQ(repeat.status, 201U) << repeat.body;
  EXPECT_EQ(listed_pet(repeat.body), (ListedPet{1, "Rex"}));
  EXPECT_EQ(harness_->list_all(), (std::vector<ListedPet>{{1, "Rex"}}));
}

TEST_P(UnavailableStorageTest, EachFaultWritesOneErrorLineForTheOperator) {
  ASSERT_EQ(created("Rex"), 1);
  EXPECT_TRUE(fault_lines().empty());
  storage_->fail_next(RepositoryCall::create, GetParam());
  storage_->fail_next(RepositoryCall::list, GetParam());
  storage_->fail_next(RepositoryCall::get, GetParam());

  EXPECT_TRUE(is_unavailable(harness_->send(post_pet(new_pet_json("Max")))));
  EXPECT_TRUE(is_unavailable(harness_->send(request("GET", "/v1/pets"))));
  EXPECT_TRUE(is_unavailable(harness_->send(request("GET", "/v1/pets/1"))));
  EXPECT_EQ(harness_->send(request("GET", "/v1/pets/99")).status, 404U);  // not a fault: no line

  // Requests 2, 3 and 4 (the first created Rex): each line under its own request's id.
  const auto lines = fault_lines();
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_TRUE(is_fault_line(lines[0], "harness-2", "createPet", storage_error(GetParam())));
  EXPECT_TRUE(is_fault_line(lines[1], "harness-3", "listPets", storage_error(GetParam())));
  EXPECT_TRUE(is_fault_line(lines[2], "harness-4", "getPet", storage_error(GetParam())));
}

std::string fault_name(const testing::TestParamInfo<StorageFault>& param) {
  switch (param.param) {
    case StorageFault::disk_full:
      return "DiskFull";
    case StorageFault::io_error:
      return "IoError";
    case StorageFault::map_full:
      return "MapFull";
    case StorageFault::internal:
      break;
  }
  return "Internal";
}

INSTANTIATE_TEST_SUITE_P(Faults, UnavailableStorageTest,
                         testing::Values(StorageFault::disk_full, StorageFault::io_error,
                                         StorageFault::map_full),
                         fault_name);

class InternalStorageTest : public StorageFaultTest {};

TEST_F(InternalStorageTest, EachOperationAnswers500WithoutTheDetails) {
  ASSERT_EQ(created("Rex"), 1);
  storage_->fail_next(RepositoryCall::create, StorageFault::internal);
  storage_->fail_next(RepositoryCall::list, StorageFault::internal);
  storage_->fail_next(RepositoryCall::get, StorageFault::internal);

  EXPECT_TRUE(is_internal_error(harness_->send(post_pet(new_pet_json("Max")))));
  EXPECT_TRUE(is_internal_error(harness_->send(request("GET", "/v1/pets"))));
  EXPECT_TRUE(is_internal_error(harness_->send(request("GET", "/v1/pets/1"))));

  EXPECT_EQ(harness_->list_all(), (std::vector<ListedPet>{{1, "Rex"}}));
  EXPECT_EQ(created("Max"), 2);
}

// The details a client never sees are what the operator needs: they go to the log.
TEST_F(InternalStorageTest, TheDetailsGoToTheLogLine) {
  storage_->fail_next(RepositoryCall::create, StorageFault::internal);
  storage_->fail_next(RepositoryCall::get, StorageFault::internal);
  EXPECT_TRUE(is_internal_error(harness_->send(post_pet(new_pet_json("Max")))));
  EXPECT_TRUE(is_internal_error(harness_->send(request("GET", "/v1/pets/1"))));

  const auto lines = fault_lines();
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_TRUE(
      is_fault_line(lines[0], "harness-1", "createPet", storage_error(StorageFault::internal)));
  EXPECT_TRUE(
      is_fault_line(lines[1], "harness-2", "getPet", storage_error(StorageFault::internal)));
  const std::string logged = log_.text();
  for (const char* detail : internal_details) {
    EXPECT_NE(logged.find(detail), std::string::npos) << detail;
  }
}

// An operator who logs only warnings and errors still sees each failed call, and nothing else.
TEST(StorageFaultLog, AFailedCallsLineIsAnErrorThatAWarnLevelLogKeeps) {
  LogCapture log(adapters::logging::LogFormat::json, adapters::logging::LogLevel::warn);
  auto faulty = std::make_unique<FaultyPetRepository>(
      adapters::storage::memory::make_memory_pet_repository());
  FaultyPetRepository& storage = *faulty;
  const RouterHarness harness(std::move(faulty), log.get());
  ASSERT_EQ(harness.send(post_pet(new_pet_json("Rex"))).status, 201U);
  EXPECT_EQ(log.text(), "");  // an ordinary request's line is info
  storage.fail_next(RepositoryCall::get, StorageFault::io_error);
  EXPECT_TRUE(is_unavailable(harness.send(request("GET", "/v1/pets/1"))));
  std::istringstream text(log.text());
  std::string line;
  ASSERT_TRUE(std::getline(text, line));
  EXPECT_TRUE(is_fault_line(boost::json::parse(line).as_object(), "harness-2", "getPet",
                            storage_error(StorageFault::io_error)));
  EXPECT_FALSE(std::getline(text, line)) << line;
}

}  // namespace
}  // namespace petstore::tests

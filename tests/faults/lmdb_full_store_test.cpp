// A real "disk full": an LMDB store whose map may not grow past 256 KiB, driven through the
// Router. Creates past the limit answer 503 `unavailable` with the Error body; every pet
// acknowledged with a 201 stays readable, no other pet appears, and a reopened store holds
// exactly the acknowledged pets, with the next id right after them.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "support/log_capture.hpp"
#include "support/router_harness.hpp"
#include "support/temp_dir.hpp"

#include "faults/fault_assertions.hpp"

namespace petstore::tests {
namespace {

constexpr std::size_t kib = 1024;
constexpr std::size_t max_map_size = 256 * kib;
constexpr int wave_size = 32;      // creates in flight at once, so that batches commit together
constexpr int max_creates = 4000;  // far more than 256 KiB holds

adapters::storage::lmdb::LmdbOptions tiny_store(const std::filesystem::path& dir) {
  adapters::storage::lmdb::LmdbOptions options;
  options.data_dir = dir;
  options.initial_map_size = 64 * kib;
  options.map_growth_step = 32 * kib;
  options.max_map_size = max_map_size;
  return options;
}

std::unique_ptr<ports::PetRepository> open(const adapters::storage::lmdb::LmdbOptions& options) {
  auto repository = adapters::storage::lmdb::make_lmdb_pet_repository(options);
  if (!repository) {
    throw std::runtime_error("cannot open the store: " + repository.error().message);
  }
  return std::move(*repository);
}

// name_of: a long name (730 bytes whatever the index), so that few pets fill the map.
std::string name_of(int index) {
  std::string digits = std::to_string(index);
  std::string name = "Pet " + std::string(6 - digits.size(), '0') + digits + " ";
  for (int i = 0; i < 180; ++i) {
    name += "\xF0\x9F\x90\x95";  // U+1F415 DOG
  }
  return name;
}

// Filling: creates pets through the router, noting each one acknowledged and each 503.
struct Filling {
  std::map<std::int64_t, std::string> acknowledged;
  int unavailable = 0;
  int sent = 0;

  // send: `count` creates in flight at once; false when any of them answered 503.
  bool send(const RouterHarness& service, int count) {
    std::vector<TestRequest> wave;
    wave.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
      wave.push_back(post_pet(new_pet_json(name_of(sent + i))));
    }
    const auto responses = service.send_all(wave);
    const int before = unavailable;
    for (std::size_t i = 0; i < responses.size(); ++i) {
      if (responses[i].status == 201) {
        const ListedPet pet = listed_pet(responses[i].body);
        EXPECT_EQ(pet.name, name_of(sent + static_cast<int>(i)));
        EXPECT_TRUE(acknowledged.emplace(pet.id, pet.name).second) << "id given twice";
      } else {
        EXPECT_TRUE(is_unavailable(responses[i]));
        ++unavailable;
      }
    }
    sent += count;
    return unavailable == before;
  }
};

// fill: waves of creates until one sees a 503, then single creates until one fails too, so that
// the store is full even for one more pet.
Filling fill(const RouterHarness& service) {
  Filling filling;
  while (filling.sent < max_creates && filling.send(service, wave_size)) {
  }
  while (filling.sent < max_creates && filling.send(service, 1)) {
  }
  return filling;
}

std::vector<ListedPet> as_list(const std::map<std::int64_t, std::string>& pets) {
  std::vector<ListedPet> list;
  list.reserve(pets.size());
  for (const auto& [id, name] : pets) {
    list.push_back({id, name});
  }
  return list;
}

TEST(LmdbFullStore, CreatesPastTheLargestMapAnswer503AndAcknowledgedPetsRemain) {
  const TempDir dir;
  const auto options = tiny_store(dir.path());
  std::map<std::int64_t, std::string> acknowledged;
  LogCapture log(adapters::logging::LogFormat::text, adapters::logging::LogLevel::info);
  {
    RouterHarness service(open(options), log.get());
    const Filling filling = fill(service);
    acknowledged = filling.acknowledged;
    ASSERT_LT(filling.sent, max_creates) << "the store never filled up";
    ASSERT_FALSE(acknowledged.empty());
    // Acknowledged ids are 1..n: a failed batch took no id.
    EXPECT_EQ(acknowledged.rbegin()->first, static_cast<std::int64_t>(acknowledged.size()));

    // A full store still serves reads, and still refuses creates.
    EXPECT_EQ(service.list_all(), as_list(acknowledged));
    for (const auto& [id, name] : acknowledged) {
      const HttpResponse pet = service.send(request("GET", "/v1/pets/" + std::to_string(id)));
      ASSERT_EQ(pet.status, 200U) << pet.body;
      EXPECT_EQ(listed_pet(pet.body), (ListedPet{id, name}));
    }
    EXPECT_TRUE(is_unavailable(service.send(post_pet(new_pet_json(name_of(max_creates))))));
    service.close_storage();
  }
  // The refused create's request line names LMDB's own reason; the client saw only "storage is
  // full".
  const std::string logged = log.text_at_close();
  EXPECT_NE(logged.find("error request request_id=harness-"), std::string::npos)
      << logged.substr(0, 2000);
  EXPECT_NE(logged.find("status=503"), std::string::npos) << logged.substr(0, 2000);
  EXPECT_NE(logged.find("fault=\"storage is full"), std::string::npos) << logged.substr(0, 2000);
  EXPECT_NE(logged.find("MDB_MAP_FULL"), std::string::npos) << logged.substr(0, 2000);
  {
    RouterHarness reopened(open(options));
    EXPECT_EQ(reopened.list_all(), as_list(acknowledged));
  }
  auto roomier = options;
  roomier.max_map_size = 4 * max_map_size;
  RouterHarness grown(open(roomier));
  const HttpResponse next = grown.send(post_pet(new_pet_json("Rex")));
  ASSERT_EQ(next.status, 201U) << next.body;
  EXPECT_EQ(listed_pet(next.body).id, acknowledged.rbegin()->first + 1);
  EXPECT_EQ(grown.list_all().size(), acknowledged.size() + 1);
}

}  // namespace
}  // namespace petstore::tests

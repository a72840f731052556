#include "create_load.hpp"

#include <chrono>
#include <limits>
#include <random>

namespace petstore::tests::system {
namespace {

constexpr std::chrono::seconds load_deadline{30};
constexpr const char* statuses[] = {"available", "pending", "sold"};

}  // namespace

CreateLoad::CreateLoad(std::uint16_t port, std::string api_key, std::string name_prefix,
                       std::uint64_t seed, std::size_t clients)
    : port_(port), api_key_(std::move(api_key)), name_prefix_(std::move(name_prefix)) {
  for (std::size_t client = 0; client < clients; ++client) {
    clients_.emplace_back([this, client, seed] { run_client(client, seed + client); });
  }
  while (connected_.load() < clients) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

CreateLoad::~CreateLoad() {
  for (auto& client : clients_) {
    if (client.joinable()) {
      client.join();
    }
  }
}

LoadRecord CreateLoad::finish() {
  for (auto& client : clients_) {
    client.join();
  }
  const std::lock_guard lock(record_mutex_);
  return std::move(record_);
}

void CreateLoad::run_client(std::size_t client, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<std::int64_t> category(std::numeric_limits<std::int64_t>::min(),
                                                       std::numeric_limits<std::int64_t>::max());
  std::uniform_int_distribution<std::size_t> status_pick(0, 3);  // 3: status left out
  LoadRecord mine;
  auto connection = RawConnection::try_connect(loopback(port_));
  ++connected_;
  if (!connection) {
    mine.unexpected.push_back("client " + std::to_string(client) + " could not connect");
  }
  const auto deadline = std::chrono::steady_clock::now() + load_deadline;
  bool open = connection.has_value();
  for (std::size_t n = 0; open; ++n) {
    if (std::chrono::steady_clock::now() >= deadline) {
      mine.hit_deadline = true;
      break;
    }
    const std::size_t pick = status_pick(random);
    WirePet pet{0, name_prefix_ + "-c" + std::to_string(client) + "-" + std::to_string(n),
                category(random), statuses[pick % 3]};
    mine.sent.push_back(pet);
    const auto response = request(*connection, "POST", "/v1/pets", api_key_,
                                  new_pet_json(pet, /*omit_status=*/pick == 3));
    if (!response) {
      break;  // the server is gone: this create may or may not have been stored
    }
    open = response->header("Connection").value_or("") != "close";
    const auto created = parse_pet(response->body);
    if (response->status != 201 || !created ||
        response->header("Location") != "/v1/pets/" + std::to_string(created->id)) {
      mine.unexpected.push_back("POST " + describe(pet) + ": " + std::to_string(response->status) +
                                " " + response->body);
      continue;
    }
    mine.acknowledged.push_back(*created);
  }
  const std::lock_guard lock(record_mutex_);
  record_.sent.insert(record_.sent.end(), mine.sent.begin(), mine.sent.end());
  record_.acknowledged.insert(record_.acknowledged.end(), mine.acknowledged.begin(),
                              mine.acknowledged.end());
  record_.unexpected.insert(record_.unexpected.end(), mine.unexpected.begin(),
                            mine.unexpected.end());
  record_.hit_deadline = record_.hit_deadline || mine.hit_deadline;
}

}  // namespace petstore::tests::system

#pragma once
// CreateLoad: many clients creating pets at once, each on its own keep-alive connection, until the
// server goes away (the test kills it) or a safety deadline passes. Every create has a unique
// name. It records what was sent and, separately, each pet whose 201 arrived whole: exactly the
// creates the service has acknowledged, which a crash must not lose.

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "wire_pets.hpp"

namespace petstore::tests::system {

struct LoadRecord {
  std::vector<WirePet> sent;            // every create sent (id 0), answered or not
  std::vector<WirePet> acknowledged;    // the Pet of each 201 received whole
  std::vector<std::string> unexpected;  // answers other than a well-formed 201
  bool hit_deadline = false;            // a client still ran at the deadline
};

class CreateLoad {
 public:
  // CreateLoad: starts `clients` threads creating pets named `<name_prefix>-c<client>-<n>`, and
  // returns once every client has connected (connect failures are recorded as unexpected).
  CreateLoad(std::uint16_t port, std::string api_key, std::string name_prefix, std::uint64_t seed,
             std::size_t clients);
  CreateLoad(const CreateLoad&) = delete;
  CreateLoad& operator=(const CreateLoad&) = delete;
  ~CreateLoad();

  // finish: waits for every client to end; what they sent and received.
  [[nodiscard]] LoadRecord finish();

 private:
  void run_client(std::size_t client, std::uint64_t seed);

  std::uint16_t port_;
  std::string api_key_;
  std::string name_prefix_;
  std::atomic<std::size_t> connected_{0};
  std::mutex record_mutex_;
  LoadRecord record_;
  std::vector<std::thread> clients_;
};

}  // namespace petstore::tests::system

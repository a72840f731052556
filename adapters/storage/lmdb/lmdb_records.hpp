#pragma once
// The byte layout of every LMDB key and value the adapter writes. Integer keys are big-endian, so
// that LMDB's memcmp order is numeric order. A record that fails to decode is internal.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "domain/error.hpp"
#include "domain/pet.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::lmdb {

// Version 2 dropped meta's next_id (docs/decisions/lmdb-schema-version-2.md); version 3 added a
// crc32c to each pet record. Store::open migrates older stores forward.
inline constexpr std::uint64_t schema_version = 3;

inline constexpr const char* pets_db = "pets";
inline constexpr const char* pets_by_status_db = "pets_by_status";
inline constexpr const char* meta_db = "meta";
inline constexpr const char* idempotency_db = "idempotency";
inline constexpr const char* idempotency_by_time_db = "idempotency_by_time";
inline constexpr std::string_view schema_version_key = "schema_version";
// Schema version 1 only: the next id, kept in meta; read once, by the migration to version 2.
inline constexpr std::string_view v1_next_id_key = "next_id";

[[nodiscard]] std::string encode_u64(std::uint64_t value);
[[nodiscard]] std::optional<std::uint64_t> decode_u64(std::string_view bytes);

// pets: 8-byte big-endian id (ids are >= 1, so unsigned order is id order).
[[nodiscard]] std::string pet_key(domain::PetId id);
[[nodiscard]] std::optional<domain::PetId> decode_pet_key(std::string_view key);

// pets_by_status: status byte then the pet key; the value is empty.
[[nodiscard]] std::string status_key(domain::PetStatus status, domain::PetId id);

// pets value: format byte (2), crc32c (4 bytes, big-endian) of what follows it, category id,
// status byte, name bytes.
[[nodiscard]] std::string pet_record(const domain::NewPet& pet);

// decode_pet_record: a pet record's pet, its shape and crc32c checked, then every rule of the
// domain again (export, import's checks). Serving reads check less, once: lmdb_checked_pet.hpp.
[[nodiscard]] domain::Result<domain::NewPet> decode_pet_record(std::string_view record);

// decode_v2_pet_record: a pet record of schema versions 1 and 2 (format byte 1, no checksum),
// fully validated; for the migration to version 3 only.
[[nodiscard]] domain::Result<domain::NewPet> decode_v2_pet_record(std::string_view record);

// idempotency: key = 2-byte scope length, scope, key (length-prefixed, so no scope/key pair can
// alias another); nullopt when it exceeds what LMDB accepts as a key.
[[nodiscard]] std::optional<std::string> idempotency_key(const ports::IdempotencyKey& key);

// idempotency value: what a repeat needs: the pet created then, and when it was received.
struct IdempotencyRecord {
  domain::PetId id;
  std::int64_t received_at_ns = 0;
  domain::NewPet pet;
};
[[nodiscard]] std::string idempotency_record(const IdempotencyRecord& record);
[[nodiscard]] domain::Result<IdempotencyRecord> decode_idempotency_record(std::string_view record);

// idempotency_by_time: order-preserving received_at then pet id; the value is the idempotency
// key, so expired entries are found from the oldest without scanning.
[[nodiscard]] std::string idempotency_time_key(std::int64_t received_at_ns, domain::PetId id);
[[nodiscard]] std::optional<std::int64_t> decode_time_key(std::string_view key);

[[nodiscard]] std::int64_t to_nanoseconds(std::chrono::system_clock::time_point time);

// The one message every damaged record gives; details would be internals.
[[nodiscard]] domain::Error damaged_record();

}  // namespace petstore::adapters::storage::lmdb

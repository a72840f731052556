#pragma once
// The byte layout of every LMDB key and value the adapter writes. Integer keys are big-endian, so
// that LMDB's memcmp order is numeric order. A record that fails to decode is internal.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include <boost/endian/conversion.hpp>

#include "adapters/storage/lmdb/lmdb_checksum.hpp"
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
// domain again (export, import's checks). Serving reads check less, once: checked_pet below.
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

// The serving reads' view of a pet record: shape and crc32c checked, parts read in place, the
// name not validated again (docs/decisions/lmdb-read-checksum.md). Inline: a page runs it once a
// pet. Export, import and migrations use decode_pet_record.

// The format byte of a pet record with a crc32c, and the crc32c's size.
inline constexpr char checked_pet_format = 2;
inline constexpr std::size_t pet_crc_size = 4;

// load_big_endian: the unsigned integer in the first sizeof(T) bytes. REQUIRES: that many bytes.
template <class T>
[[nodiscard]] T load_big_endian(std::string_view bytes) noexcept {
  T value = 0;
  std::memcpy(&value, bytes.data(), sizeof(T));
  return boost::endian::big_to_native(value);
}

// BodyFields: a body's parts, its shape checked (the name is not).
struct BodyFields {
  domain::CategoryId category_id;
  domain::PetStatus status = domain::default_pet_status;
  std::string_view name;
};

// body_fields: a body's category id (8 bytes), status byte and name (at least one byte); nullopt
// when it has another shape or an unknown status.
[[nodiscard]] inline std::optional<BodyFields> body_fields(std::string_view body) noexcept {
  constexpr std::size_t category_size = sizeof(std::uint64_t);
  if (body.size() < category_size + 2) {
    return std::nullopt;
  }
  const auto status_byte = static_cast<unsigned char>(body[category_size]);
  if (status_byte > static_cast<unsigned char>(domain::PetStatus::sold)) {
    return std::nullopt;
  }
  return BodyFields{
      domain::CategoryId{static_cast<std::int64_t>(load_big_endian<std::uint64_t>(body))},
      static_cast<domain::PetStatus>(status_byte), body.substr(category_size + 1)};
}

// checked_body: the body of a format 2 pet record whose crc32c by `crc` (a Crc32c, or a callable
// such as crc32c_hardware, which inlines) matches it.
template <class Crc>
[[nodiscard]] std::optional<std::string_view> checked_body(std::string_view record,
                                                           const Crc& crc) noexcept {
  if (record.size() < 1 + pet_crc_size || record.front() != checked_pet_format) {
    return std::nullopt;
  }
  const std::string_view body = record.substr(1 + pet_crc_size);
  if (load_big_endian<std::uint32_t>(record.substr(1)) != crc(body)) {
    return std::nullopt;
  }
  return body;
}

// CheckedPet: a checked record's parts. Its conversion lets emplace_back build the pet in the
// vector's slot, copying the name once from the record.
struct CheckedPet {
  domain::PetId id;
  BodyFields fields;

  operator domain::Pet() const {  // NOLINT(*-explicit-*): implicit, so that emplace_back uses it
    return domain::Pet{id, domain::PetName::trusted(fields.name), fields.category_id,
                       fields.status};
  }
};

// checked_pet: the pet stored under `key` as `record`, checked by `crc` (as checked_body's);
// nullopt when either is damaged (an id below the first is: none is ever written).
template <class Crc>
[[nodiscard]] std::optional<CheckedPet> checked_pet(std::string_view key, std::string_view record,
                                                    const Crc& crc) noexcept {
  if (key.size() != sizeof(std::uint64_t)) {
    return std::nullopt;
  }
  const auto id = static_cast<std::int64_t>(load_big_endian<std::uint64_t>(key));
  const auto body = checked_body(record, crc);
  const auto fields = body ? body_fields(*body) : std::nullopt;
  if (id < domain::first_pet_id.value || !fields) {
    return std::nullopt;
  }
  return CheckedPet{domain::PetId{id}, *fields};
}

}  // namespace petstore::adapters::storage::lmdb

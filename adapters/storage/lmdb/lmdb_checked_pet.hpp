#pragma once
// The serving reads' view of a pet record (layout: lmdb_records.hpp): shape and crc32c checked,
// parts read in place, the name not validated again (docs/decisions/lmdb-read-checksum.md).
// Inline: a page runs it once a pet. Export, import and migrations use decode_pet_record.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include <boost/endian/conversion.hpp>

#include "adapters/storage/lmdb/lmdb_checksum.hpp"
#include "domain/pet.hpp"

namespace petstore::adapters::storage::lmdb {

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

// append_checked_pet: appends checked_pet's pet in place; false, appending nothing, when damaged.
template <class Crc>
[[nodiscard]] bool append_checked_pet(std::vector<domain::Pet>& pets, std::string_view key,
                                      std::string_view record, const Crc& crc) {
  const auto pet = checked_pet(key, record, crc);
  if (pet) {
    pets.emplace_back(*pet);
  }
  return pet.has_value();
}

}  // namespace petstore::adapters::storage::lmdb

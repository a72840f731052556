#include "adapters/storage/lmdb/lmdb_records.hpp"

#include <utility>

#include <boost/crc.hpp>

namespace petstore::adapters::storage::lmdb {
namespace {

// The format byte of idempotency records, and of the pet records of schema versions 1 and 2.
constexpr char record_format = 1;
constexpr std::size_t u64_size = 8;
constexpr std::uint64_t sign_bit = std::uint64_t{1} << 63U;

// new_pet_body: category id, status byte, name; shared by both record kinds.
std::string new_pet_body(const domain::NewPet& pet) {
  std::string body = encode_u64(static_cast<std::uint64_t>(pet.category_id.value));
  body.push_back(static_cast<char>(pet.status));
  body += pet.name.value();
  return body;
}

// decode_new_pet_body: a body's pet, every rule of the domain checked again.
domain::Result<domain::NewPet> decode_new_pet_body(std::string_view body) {
  const auto fields = body_fields(body);
  if (!fields) {
    return damaged_record();
  }
  auto name = domain::PetName::parse(fields->name);
  if (!name) {
    return damaged_record();
  }
  return domain::NewPet{std::move(*name), fields->category_id, fields->status};
}

}  // namespace

std::string encode_u64(std::uint64_t value) {
  value = boost::endian::native_to_big(value);
  std::string bytes(u64_size, '\0');
  std::memcpy(bytes.data(), &value, u64_size);
  return bytes;
}

std::optional<std::uint64_t> decode_u64(std::string_view bytes) {
  if (bytes.size() != u64_size) {
    return std::nullopt;
  }
  return load_big_endian<std::uint64_t>(bytes);
}

std::string pet_key(domain::PetId id) { return encode_u64(static_cast<std::uint64_t>(id.value)); }

std::optional<domain::PetId> decode_pet_key(std::string_view key) {
  if (key.size() != u64_size) {
    return std::nullopt;
  }
  return domain::PetId{static_cast<std::int64_t>(load_big_endian<std::uint64_t>(key))};
}

std::string status_key(domain::PetStatus status, domain::PetId id) {
  return static_cast<char>(status) + pet_key(id);
}

std::string pet_record(const domain::NewPet& pet) {
  const std::string body = new_pet_body(pet);
  std::string record(1, checked_pet_format);
  record += encode_u64(crc32c(body)).substr(u64_size - pet_crc_size);
  record += body;
  return record;
}

domain::Result<domain::NewPet> decode_pet_record(std::string_view record) {
  const auto body = checked_body(record, crc32c_for_this_cpu());
  if (!body) {
    return damaged_record();
  }
  return decode_new_pet_body(*body);
}

domain::Result<domain::NewPet> decode_v2_pet_record(std::string_view record) {
  if (record.empty() || record.front() != record_format) {
    return damaged_record();
  }
  return decode_new_pet_body(record.substr(1));
}

std::optional<std::string> idempotency_key(const ports::IdempotencyKey& key) {
  // The default LMDB build accepts keys of up to 511 bytes; the scope is a digest and the key at
  // most 255 characters, so real keys fit well within this.
  constexpr std::size_t max_key_size = 511;
  if (key.scope.size() > 0xFFFFU || 2 + key.scope.size() + key.key.size() > max_key_size) {
    return std::nullopt;
  }
  std::string bytes;
  bytes.push_back(static_cast<char>((key.scope.size() >> 8U) & 0xFFU));
  bytes.push_back(static_cast<char>(key.scope.size() & 0xFFU));
  bytes += key.scope;
  bytes += key.key;
  return bytes;
}

std::string idempotency_record(const IdempotencyRecord& record) {
  return record_format + pet_key(record.id) +
         encode_u64(static_cast<std::uint64_t>(record.received_at_ns)) + new_pet_body(record.pet);
}

domain::Result<IdempotencyRecord> decode_idempotency_record(std::string_view record) {
  if (record.size() < 1 + 2 * u64_size || record.front() != record_format) {
    return damaged_record();
  }
  const auto id = decode_pet_key(record.substr(1, u64_size));
  const auto received_at = decode_u64(record.substr(1 + u64_size, u64_size));
  auto pet = decode_new_pet_body(record.substr(1 + 2 * u64_size));
  if (!id || !received_at || !pet) {
    return damaged_record();
  }
  return IdempotencyRecord{*id, static_cast<std::int64_t>(*received_at), std::move(*pet)};
}

std::string idempotency_time_key(std::int64_t received_at_ns, domain::PetId id) {
  // Flipping the sign bit makes unsigned byte order agree with signed order.
  return encode_u64(static_cast<std::uint64_t>(received_at_ns) ^ sign_bit) + pet_key(id);
}

std::optional<std::int64_t> decode_time_key(std::string_view key) {
  if (key.size() != 2 * u64_size) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(load_big_endian<std::uint64_t>(key) ^ sign_bit);
}

std::int64_t to_nanoseconds(std::chrono::system_clock::time_point time) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
}

domain::Error damaged_record() {
  return domain::make_error(domain::ErrorCode::internal, "", "a stored record is damaged");
}

bool crc32c_has_hardware() noexcept {
#if defined(__x86_64__)
  // __builtin_cpu_init first, as the first use may come before the constructors that call it.
  static const bool has = (__builtin_cpu_init(), __builtin_cpu_supports("sse4.2") != 0);
  return has;
#else
  return false;
#endif
}

Crc32c crc32c_for_this_cpu() noexcept {
  static const Crc32c chosen = []() noexcept -> Crc32c {
#if defined(__x86_64__)
    if (crc32c_has_hardware()) {
      return crc32c_hardware;
    }
#endif
    return crc32c_portable;
  }();
  return chosen;
}

std::uint32_t crc32c(std::string_view bytes) noexcept { return crc32c_for_this_cpu()(bytes); }

std::uint32_t crc32c_portable(std::string_view bytes) noexcept {
  boost::crc_optimal<32, 0x1EDC6F41, 0xFFFFFFFF, 0xFFFFFFFF, true, true> crc;  // Castagnoli
  crc.process_bytes(bytes.data(), bytes.size());
  return crc.checksum();
}

}  // namespace petstore::adapters::storage::lmdb

#pragma once
// PetStatus: the availability of a pet. The set of values is closed (contract section 5).

#include <array>
#include <cstdint>
#include <string_view>

#include "domain/error.hpp"

namespace petstore::domain {

enum class PetStatus : std::uint8_t { available = 0, pending = 1, sold = 2 };

// Every status, in the order of their wire names; useful for indexes and generators.
inline constexpr std::array<PetStatus, 3> all_pet_statuses{PetStatus::available, PetStatus::pending,
                                                           PetStatus::sold};

inline constexpr PetStatus default_pet_status = PetStatus::available;

// to_string: the wire name ("available", "pending", "sold").
[[nodiscard]] std::string_view to_string(PetStatus status) noexcept;

// parse_pet_status: the status named exactly (case-sensitive) by `text`, else invalid_argument.
[[nodiscard]] Result<PetStatus> parse_pet_status(std::string_view text,
                                                 std::string_view field = "status");

}  // namespace petstore::domain

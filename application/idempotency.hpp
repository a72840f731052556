#pragma once
// The idempotency rule of createPet, written once (docs/decisions/idempotency-in-the-core.md): a
// repeat with the same key and pet answers the pet first stored; with another pet, a conflict.
// The repository supplies only the atomic "create unless a record exists" (pet_repository.hpp).

#include <chrono>

#include "domain/error.hpp"
#include "domain/pet.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::application {

// idempotency_retention: how long an idempotency key is remembered (contract section 6).
inline constexpr std::chrono::hours idempotency_retention{24};

// is_same_request: whether `stored`, the pet an earlier create stored, is what `sent` asks for.
[[nodiscard]] bool is_same_request(const domain::Pet& stored, const domain::NewPet& sent);

// settle_create: the stored pet when created or when the earlier create sent the same pet;
// conflict (field "idempotency_key") when it sent another; else the repository's error.
[[nodiscard]] domain::Result<domain::Pet> settle_create(
    const domain::NewPet& sent, domain::Result<ports::CreateOutcome> outcome);

// settle_create: what a create without a key answers: the stored pet, or the repository's error.
[[nodiscard]] domain::Result<domain::Pet> settle_create(
    domain::Result<ports::CreateOutcome> outcome);

}  // namespace petstore::application

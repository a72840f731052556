#pragma once
// The idempotency rule of createPet, written once: a create repeated with the same key and the
// same pet answers the pet the first one stored; with the same key and another pet it is a
// conflict. Keys are remembered for `idempotency_retention`. The repository supplies only the
// atomic "create unless a record exists; give back the record's pet" (ports/pet_repository.hpp).

#include <chrono>

#include "domain/error.hpp"
#include "domain/pet.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::application {

// idempotency_retention: how long an idempotency key is remembered (contract section 6).
inline constexpr std::chrono::hours idempotency_retention{24};

// is_same_request: whether `stored`, the pet an earlier create stored, is what `sent` asks for.
[[nodiscard]] bool is_same_request(const domain::Pet& stored, const domain::NewPet& sent);

// settle_create: what a create that sent `sent` answers, given the repository's outcome: the
// stored pet when it was created or when the earlier create sent the same pet; conflict
// (field "idempotency_key") when it sent another; the repository's error otherwise.
[[nodiscard]] domain::Result<domain::Pet> settle_create(
    const domain::NewPet& sent, domain::Result<ports::CreateOutcome> outcome);

// settle_create: what a create without a key answers: the stored pet, or the repository's error.
[[nodiscard]] domain::Result<domain::Pet> settle_create(
    domain::Result<ports::CreateOutcome> outcome);

}  // namespace petstore::application

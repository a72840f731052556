#pragma once
// A fixture for the dependency-rule check: the pet's JSON sits below the adapters and sees only
// the domain, not the ports.
#include "ports/pet_repository.hpp"

#pragma once
// A fixture for the dependency-rule check: the background worker sits below the storage adapters
// and sees no layer, not even the ports.
#include "ports/pet_repository.hpp"

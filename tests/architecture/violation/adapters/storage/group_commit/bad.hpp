// A fixture for the dependency-rule check: the pacing rule is pure, below the storage adapters;
// it sees neither the ports nor a storage technology.
#include <lmdb.h>

#include "ports/pet_repository.hpp"

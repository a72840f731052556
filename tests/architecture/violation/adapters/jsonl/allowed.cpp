// A fixture for the dependency-rule check: JSON Lines may use the pet's JSON (never reported).
#include "adapters/pet_json/pet_encoder.hpp"

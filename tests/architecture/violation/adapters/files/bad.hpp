#pragma once
// A fixture for the dependency-rule check: the file helpers sit below every adapter and see no
// layer, not even the domain.
#include "domain/error.hpp"

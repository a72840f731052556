#pragma once
// A fixture for the dependency-rule check: the domain must not include an adapter.
#include "adapters/http/api/router.hpp"

// A fixture for the dependency-rule check: storage must not reach into the HTTP adapter.
#include "adapters/http/api/router.hpp"

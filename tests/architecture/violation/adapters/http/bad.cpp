// A fixture for the dependency-rule check: HTTP code belongs in one of the adapter's two rooms,
// api/ or server/, never beside them.
#include "adapters/http/api/router.hpp"

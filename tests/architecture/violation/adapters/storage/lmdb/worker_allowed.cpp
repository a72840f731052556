// A fixture for the dependency-rule check: a storage adapter may run blocking work on the
// background worker; this must not be reported.
#include "adapters/worker/background_worker.hpp"

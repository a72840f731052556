// A fixture for the dependency-rule check: the pure room may parse URLs and use the use cases
// (never reported).
#include <boost/url/parse.hpp>

#include "adapters/http/api/routes.hpp"
#include "application/use_cases.hpp"

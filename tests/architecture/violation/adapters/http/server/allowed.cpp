// A fixture for the dependency-rule check: the server may include the pure room and Beast
// (never reported).
#include <boost/beast/http/parser.hpp>

#include "adapters/http/api/router.hpp"

#pragma once
// A fixture for the dependency-rule check: the pure room must not reach into the server.
#include "adapters/http/server/session.hpp"

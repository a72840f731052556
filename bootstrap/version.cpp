#include "bootstrap/commands.hpp"

namespace petstore::bootstrap {

const char* build_version() { return PETSTORE_VERSION; }
const char* build_commit() { return PETSTORE_GIT_COMMIT; }

const char* version_text() {
  return "petstore " PETSTORE_VERSION " (interface 1.0.0, build " PETSTORE_GIT_COMMIT
         ", " PETSTORE_BUILD_TYPE ")";
}

}  // namespace petstore::bootstrap

#include "bootstrap/command_line.hpp"

namespace petstore::bootstrap {

const char* version_text() {
  return "petstore " PETSTORE_VERSION " (interface 1.0.0, build " PETSTORE_GIT_COMMIT
         ", " PETSTORE_BUILD_TYPE ")";
}

}  // namespace petstore::bootstrap

#include "adapters/files/unique_fd.hpp"

#include <unistd.h>

namespace petstore::adapters::files {

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

}  // namespace petstore::adapters::files

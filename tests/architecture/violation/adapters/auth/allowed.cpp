// A fixture for the dependency-rule check: any adapter may write files through adapters/files
// (never reported).
#include "adapters/files/atomic_file_writer.hpp"

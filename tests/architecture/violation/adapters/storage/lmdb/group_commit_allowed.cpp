// A fixture for the dependency-rule check: a storage adapter may pace its writer with the shared
// group-commit rule (never reported).
#include "adapters/storage/group_commit/group_commit_pacing.hpp"

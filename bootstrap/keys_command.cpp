#include <iostream>

#include "adapters/auth/api_key_generator.hpp"
#include "bootstrap/commands.hpp"

namespace petstore::bootstrap {

int run_keys_new(const KeysNewOptions& options) {
  const auto created = adapters::auth::create_api_key(options.api_keys, options.label);
  if (!created) {
    std::cerr << "petstore: " << created.error().message << '\n';
    return created.error().field == "label" ? 2 : 1;
  }
  for (const auto& warning : created->warnings) {
    std::cerr << "petstore: warning: " << warning << '\n';
  }
  // The key is shown this once; only its digest is kept.
  std::cout << created->key << std::endl;
  return 0;
}

}  // namespace petstore::bootstrap

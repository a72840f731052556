#pragma once
// ListOrders (GET /store/orders): the specification names the endpoint but not the order record,
// so version 1 answers unimplemented (contract section 3: 501 not_implemented).

#include <vector>

#include "domain/error.hpp"

namespace petstore::application {

struct Order {};

class ListOrders {
 public:
  [[nodiscard]] domain::Result<std::vector<Order>> operator()() const;
};

}  // namespace petstore::application

#include "application/list_orders.hpp"

namespace petstore::application {

domain::Result<std::vector<Order>> ListOrders::operator()() const {
  return domain::make_error(domain::ErrorCode::unimplemented, "",
                            "store orders are not specified in version 1 of this interface");
}

}  // namespace petstore::application

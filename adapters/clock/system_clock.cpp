#include "adapters/clock/system_clock.hpp"

namespace petstore::adapters::clock {
namespace {

class SystemClock final : public ports::Clock {
 public:
  // Clock
  [[nodiscard]] std::chrono::system_clock::time_point now() const override {
    return std::chrono::system_clock::now();
  }
};

}  // namespace

std::unique_ptr<ports::Clock> make_system_clock() { return std::make_unique<SystemClock>(); }

}  // namespace petstore::adapters::clock

#pragma once
// The wall clock behind the Clock port.

#include <memory>

#include "ports/clock.hpp"

namespace petstore::adapters::clock {

[[nodiscard]] std::unique_ptr<ports::Clock> make_system_clock();

}  // namespace petstore::adapters::clock

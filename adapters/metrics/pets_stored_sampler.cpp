#include "adapters/metrics/pets_stored_sampler.hpp"

#include <cstdint>
#include <mutex>
#include <utility>

namespace petstore::adapters::metrics {

struct PetsStoredSampler::State {
  State(Metrics& gauge_owner, std::chrono::steady_clock::duration interval,
        FailureHandler on_failure)
      : metrics(gauge_owner), min_interval(interval), failed(std::move(on_failure)) {}

  Metrics& metrics;
  const std::chrono::steady_clock::duration min_interval;
  const FailureHandler failed;
  std::mutex mutex;
  bool in_flight = false;
  bool next_at_once = true;    // the last count answered at once with a count
  std::uint64_t started = 0;   // counts started, numbered from 1
  std::uint64_t answered = 0;  // the number of the last count answered
  bool answered_ok = false;    // whether that answer was a count
  std::chrono::steady_clock::time_point last_start{};
};

PetsStoredSampler::PetsStoredSampler(const ports::PetRepository& pets, Metrics& metrics,
                                     std::chrono::steady_clock::duration min_interval,
                                     FailureHandler failed)
    : pets_(pets), state_(std::make_shared<State>(metrics, min_interval, std::move(failed))) {
  sample();
}

PetsStoredSampler::~PetsStoredSampler() = default;

void PetsStoredSampler::sample() {
  const auto now = std::chrono::steady_clock::now();
  std::uint64_t number = 0;
  {
    const std::lock_guard lock(state_->mutex);
    if (state_->in_flight ||
        (!state_->next_at_once && now - state_->last_start < state_->min_interval)) {
      return;
    }
    state_->in_flight = true;
    state_->last_start = now;
    number = ++state_->started;
  }
  // The count may answer inside this call (memory, LMDB) or later on another thread.
  pets_.count([state = state_, number](domain::Result<std::int64_t> count) {
    if (count) {
      state->metrics.set_pets_stored(*count);
    } else if (state->failed) {
      state->failed(count.error());
    }
    const std::lock_guard lock(state->mutex);
    state->in_flight = false;
    state->answered = number;
    state->answered_ok = static_cast<bool>(count);
  });
  const std::lock_guard lock(state_->mutex);
  state_->next_at_once = state_->answered == number && state_->answered_ok;
}

}  // namespace petstore::adapters::metrics

#pragma once
// PetsStoredSampler: the one source of the petstore_pets_stored gauge: it asks storage to count
// when made and on every scrape, and the gauge shows the latest answer; a scrape never waits for it
// (docs/decisions/stored-pets-gauge.md). A failed count leaves the gauge as it was and goes to the
// failure handler (bootstrap logs it): no request's line could carry it.

#include <chrono>
#include <functional>
#include <memory>

#include "adapters/metrics/metrics.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::metrics {

class PetsStoredSampler {
 public:
  // `pets` must outlive this object; `metrics` must outlive every count this starts (a
  // repository answers or drops its pending calls when destroyed, so outliving it is enough).
  // `failed`, when set, hears each failed count, on the thread that answered it.
  using FailureHandler = std::function<void(const domain::Error&)>;
  // The least time between the starts of two counts, unless the last answered at once.
  static constexpr std::chrono::seconds default_interval{1};

  PetsStoredSampler(const ports::PetRepository& pets, Metrics& metrics,
                    std::chrono::steady_clock::duration min_interval = default_interval,
                    FailureHandler failed = {});
  PetsStoredSampler(const PetsStoredSampler&) = delete;
  PetsStoredSampler& operator=(const PetsStoredSampler&) = delete;
  ~PetsStoredSampler();

  // sample: starts a count, unless one is in flight or the last answered late or failed less than
  // min_interval ago: scrapes never queue up counts for a slow database. Thread-safe.
  void sample();

 private:
  struct State;
  const ports::PetRepository& pets_;
  std::shared_ptr<State> state_;  // shared with counts in flight, which may answer after this
};

}  // namespace petstore::adapters::metrics

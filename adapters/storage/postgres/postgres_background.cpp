#include "adapters/storage/postgres/postgres_background.hpp"

#include <utility>
#include <vector>

namespace petstore::adapters::storage::postgres {

BackgroundWorker::BackgroundWorker()
    : thread_([this](const std::stop_token& stop) { work(stop); }) {}

BackgroundWorker::~BackgroundWorker() { close(); }

bool BackgroundWorker::post(Job job, Clock::time_point at) {
  {
    const std::lock_guard lock(mutex_);
    if (closed_) {
      return false;
    }
    jobs_.emplace(at, std::move(job));
  }
  changed_.notify_all();
  return true;
}

void BackgroundWorker::close() {
  std::multimap<Clock::time_point, Job> left;
  {
    const std::lock_guard lock(mutex_);
    if (closed_) {
      return;
    }
    closed_ = true;
    left.swap(jobs_);
  }
  thread_.request_stop();  // wakes the wait below and the step under way
  if (thread_.joinable()) {
    thread_.join();
  }
  for (auto& [at, job] : left) {
    if (job.dropped) {
      job.dropped();
    }
  }
}

void BackgroundWorker::work(const std::stop_token& stop) {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      for (;;) {
        if (stop.stop_requested()) {
          return;
        }
        if (!jobs_.empty() && jobs_.begin()->first <= Clock::now()) {
          break;
        }
        if (jobs_.empty()) {
          (void)changed_.wait(lock, stop, [this] { return !jobs_.empty(); });
        } else {
          (void)changed_.wait_until(lock, stop, jobs_.begin()->first, [] { return false; });
        }
      }
      job = std::move(jobs_.begin()->second);
      jobs_.erase(jobs_.begin());
    }
    const auto again = job.run(stop);
    if (!again) {
      continue;
    }
    {
      const std::lock_guard lock(mutex_);
      if (!closed_) {
        jobs_.emplace(*again, std::move(job));
        continue;
      }
    }
    if (job.dropped) {
      job.dropped();  // closing: a job that wanted another turn is dropped, as the queued ones are
    }
  }
}

}  // namespace petstore::adapters::storage::postgres

#include "adapters/worker/background_worker.hpp"

#include <utility>

namespace petstore::adapters::worker {

BackgroundWorker::BackgroundWorker()
    : state_(std::make_shared<State>()),
      thread_([state = state_](const std::stop_token& stop) { work(*state, stop); }) {}

BackgroundWorker::~BackgroundWorker() { close(); }

bool BackgroundWorker::post(Job job, Clock::time_point at) {
  {
    const std::lock_guard lock(state_->mutex);
    if (state_->closed) {
      return false;
    }
    state_->jobs.emplace(at, std::move(job));
  }
  state_->changed.notify_all();
  return true;
}

void BackgroundWorker::close() { (void)close_leaving(false); }

bool BackgroundWorker::close_without_waiting() { return close_leaving(true); }

bool BackgroundWorker::close_leaving(bool leave) {
  std::multimap<Clock::time_point, Job> dropped;
  bool left = false;  // a job under way runs on
  {
    const std::lock_guard lock(state_->mutex);
    if (state_->closed) {
      return !state_->job_left;  // only the first close may join or detach the thread
    }
    state_->closed = true;
    dropped.swap(state_->jobs);
    left = state_->job_left = leave && state_->running;
  }
  thread_.request_stop();  // wakes the wait and the job under way
  if (left) {
    thread_.detach();  // it ends once the job returns: the state it uses is shared
  } else {
    thread_.join();  // closed with nothing left under way: it can start nothing more
  }
  for (auto& [at, job] : dropped) {
    if (job.dropped) {
      job.dropped();
    }
  }
  return !left;
}

void BackgroundWorker::work(State& state, const std::stop_token& stop) {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(state.mutex);
      for (;;) {
        if (stop.stop_requested()) {
          return;
        }
        if (!state.jobs.empty() && state.jobs.begin()->first <= Clock::now()) {
          break;
        }
        if (state.jobs.empty()) {
          (void)state.changed.wait(lock, stop, [&state] { return !state.jobs.empty(); });
        } else {
          (void)state.changed.wait_until(lock, stop, state.jobs.begin()->first,
                                         [] { return false; });
        }
      }
      job = std::move(state.jobs.begin()->second);
      state.jobs.erase(state.jobs.begin());
      state.running = true;
    }
    const auto again = job.run(stop);
    {
      const std::lock_guard lock(state.mutex);
      state.running = false;
      if (again && !state.closed) {
        state.jobs.emplace(*again, std::move(job));
        continue;
      }
    }
    if (again && job.dropped) {
      job.dropped();  // closing: a job that wanted another turn is dropped, as the queued ones are
    }
  }
}

}  // namespace petstore::adapters::worker

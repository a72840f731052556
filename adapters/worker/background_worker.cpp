#include "adapters/worker/background_worker.hpp"

#include <utility>

namespace petstore::adapters::worker {
namespace {

void drop_all(std::multimap<BackgroundWorker::Clock::time_point, BackgroundWorker::Job>& jobs) {
  for (auto& [at, job] : jobs) {
    if (job.dropped) {
      job.dropped();
    }
  }
}

}  // namespace

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

BackgroundWorker::Closing BackgroundWorker::close_queue(
    std::multimap<Clock::time_point, Job>& dropped, bool leave) {
  Closing closing{true, false};
  {
    const std::lock_guard lock(state_->mutex);
    if (state_->closed) {
      return {false, state_->job_left};
    }
    state_->closed = true;
    dropped.swap(state_->jobs);
    closing.running = state_->running;
    state_->job_left = leave && closing.running;
  }
  thread_.request_stop();  // wakes the wait and the job under way
  return closing;
}

void BackgroundWorker::close() {
  std::multimap<Clock::time_point, Job> dropped;
  if (!close_queue(dropped, false).first) {
    return;
  }
  thread_.join();
  drop_all(dropped);
}

bool BackgroundWorker::close_without_waiting() {
  std::multimap<Clock::time_point, Job> dropped;
  const Closing closing = close_queue(dropped, true);
  if (!closing.first) {
    return !closing.running;
  }
  if (closing.running) {
    thread_.detach();  // it ends once the job returns: the state it uses is shared
  } else {
    thread_.join();  // closed with nothing under way: it can start nothing more
  }
  drop_all(dropped);
  return !closing.running;
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

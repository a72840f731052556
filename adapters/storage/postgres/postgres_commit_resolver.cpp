#include "adapters/storage/postgres/postgres_commit_resolver.hpp"

#include <chrono>
#include <iterator>
#include <string>
#include <utility>

#include "adapters/storage/postgres/postgres_errors.hpp"

namespace petstore::adapters::storage::postgres {
CommitResolver::CommitResolver(const ConnectTarget& target, PostgresObserver& observer,
                               Resend resend)
    : target_(target), observer_(observer), resend_(std::move(resend)) {}

CommitResolver::~CommitResolver() { close(); }

void CommitResolver::resolve(BatchInDoubt batch) {
  std::list<Running> finished;
  {
    const std::lock_guard lock(mutex_);
    if (!closed_) {
      for (auto it = running_.begin(); it != running_.end();) {
        auto next = std::next(it);
        if (it->done->load()) {
          finished.splice(finished.end(), running_, it);
        }
        it = next;
      }
      auto done = std::make_shared<std::atomic<bool>>(false);
      running_.push_back(Running{
          std::jthread([this, done, batch = std::move(batch)](const std::stop_token& stop) mutable {
            auto learned = learn_commit_outcome(target_, batch, stop);
            if (stop.stop_requested()) {
              learned = LearnedOutcome{CommitOutcome::unknown, {}, "storage is closing"};
            }
            settle(std::move(batch), std::move(learned));
            done->store(true);
          }),
          done});
      return;  // `finished` joins threads that have ended, outside the lock
    }
  }
  for (auto& create : batch.creates) {
    create.done(unavailable("storage is closing", batch.reason));
  }
}

void CommitResolver::close() {
  std::list<Running> running;
  {
    const std::lock_guard lock(mutex_);
    closed_ = true;
    running = std::move(running_);
  }
  running.clear();  // each jthread is asked to stop and joined
}

void CommitResolver::settle(BatchInDoubt batch, LearnedOutcome learned) {
  const auto now = std::chrono::steady_clock::now();
  const std::string detail = learned.detail + "; the connection was lost: " + batch.reason;
  observer_.commit_resolved(to_string(learned.outcome), batch.creates.size(), detail);
  for (std::size_t i = 0; i < batch.creates.size(); ++i) {
    auto& create = batch.creates[i];
    if (learned.outcome == CommitOutcome::committed) {
      create.done(std::move(learned.creates[i]));
    } else if (learned.outcome == CommitOutcome::not_committed && create.deadline > now &&
               resend_) {
      resend_(std::move(create));
    } else {
      create.done(unavailable(learned.outcome == CommitOutcome::not_committed
                                  ? "the create's commit did not happen"
                                  : "the outcome of the create's commit is unknown",
                              detail));
    }
  }
}

}  // namespace petstore::adapters::storage::postgres

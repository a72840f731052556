#include "adapters/storage/postgres/postgres_commit_resolver.hpp"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "adapters/storage/postgres/postgres_errors.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

void answer_unavailable(BatchInDoubt& batch, const char* why) {
  for (auto& create : batch.creates) {
    create.done(unavailable(why, batch.reason));
  }
}

}  // namespace

CommitResolver::CommitResolver(const ConnectTarget& target, PostgresObserver& observer,
                               BackgroundWorker* worker, Resend resend)
    : target_(target), observer_(observer), worker_(worker), resend_(std::move(resend)) {}

void CommitResolver::resolve(BatchInDoubt batch) {
  // Shared by the job's two ends (run, dropped), one of which answers it.
  auto held = std::make_shared<BatchInDoubt>(std::move(batch));
  BackgroundWorker::Job job{
      [this,
       held](const std::stop_token& stop) -> std::optional<BackgroundWorker::Clock::time_point> {
        auto learned = learn_commit_outcome(target_, *held, stop);
        if (stop.stop_requested()) {
          learned = LearnedOutcome{CommitOutcome::unknown, {}, "storage is closing"};
        }
        settle(std::move(*held), std::move(learned));
        return std::nullopt;
      },
      [held] { answer_unavailable(*held, "storage is closing"); }};
  if (worker_ == nullptr || !worker_->post(std::move(job))) {
    answer_unavailable(*held, "storage is closing");
  }
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

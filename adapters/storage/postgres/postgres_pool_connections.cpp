// Pool's side of its connections' changes (postgres_pool.hpp).
#include "adapters/storage/postgres/postgres_pool.hpp"

namespace petstore::adapters::storage::postgres {

void Pool::connection_up(Connection& connection) {
  const bool recovered = connection.recovering();
  std::vector<Assignment> assignments;
  std::optional<bool> availability;
  {
    const std::lock_guard lock(mutex_);
    down_ = false;
    health_.connected();
    open_.push_back(&connection);
    idle_.push_back(&connection);
    dispatch_locked(assignments);
    availability = availability_change_locked();
  }
  post(assignments);
  if (recovered) {
    observer_.connection_restored(settings_.target.host_description(connection.host()));
  }
  report_availability(availability);
}

void Pool::connection_idle(Connection& connection) {
  std::vector<Assignment> assignments;
  {
    const std::lock_guard lock(mutex_);
    idle_.push_back(&connection);
    dispatch_locked(assignments);
  }
  post(assignments);
}

void Pool::connect_failed(Connection& connection, const std::string& reason, bool round_over) {
  Unanswered answers;
  std::optional<bool> availability;
  bool closing = false;
  {
    const std::lock_guard lock(mutex_);
    closing = closing_;
    if (round_over && open_.empty() && !down_) {
      no_connection_works_locked(answers);
    }
    availability = availability_change_locked();
  }
  answers.answer();
  if (!closing) {
    observer_.connect_failed(settings_.target.host_description(connection.host()), reason);
  }
  report_availability(availability);
}

void Pool::connection_lost(Connection& connection, const std::string& reason, bool silent) {
  Unanswered answers;
  std::optional<bool> availability;
  std::vector<Connection*> same_host;
  bool closing = false;
  {
    const std::lock_guard lock(mutex_);
    closing = closing_;
    if (std::erase(open_, &connection) > 0) {
      std::erase(idle_, &connection);
      report_pool_locked();
    }
    if (open_.empty() && !down_) {
      no_connection_works_locked(answers);
    }
    if (silent && !closing_) {
      // A server that stopped answering one connection answers none: its other connections
      // would each wait out a deadline before trying the next host.
      for (Connection* other : open_) {
        if (other->host() == connection.host()) {
          same_host.push_back(other);
        }
      }
    }
    availability = availability_change_locked();
  }
  answers.answer();
  for (Connection* other : same_host) {
    other->loop().post([other] {
      other->drop("another connection to this host heard nothing from it within the timeout");
    });
  }
  if (!closing) {
    observer_.connection_lost(settings_.target.host_description(connection.host()), reason);
  }
  report_availability(availability);
}

}  // namespace petstore::adapters::storage::postgres

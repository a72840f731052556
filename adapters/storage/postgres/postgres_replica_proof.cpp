#include "adapters/storage/postgres/postgres_replica_proof.hpp"

#include "adapters/storage/postgres/libpq.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

// text_at: the value in `column` of the first row, or nullopt for NULL or a missing cell.
std::optional<std::string_view> text_at(const PGresult* result, int column) {
  if (result == nullptr || PQntuples(result) < 1 || PQnfields(result) <= column ||
      PQgetisnull(result, 0, column) != 0) {
    return std::nullopt;
  }
  return std::string_view(PQgetvalue(result, 0, column));
}

}  // namespace

std::optional<std::uint32_t> timeline_of_wal_file(std::string_view name) {
  constexpr std::size_t timeline_digits = 8;
  constexpr std::size_t file_name_length = 24;
  if (name.size() != file_name_length) {
    return std::nullopt;
  }
  const auto timeline = parse_whole<std::uint32_t>(name.substr(0, timeline_digits), 16);
  if (!timeline || *timeline == 0) {
    return std::nullopt;
  }
  return timeline;
}

std::optional<PrimaryPosition> decode_position(const PGresult* result) {
  const auto flush_text = text_at(result, 0);
  const auto file = text_at(result, 1);
  const auto system = text_at(result, 2);
  const auto database = text_at(result, 3);
  if (!flush_text || !file || !system || !database || system->empty() || database->empty()) {
    return std::nullopt;
  }
  const auto flush = parse_lsn(*flush_text);
  const auto timeline = timeline_of_wal_file(*file);
  if (!flush || !timeline) {
    return std::nullopt;
  }
  return PrimaryPosition{*flush,
                         ServerHistory{std::string(*system), std::string(*database), *timeline}};
}

std::optional<ReplicaFacts> decode_replica_facts(const PGresult* result) {
  const auto in_recovery = text_at(result, 1);
  const auto system = text_at(result, 2);
  const auto database = text_at(result, 3);
  const auto name = text_at(result, 5);
  if (!in_recovery || !system || !database || !name) {
    return std::nullopt;
  }
  ReplicaFacts facts;
  facts.in_recovery = *in_recovery == "t";
  facts.history.system_identifier = std::string(*system);
  facts.history.database_oid = std::string(*database);
  // No timeline known (neither a receiver the role may see nor a restartpoint): 0, no match.
  const auto timeline = text_at(result, 4);
  facts.history.timeline = timeline ? parse_whole<std::uint32_t>(*timeline).value_or(0) : 0;
  facts.database_name = std::string(*name);
  return facts;
}

ReplicaJudgement judge_history(const ReplicaFacts& replica, const ServerHistory& primary) {
  if (!replica.in_recovery) {
    return {ReplicaRefusal::not_a_replica, "the server is not in recovery: it is a primary"};
  }
  if (replica.history.system_identifier != primary.system_identifier) {
    return {ReplicaRefusal::other_cluster, "system_identifier " +
                                               replica.history.system_identifier +
                                               ", the primary's is " + primary.system_identifier};
  }
  if (replica.history.database_oid != primary.database_oid) {
    return {ReplicaRefusal::other_database, "database " + replica.database_name + " (oid " +
                                                replica.history.database_oid +
                                                "), the primary's has oid " + primary.database_oid};
  }
  if (replica.history.timeline != primary.timeline) {
    return {ReplicaRefusal::other_timeline,
            "timeline " + std::to_string(replica.history.timeline) + ", the primary's is " +
                std::to_string(primary.timeline) +
                (replica.history.timeline < primary.timeline
                     ? " (until it follows: at its next restartpoint, or at once where the role "
                       "may read pg_stat_wal_receiver, as pg_read_all_stats may)"
                     : "")};
  }
  return {};
}

}  // namespace petstore::adapters::storage::postgres

#pragma once
// The repository's reads, rows decoded back into domain values, and the trace context a
// statement is sent for, as an sqlcommenter comment at its end
// (https://google.github.io/sqlcommenter/spec/), so that pg_stat_activity and slow-statement log
// lines lead back to the request (docs/decisions/trace-context.md):
//   SELECT ... /*traceparent='00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'*/

#include <string>
#include <vector>

#include "adapters/storage/postgres/postgres_work.hpp"
#include "ports/pet_repository.hpp"
#include "ports/trace_context.hpp"

namespace petstore::adapters::storage::postgres {

// decode_pet: the pet in columns 0-3 (id, name, category_id, status) of `row`, re-validated;
// internal ("a stored pet is damaged") when it fails.
[[nodiscard]] domain::Result<domain::Pet> decode_pet(const PGresult* result, int row);

[[nodiscard]] Work get_work(domain::PetId id, ports::PetRepository::GetDone done);
[[nodiscard]] Work list_work(const ports::PetQuery& query, ports::PetRepository::ListDone done);
// count_work: reads the count the counter row keeps: no scan.
[[nodiscard]] Work count_work(ports::PetRepository::CountDone done);

// append_batch_trace_comment: appends the comment of a batch's traces (a lone statement is a batch
// of one): `petstore_batch` with every traceparent when more than one has a trace, then the first
// one's traceparent and tracestate; nothing when none has a trace.
void append_batch_trace_comment(std::string& sql,
                                const std::vector<const ports::TraceContext*>& traces);

}  // namespace petstore::adapters::storage::postgres

#pragma once
// The trace context a statement is sent for, as an sqlcommenter comment at the statement's end
// (https://google.github.io/sqlcommenter/spec/): keys in order, values URL-encoded and quoted.
// PostgreSQL keeps it in the statement's text, so pg_stat_activity and a slow statement's log line
// (log_min_duration_statement) lead back to the request: its trace id, and the service's span as
// the parent. A batch of creates, one statement for many requests, names them all.
//   SELECT ... /*traceparent='00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'*/

#include <string>
#include <vector>

#include "ports/trace_context.hpp"

namespace petstore::adapters::storage::postgres {

// append_batch_trace_comment: appends to `sql` the comment of a batch's traces (a lone
// statement's: a batch of one): `petstore_batch` with every traceparent in order when more than
// one has a trace, then the first one's traceparent and tracestate (when there is one); nothing
// when none has a trace.
void append_batch_trace_comment(std::string& sql,
                                const std::vector<const ports::TraceContext*>& traces);

}  // namespace petstore::adapters::storage::postgres

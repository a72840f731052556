#pragma once
// One log line in either format, written into a buffer the caller reuses: JSON (`{"time":...,
// "level":...,"event":...,` then the fields) or text (`TIME LEVEL EVENT key=value...`, a value
// quoted as a JSON string where it needs quoting). The time is UTC to the millisecond; warn's
// level is written "warning". Nothing here locks or, once the buffer has grown, allocates.

#include <string>
#include <string_view>

#include "adapters/logging/logger.hpp"

namespace petstore::adapters::logging {

// format_line: the whole line, '\n' included, written at the start of `buffer` (grown when the
// line could pass its end, never shrunk).
std::string_view format_line(std::string& buffer, LogFormat format, LogLevel level,
                             std::string_view event, LogFields fields);

}  // namespace petstore::adapters::logging

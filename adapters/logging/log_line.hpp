#pragma once
// One log line, JSON (`{"time":...,"level":...,"event":...,` then the fields) or text (`TIME LEVEL
// EVENT key=value...`, quoted as JSON where needed), into a buffer the caller reuses. Time is UTC
// to the millisecond. Nothing here locks or, once the buffer has grown, allocates.

#include <string>
#include <string_view>

#include "adapters/logging/logger.hpp"

namespace petstore::adapters::logging {

// format_line: the whole line, '\n' included, written at the start of `buffer` (grown when the
// line could pass its end, never shrunk).
std::string_view format_line(std::string& buffer, LogFormat format, LogLevel level,
                             std::string_view event, LogFields fields);

}  // namespace petstore::adapters::logging

// A launch's JSON section of a trace file (trace_file.cpp): everything but its records, both ways.
// LaunchFrom throws std::runtime_error (or nlohmann's exceptions) on a section that does not read;
// ParseTrace turns them into its "corrupt trace file" message.
#pragma once

#include <nlohmann/json.hpp>

#include "warpscope/trace/launch.h"

namespace ws::trace_json {

nlohmann::json LaunchJson(const LaunchTrace& t);
LaunchTrace LaunchFrom(const nlohmann::json& j);

}  // namespace ws::trace_json

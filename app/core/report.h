// The catalogue of lessons as the CLI lists it (`warpscope-cli lessons`, JSON or text). A run's
// own report (text, JSON) is the run record's: warpscope/trace/run_report.h.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/run_report.h"

namespace ws {

nlohmann::json LessonsJson();
std::string LessonsText();

}  // namespace ws

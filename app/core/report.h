// The results of a lesson run as the CLI prints them (JSON or a text table). The app shows the
// same figures; both come from here so they never disagree.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/run_file.h"

namespace ws {

nlohmann::json LessonRunJson(const LessonRun& run);
std::string LessonRunText(const LessonRun& run);
nlohmann::json LessonsJson();
std::string LessonsText();

}  // namespace ws

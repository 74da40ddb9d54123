// Lesson runs as trace files: what `warpscope-cli capture` writes, `warpscope-cli show` prints and
// the app opens. The header (JSON, in the file's header section) carries what ran (lesson,
// variant, parameters: named choices by name), where (backend, device and, from a GPU, its
// properties), when, the timing, the output check, the figures (a versioned section: kind,
// version, values) and the kernel source text; the launches carry the records (trace_file.h).
//
// Header schema history:
//   1  lesson figures as "metrics" (untyped), named choices as indices
//   2  "figures": {"kind", "version", "values"}; named choices by name
// Files of either schema open.
#pragma once

#include <ctime>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "warpscope/trace/lesson_run.h"
#include "warpscope/trace/trace_file.h"

namespace ws {

inline constexpr int kRunHeaderSchema = 2;

// Finds a lesson's description by id (the catalogue, from the layer above); null: unknown.
using LessonLookup = std::function<const LessonInfo*(const std::string& id)>;

// `gpu` (may be null): the properties of the GPU the run used.
TraceContents TraceOfLessonRun(const LessonRun& run, const nlohmann::json& gpu, std::time_t when);
// Rebuilds the run; refuses a header that lacks what the views need, naming the field. A lesson
// `lookup` does not know still opens (its figures kept as JSON, unread).
Result<LessonRun> LessonRunOfTrace(TraceContents contents, const std::filesystem::path& file,
                                   const LessonLookup& lookup);

// The whole file: `run` written to `path` (made `when`), and read back. Every source of a run
// record (a lesson, a program, a GPU capture) saves through here, and every reader (the app,
// `warpscope-cli show` and `export`) opens through here.
Status WriteRunTrace(const LessonRun& run, const nlohmann::json& gpu,
                     const std::filesystem::path& path, std::time_t when);
Result<LessonRun> ReadRunTrace(const std::filesystem::path& path, const LessonLookup& lookup);

nlohmann::json TimingJson(const Timing& t);
Timing TimingFromJson(const nlohmann::json& j);
// The parameters with named choices written as their names.
nlohmann::json ParamsJson(const Params& params, const LessonInfo* info);
// Reads parameters written by ParamsJson (or as indices, by schema 1); refuses an unknown name.
Result<Params> ParamsFromJson(const nlohmann::json& j, const LessonInfo* info);

}  // namespace ws

// Captures shipped with Warpscope (assets/traces, embedded into the program at build time): what
// a lesson that measures a GPU (LessonInfo::needs_gpu) shows on a machine without one.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/kernels/lesson_api.h"

namespace ws {

namespace shipped {
struct EmbeddedFile {
  std::string_view name;  // "transfers.wstrace"
  std::span<const unsigned char> bytes;
};
extern const std::span<const EmbeddedFile> kEmbeddedFiles;  // generated (cmake/EmbedBinary.cmake)
}  // namespace shipped

// The files shipped to open: "examples" (CUDA programs), "lectures" and "assignments". Installed
// (PREFIX/bin/warpscope): PREFIX/share/warpscope/WHAT; in the build tree, the source's
// examples/ and assets/WHAT. Empty when the folder is not there.
std::filesystem::path ShippedFolder(std::string_view what);
// The files of ShippedFolder(what) whose names end in `extension` (".cu", ".toml"), by name.
std::vector<std::filesystem::path> ShippedFiles(std::string_view what, std::string_view extension);

// Starts this program (its own executable) again with `args`, detached (its own session, reaped by
// init, not by this process): "" when it started, else why not.
std::string StartWarpscope(const std::vector<std::string>& args);

// The shipped capture of `lesson` and `variant` (assets/traces/LESSON-VARIANT.wstrace, else
// LESSON.wstrace), marked as shipped, or why there is none.
Result<LessonRun> ShippedCapture(const std::string& lesson, const std::string& variant);

// RunLesson, except that a lesson that needs a GPU, asked for on the emulator, gives its shipped
// capture (LessonRun::Capture::shipped) instead of an error.
Result<LessonRun> RunLessonOrShipped(const std::string& lesson, const std::string& variant,
                                     const Params& overrides, const std::string& backend,
                                     const RunOptions& options);

}  // namespace ws

// This build has no clang 14 C++ API: programs are refused with a message saying so.
#include "warpscope/program/program.h"

namespace ws {

bool ProgramsSupported() {
  return false;
}

bool ProgramMemoryLimitApplies() {
  return false;
}

Result<std::vector<ProgramParam>> ProgramParams(const std::string&) {
  return std::vector<ProgramParam>{};
}

std::vector<ProgramConstant> ProgramConstants(const std::string&) {
  return {};
}

std::string ApplyDefines(const std::string& text, const std::vector<std::string>&,
                         std::vector<std::string>*) {
  return text;
}

LessonRun RunProgramText(const std::string& file_name, const std::filesystem::path&,
                         const std::string& text, const ProgramOptions& options) {
  LessonRun run;
  run.backend = options.backend;
  run.device = options.backend == "cuda" ? "GPU" : "CPU emulator";
  ProgramRecord& p = run.program.emplace();
  p.file = file_name;
  p.source = text;
  p.stage = ProgramStage::kCompile;
  p.failure =
      "this Warpscope was built without clang 14's C++ API (libclang-14-dev), so it "
      "cannot open programs; run scripts/setup.sh and rebuild";
  run.check = {false, p.failure};
  return run;
}

LessonRun RunProgramFile(const std::filesystem::path& file, const ProgramOptions& options) {
  LessonRun run = RunProgramText(file.filename().string(), {}, "", options);
  run.program->path = file.string();
  return run;
}

}  // namespace ws

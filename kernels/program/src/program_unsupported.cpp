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

std::string ApplyDefines(const std::string& text, const std::vector<std::string>&,
                         std::vector<std::string>*) {
  return text;
}

ProgramRun RunProgramText(const std::string& file_name, const std::filesystem::path&,
                          const std::string& text, const ProgramOptions&) {
  ProgramRun run;
  run.file = file_name;
  run.source = text;
  run.stage = ProgramStage::kCompile;
  run.failure =
      "this Warpscope was built without clang 14's C++ API (libclang-14-dev), so it "
      "cannot open programs; run scripts/setup.sh and rebuild";
  return run;
}

ProgramRun RunProgramFile(const std::filesystem::path& file, const ProgramOptions& options) {
  return RunProgramText(file.filename().string(), {}, "", options);
}

}  // namespace ws

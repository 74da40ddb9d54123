#include "core/program_run.h"

namespace ws {

LessonRun LessonRunOfProgram(ProgramRun run, const std::filesystem::path& path) {
  LessonRun r;
  r.lesson = "program";
  r.backend = run.backend;
  r.device = run.device;
  r.launches = std::move(run.launches);
  r.check.ok = run.ok() && run.exit_code == 0;
  r.check.message =
      run.ok() ? "the program exited with status " + std::to_string(run.exit_code) : run.failure;
  r.timing.kind = "none";
  r.timing.note =
      "A program's own cudaEvent times are in what it printed (on the emulator they are the "
      "model's: each launch's sectors at the preset's DRAM bandwidth; on a GPU, measured).";
  LessonRun::Program p;
  p.path = path.string();
  p.file = run.file;
  p.source = std::move(run.source);
  p.launch = r.launches.empty() ? 0 : r.launches.size() - 1;
  p.stdout_text = std::move(run.stdout_text);
  p.takes_args = run.rewritten.main_takes_args;
  p.exited = run.ok();
  p.exit_code = run.exit_code;
  p.files = std::move(run.files);
  for (const ProgramKernel& k : run.rewritten.kernel_files)
    p.kernel_files.emplace_back(k.name, k.file);
  for (const ProgramDiagnostic& d : run.rewritten.warnings) {
    p.notes.push_back(!d.file.empty() ? d.file + ":" + std::to_string(d.line) + ": " + d.message
                      : d.line > 0    ? "line " + std::to_string(d.line) + ": " + d.message
                                      : d.message);
  }
  r.program = std::move(p);
  return r;
}

}  // namespace ws

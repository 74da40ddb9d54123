#include "warpscope/trace/program_record.h"

namespace ws {

const char* ToString(ProgramStage s) {
  switch (s) {
    case ProgramStage::kRead:
      return "read";
    case ProgramStage::kCompile:
      return "compile";
    case ProgramStage::kRun:
      return "run";
    case ProgramStage::kDone:
      return "done";
  }
  return "?";
}

std::string ProgramRecord::KernelFile(const std::string& kernel) const {
  const std::string name = kernel.substr(0, kernel.find('<'));
  for (const ProgramKernel& k : kernel_files) {
    if (k.name == name) return k.file;
  }
  return "";
}

std::string_view ProgramRecord::TextOf(std::string_view name) const {
  if (name == file) return source;
  for (const auto& [n, t] : files) {
    if (n == name) return t;
  }
  return {};
}

std::string NoteText(const ProgramDiagnostic& d) {
  if (!d.file.empty()) return d.file + ":" + std::to_string(d.line) + ": " + d.message;
  if (d.line > 0) return "line " + std::to_string(d.line) + ": " + d.message;
  return d.message;
}

std::vector<std::string> ProgramRecord::Notes() const {
  std::vector<std::string> notes;
  for (const ProgramDiagnostic& d : warnings) notes.push_back(NoteText(d));
  return notes;
}

}  // namespace ws

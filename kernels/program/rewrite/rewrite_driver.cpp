// RewriteProgram (program_rewrite.h): clang's tooling around the rewriter's AST consumer, with the
// program's text in memory and clang's errors collected at their lines.
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <cstdlib>

#include "rewrite_consumer.h"
#include "warpscope/program/program_rewrite.h"

#ifndef WS_CLANG_RESOURCE_DIR
#error "WS_CLANG_RESOURCE_DIR: clang's own headers (set by kernels/program/CMakeLists.txt)"
#endif

namespace ws {
namespace {

using namespace clang;  // NOLINT: the glue names many clang types

class Diagnostics : public DiagnosticConsumer {
 public:
  explicit Diagnostics(std::vector<ProgramDiagnostic>* errors) : errors_(errors) {}
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level != DiagnosticsEngine::Error && level != DiagnosticsEngine::Fatal) return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    ProgramDiagnostic d;
    d.message = text.str().str();
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const SourceManager& sm = info.getSourceManager();
      const SourceLocation at = sm.getExpansionLoc(info.getLocation());
      const PresumedLoc p = sm.getPresumedLoc(at);
      if (p.isValid() && sm.isInMainFile(at)) {
        d.line = p.getLine();
        d.column = p.getColumn();
      } else if (p.isValid()) {
        d.message =
            std::string(p.getFilename()) + ":" + std::to_string(p.getLine()) + ": " + d.message;
      }
    }
    if (errors_->size() < 50) errors_->push_back(std::move(d));
  }

 private:
  std::vector<ProgramDiagnostic>* errors_;
};

class Action : public ASTFrontendAction {
 public:
  Action(RewriteResult* result, bool lesson_form) : result_(result), lesson_form_(lesson_form) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance&, llvm::StringRef) override {
    return lesson_form_ ? MakeLessonFormConsumer(result_) : MakeRewriteConsumer(result_);
  }

 private:
  RewriteResult* result_;
  bool lesson_form_;
};

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

// clang's own headers (stddef.h and the like): where the build found clang 14, unless
// WARPSCOPE_CLANG_RESOURCE_DIR names another place (a GPU server given the rewriter and clang's
// libraries unpacked in a folder, not installed: scripts/gpu-programs.sh).
static std::string ResourceDir() {
  const char* dir = std::getenv("WARPSCOPE_CLANG_RESOURCE_DIR");
  return dir != nullptr && *dir != '\0' ? dir : WS_CLANG_RESOURCE_DIR;
}

RewriteResult RewriteProgram(const RewriteRequest& rq) {
  RewriteResult result;
  const std::string path = (rq.directory / rq.file_name).string();
  std::vector<std::string> args = {"clang-14",
                                   "-fsyntax-only",
                                   "-x",
                                   "cuda",
                                   "--cuda-host-only",
                                   "-nocudainc",
                                   "-nocudalib",
                                   "-std=c++17",
                                   // printf and its kin are __host__ __device__ (ws_program.h)
                                   "-Xclang",
                                   "-fcuda-allow-variadic-functions",
                                   "-resource-dir",
                                   ResourceDir(),
                                   "-I",
                                   rq.shim_dir.string(),
                                   "-include",
                                   "ws_program.h",
                                   "-DWS_PROGRAM_PARSE=1",
                                   "-ferror-limit=50",
                                   "-w"};
  for (const std::string& d : rq.defines) args.push_back("-D" + d);
  args.push_back(path);

  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(new llvm::vfs::InMemoryFileSystem);
  overlay->pushOverlay(memory);
  memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(rq.text, path));
  llvm::IntrusiveRefCntPtr<FileManager> files(new FileManager(FileSystemOptions(), overlay));
  Diagnostics diags(&result.errors);
  tooling::ToolInvocation invocation(args, std::make_unique<Action>(&result, rq.lesson_form),
                                     files.get());
  invocation.setDiagnosticConsumer(&diags);
  const bool ran = invocation.run();
  if (!ran && result.errors.empty())
    result.errors.push_back({0, 0, true, "clang could not parse " + rq.file_name});
  if (!result.errors.empty()) return result;

  RewrittenProgram& p = result.program;
  if (rq.lesson_form) {
    // The lessons' API, then the kernel file at its own line numbers.
    p.source = "#include \"warpscope/kernels/ws_cuda.h\"\n#line 1 \"" + Escape(rq.file_name) +
               "\"\n" + p.source;
    result.ok = true;
    return result;
  }
  // The rewritten program: its own line numbers, then the site table the runtime reads.
  std::string out = "#line 1 \"" + Escape(rq.file_name) + "\"\n" + p.source;
  out += "\n#line 1 \"warpscope-sites\"\n";
  if (p.sites.empty()) {
    out += "static ::ws::prog::SiteTable ws_site_table(nullptr, 0u, \"" + Escape(rq.file_name) +
           "\");\n";
  } else {
    out += "static const ::ws::prog::SiteDesc ws_site_descs[] = {";
    for (const ProgramSite& s : p.sites) {
      out += "{" + std::to_string(s.site) + "u, " + std::to_string(s.line) + "u, " +
             std::to_string(s.column) + "u, " + std::to_string(s.end_column) + "u}, ";
    }
    out += "};\nstatic ::ws::prog::SiteTable ws_site_table(ws_site_descs, " +
           std::to_string(p.sites.size()) + "u, \"" + Escape(rq.file_name) + "\");\n";
  }
  p.source = std::move(out);
  result.ok = true;
  return result;
}

}  // namespace ws

// RewriteProgram (program_rewrite.h): clang's tooling around the rewriter's AST consumer, with the
// program's text in memory and clang's errors collected at their lines.
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <cctype>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "rewrite_consumer.h"
#include "warpscope/program/program_rewrite.h"

#ifndef WS_CLANG_RESOURCE_DIR
#error "WS_CLANG_RESOURCE_DIR: clang's own headers (set by kernels/program/CMakeLists.txt)"
#endif

namespace ws {
namespace {

using namespace clang;  // NOLINT: the glue names many clang types

// What Warpscope does not run (yet), by the header that brings it in: "cuBLAS", or "" when the
// header is none of them.
std::string RefusedLibrary(llvm::StringRef name) {
  static const std::pair<const char*, const char*> kLibraries[] = {
      {"thrust/", "Thrust"},
      {"cub/", "CUB"},
      // <cublas_v2.h>, <cublas_api.h> and <cublasLt.h> are the shim's: the emulator runs the
      // common calls (emu_cublas.cpp); the legacy API and cuBLASXt are refused.
      {"cublas.h", "the legacy cuBLAS API (include cublas_v2.h)"},
      {"cublasXt", "cuBLASXt"},
      // <curand_kernel.h> and <curand.h> are the shim's: the emulator runs the device API's
      // XORWOW and Philox generators; the host API's calls are refused by name (Refusal).
      {"curand_kernel.h", ""},
      {"curand.h", ""},
      {"curand", "cuRAND"},
      {"cufft", "cuFFT"},
      {"cusparse", "cuSPARSE"},
      {"cusolver", "cuSOLVER"},
      {"cudnn", "cuDNN"},
      {"npp", "NPP"},
      {"nvrtc", "NVRTC"},
      {"nccl", "NCCL"},
      {"nvToolsExt", "NVTX"},
      {"nvtx3/", "NVTX"},
      {"cuda_gl_interop", "OpenGL interoperability"},
      {"GL/", "OpenGL"},
      // The shim's own (shim/cuda/): a thread's pipeline runs, the rest stops when it runs.
      {"cuda/pipeline", ""},
      {"cuda/barrier", ""},
      // libcu++'s standard library headers the shim maps to the C++ library's (shim/cuda/std/).
      {"cuda/std/type_traits", ""},
      {"cuda/std/cstdint", ""},
      {"cuda/std/cstddef", ""},
      {"cuda/std/climits", ""},
      {"cuda/std/cfloat", ""},
      {"cuda/std/limits", ""},
      {"cuda/std/utility", ""},
      {"cuda/std/array", ""},
      {"cuda/std/tuple", ""},
      {"cuda/std/cmath", ""},
      {"cuda/", "libcu++ (cuda::)"},
      {"mpi.h", "MPI"},
      {"omp.h", "OpenMP"},
      {"cuda_awbarrier", "arrive-wait barriers"},
  };
  for (const auto& [prefix, library] : kLibraries) {
    if (name.startswith(prefix)) return library;
  }
  return "";
}

// nvcc takes `__shared__ alignas(16) float t[16][16]` (cuda-samples' globalToShmemAsyncCopy
// writes it so); clang takes no attribute list after __shared__'s attribute ("an attribute list
// cannot appear here"). The two swap places in the text clang reads: `alignas(16) __shared__`,
// the same bytes in all, so that every offset and line after them holds.
std::string SharedAlignasFirst(std::string text) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  const std::string shared = "__shared__";
  for (std::size_t at = text.find(shared); at != std::string::npos;
       at = text.find(shared, at + 1)) {
    if ((at > 0 && ident(text[at - 1])) ||
        (at + shared.size() < text.size() && ident(text[at + shared.size()])))
      continue;
    std::size_t p = at + shared.size();
    while (p < text.size() && (text[p] == ' ' || text[p] == '\t')) ++p;
    if (text.compare(p, 7, "alignas") != 0) continue;
    std::size_t q = p + 7;
    while (q < text.size() && (text[q] == ' ' || text[q] == '\t')) ++q;
    if (q >= text.size() || text[q] != '(') continue;
    std::size_t e = q;
    for (int depth = 0; e < text.size(); ++e) {
      if (text[e] == '(') ++depth;
      if (text[e] == ')' && --depth == 0) break;
      if (text[e] == '\n') break;  // on one line only
    }
    if (e >= text.size() || text[e] != ')') continue;
    const std::string gap = text.substr(at + shared.size(), p - at - shared.size());
    const std::string swapped = text.substr(p, e + 1 - p) + gap + shared;
    text.replace(at, e + 1 - at, swapped);
  }
  return text;
}

// The message for what clang could not resolve, when it names a CUDA feature Warpscope does not
// run yet: "cudaCreateTextureObject is not supported (yet)"; else the message as it is.
std::string Refusal(const std::string& message) {
  // The name quoted after `prefix` (up to the next quote), when the message starts so.
  auto quoted = [&message](const std::string& prefix) -> std::string {
    if (message.rfind(prefix, 0) != 0) return "";
    const std::size_t end = message.find('\'', prefix.size());
    return end == std::string::npos ? "" : message.substr(prefix.size(), end - prefix.size());
  };
  auto cuda_name = [](const std::string& n, bool types) {
    for (const char* p : {"cuda", "cu", "__", "tex", "surf", "cg::", "nvrtc", "cublas", "curand",
                          "cufft", "cusparse", "cusolver"}) {
      const bool type_prefix = std::string(p) != "__" && std::string(p) != "tex" &&
                               std::string(p) != "surf" && std::string(p) != "cg::";
      if (n.rfind(p, 0) == 0 && (!types || type_prefix)) return true;
    }
    return false;
  };
  // "'sync' is unavailable: WHY": the why (cooperative_groups.h's words).
  if (message.rfind("'", 0) == 0) {
    const std::size_t at = message.find("' is unavailable: ");
    if (at != std::string::npos) return message.substr(at + 18);
  }
  if (const std::string n = quoted("unknown type name '"); !n.empty() && cuda_name(n, true))
    return n + " is not supported (yet)";
  if (const std::string n = quoted("use of undeclared identifier '");
      !n.empty() && cuda_name(n, false))
    return n + " is not supported (yet)";
  for (const char* what : {"no member named '", "no type named '", "no template named '"}) {
    const std::string n = quoted(what);
    if (!n.empty() && (message.find("in namespace 'cooperative_groups'") != std::string::npos ||
                       message.find("in namespace 'cg'") != std::string::npos))
      return "cooperative_groups::" + n + " is not supported (yet)";
  }
  return message;
}

class Diagnostics : public DiagnosticConsumer {
 public:
  Diagnostics(std::vector<ProgramDiagnostic>* errors, std::filesystem::path main_dir)
      : errors_(errors), main_dir_(std::move(main_dir)) {}
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level != DiagnosticsEngine::Error && level != DiagnosticsEngine::Fatal) return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    ProgramDiagnostic d;
    d.message = Refusal(text.str().str());
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      const SourceManager& sm = info.getSourceManager();
      SourceLocation at = sm.getExpansionLoc(info.getLocation());
      // An error inside a system header (a library's, the shim's) is about the line of the
      // program that brought it in: walk the includes back to a file of the program's own.
      while (at.isValid() && sm.isInSystemHeader(at) &&
             sm.getIncludeLoc(sm.getFileID(at)).isValid())
        at = sm.getIncludeLoc(sm.getFileID(at));
      const PresumedLoc p = sm.getPresumedLoc(at);
      if (p.isValid()) {
        d.line = p.getLine();
        d.column = p.getColumn();
        if (!sm.isInMainFile(at)) {
          const std::filesystem::path abs =
              std::filesystem::absolute(p.getFilename()).lexically_normal();
          const std::filesystem::path rel = abs.lexically_relative(main_dir_);
          d.file = rel.empty() ? abs.string() : rel.string();
        }
      }
    }
    if (!refused_.empty()) return;  // after a refused header, what follows says nothing more
    if (errors_->size() < 50) errors_->push_back(std::move(d));
  }
  // A library header the program includes: refused at its #include line.
  void Refuse(ProgramDiagnostic d) {
    refused_ = d.message;
    errors_->clear();
    errors_->push_back(std::move(d));
  }

 private:
  std::vector<ProgramDiagnostic>* errors_;
  std::filesystem::path main_dir_;
  std::string refused_;
};

// Refuses each library header the program includes, by name, at the line of its #include.
class IncludeWatch : public PPCallbacks {
 public:
  IncludeWatch(const SourceManager& sm, Diagnostics* diags, std::filesystem::path main_dir,
               std::string* cublas_at, std::string* curand_at)
      : sm_(sm),
        diags_(diags),
        main_dir_(std::move(main_dir)),
        cublas_at_(cublas_at),
        curand_at_(curand_at) {}
  void InclusionDirective(SourceLocation hash, const Token&, StringRef name, bool, CharSourceRange,
                          const FileEntry*, StringRef, StringRef, const Module*,
                          SrcMgr::CharacteristicKind) override {
    if (sm_.isInSystemHeader(hash)) return;
    const std::string library = RefusedLibrary(name);
    // cuBLAS's and cuRAND's headers that the shim has: noted where first included (the GPU
    // backend refuses them).
    for (auto [stem, at] : {std::pair{"cublas", cublas_at_}, std::pair{"curand", curand_at_}}) {
      if (!library.empty() || !name.startswith(stem) || !at->empty()) continue;
      const PresumedLoc p = sm_.getPresumedLoc(hash);
      if (p.isValid())
        *at = std::filesystem::path(p.getFilename()).filename().string() + ":" +
              std::to_string(p.getLine());
    }
    if (library.empty() || refused_) return;
    refused_ = true;
    const PresumedLoc p = sm_.getPresumedLoc(hash);
    ProgramDiagnostic d;
    d.line = p.isValid() ? p.getLine() : 0;
    d.column = p.isValid() ? p.getColumn() : 0;
    d.message = library + " is not supported (yet): #include <" + name.str() + ">";
    if (!sm_.isInMainFile(hash) && p.isValid()) {
      const std::filesystem::path abs =
          std::filesystem::absolute(p.getFilename()).lexically_normal();
      const std::filesystem::path rel = abs.lexically_relative(main_dir_);
      d.file = rel.empty() ? abs.string() : rel.string();
    }
    diags_->Refuse(std::move(d));
  }

 private:
  const SourceManager& sm_;
  Diagnostics* diags_;
  std::filesystem::path main_dir_;
  std::string* cublas_at_;
  std::string* curand_at_;
  bool refused_ = false;
};

class Action : public ASTFrontendAction {
 public:
  Action(RewriteResult* result, const RewriteRequest& rq, Diagnostics* diags,
         std::filesystem::path main_dir)
      : result_(result), rq_(rq), diags_(diags), main_dir_(std::move(main_dir)) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance&, llvm::StringRef) override {
    return rq_.lesson_form ? MakeLessonFormConsumer(result_) : MakeRewriteConsumer(result_, rq_);
  }
  bool BeginSourceFileAction(CompilerInstance& ci) override {
    if (!rq_.lesson_form)
      ci.getPreprocessor().addPPCallbacks(
          std::make_unique<IncludeWatch>(ci.getSourceManager(), diags_, main_dir_,
                                         &result_->program.cublas_at, &result_->program.curand_at));
    return true;
  }

 private:
  RewriteResult* result_;
  const RewriteRequest& rq_;
  Diagnostics* diags_;
  std::filesystem::path main_dir_;
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
// An installed rewriter on a machine whose clang 14 is a later point release than the build's
// (clang/14.0.6 then another folder) takes the one folder of LLVM_DIR/lib/clang there is.
static std::string ResourceDir() {
  const char* dir = std::getenv("WARPSCOPE_CLANG_RESOURCE_DIR");
  if (dir != nullptr && *dir != '\0') return dir;
  std::error_code ec;
  const std::filesystem::path built = WS_CLANG_RESOURCE_DIR;
  if (std::filesystem::is_directory(built / "include", ec)) return built.string();
  for (const auto& e : std::filesystem::directory_iterator(built.parent_path(), ec)) {
    if (std::filesystem::is_directory(e.path() / "include", ec)) return e.path().string();
  }
  return built.string();
}

// A CUDA unit as the rewriter reads it, and as the shim is precompiled for it (the two must
// match, or clang refuses the precompiled shim).
static std::vector<std::string> CudaUnitArgs(const std::filesystem::path& shim_dir) {
  return {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=c++17",
          // printf and its kin are __host__ __device__ (ws_program.h)
          "-Xclang", "-fcuda-allow-variadic-functions", "-resource-dir", ResourceDir(), "-I",
          shim_dir.string(), "-DWS_PROGRAM_PARSE=1", "-DWS_CUDA_UNIT=1", "-w"};
}

bool EmitShimPch(const std::filesystem::path& shim_dir, const std::filesystem::path& out,
                 std::string* error) {
  // The header it is made from stays beside it, named as `out` up to ".pch" (a temporary name
  // after it does not change the header's): clang checks that it is still there, unchanged, so
  // it is written only where it is not there already.
  const std::string name = out.string();
  const std::size_t dot = name.rfind(".pch");
  const std::filesystem::path header =
      (dot == std::string::npos ? name : name.substr(0, dot)) + ".h";
  const std::string text = "#include \"ws_program.h\"\n";
  std::string old;
  if (std::ifstream in(header, std::ios::binary); in) {
    std::stringstream s;
    s << in.rdbuf();
    old = s.str();
  }
  if (old != text) {
    std::ofstream h(header, std::ios::binary);
    h << text;
    if (!h) {
      *error = "could not write " + header.string();
      return false;
    }
  }
  std::vector<std::string> args = {"clang-14"};
  const std::vector<std::string> unit = CudaUnitArgs(shim_dir);
  args.insert(args.end(), unit.begin(), unit.end());
  args.insert(args.end(), {"-c", "-o", out.string(), header.string()});
  llvm::IntrusiveRefCntPtr<FileManager> files(
      new FileManager(FileSystemOptions(), llvm::vfs::getRealFileSystem()));
  std::vector<ProgramDiagnostic> errors;
  Diagnostics diags(&errors, shim_dir);
  tooling::ToolInvocation invocation(args, std::make_unique<GeneratePCHAction>(), files.get());
  invocation.setDiagnosticConsumer(&diags);
  const bool ran = invocation.run();
  if (!ran || !errors.empty()) {
    *error = errors.empty() ? "clang could not precompile the shim" : errors.front().message;
    return false;
  }
  return true;
}

RewriteResult RewriteProgram(const RewriteRequest& rq) {
  RewriteResult result;
  // The lesson form's own pass reads its kernel templates' loops in an instantiation of each too
  // (LessonLoopPatterns): the same text after the file's, taken off its output again.
  std::string text = rq.text, instances;
  if (rq.lesson_form && !rq.lesson_places) {
    // For the emulator, the same file's warp functions (the SIMT path: the program rewrite's,
    // keyed as the lessons' sites are), which the lesson form puts after their kernels. The
    // rewrite reads a kernel template's accesses in an instantiation: the lesson form names
    // its templates first (lesson_places here: no warp functions yet), then one of each is
    // taken, after the file's text.
    RewriteRequest first = rq;
    first.lesson_places = true;
    const RewriteResult named = RewriteProgram(first);
    if (!named.ok) return named;
    RewriteRequest warps = rq;
    warps.lesson_form = false;
    warps.lesson_places = true;
    if (!named.program.lesson_kernel_templates.empty()) {
      instances = "\nstatic void ws_lesson_instances() {";
      for (const std::string& t : named.program.lesson_kernel_templates)
        instances += " (void)&" + t + ";";
      instances += " }\n";
      warps.text += instances;
      text += instances;
    }
    RewriteResult w = RewriteProgram(warps);
    if (!w.ok) return w;
    result.program.lesson_warps = std::move(w.program.lesson_warps);
  }
  const std::string path = (rq.directory / rq.file_name).string();
  std::vector<std::string> args = {"clang-14", "-fsyntax-only"};
  if (rq.host_unit) {
    args.insert(args.end(), {"-x", "c++", "-std=c++17", "-resource-dir", ResourceDir(), "-I",
                             rq.shim_dir.string(), "-ferror-limit=50", "-w"});
  } else {
    const std::vector<std::string> unit = CudaUnitArgs(rq.shim_dir);
    args.insert(args.end(), unit.begin(), unit.end());
    if (rq.pch.empty()) {
      args.insert(args.end(), {"-include", "ws_program.h"});
    } else {
      args.insert(args.end(), {"-include-pch", rq.pch.string()});
    }
    args.push_back("-ferror-limit=50");
  }
  for (const std::filesystem::path& dir : rq.include_dirs)
    args.insert(args.end(), {"-I", dir.string()});
  for (const std::string& d : rq.defines) args.push_back("-D" + d);
  args.push_back(path);

  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(new llvm::vfs::InMemoryFileSystem);
  overlay->pushOverlay(memory);
  memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(SharedAlignasFirst(text), path));
  llvm::IntrusiveRefCntPtr<FileManager> files(new FileManager(FileSystemOptions(), overlay));
  const std::filesystem::path main_dir = std::filesystem::absolute(rq.directory).lexically_normal();
  Diagnostics diags(&result.errors, main_dir);
  tooling::ToolInvocation invocation(args, std::make_unique<Action>(&result, rq, &diags, main_dir),
                                     files.get());
  invocation.setDiagnosticConsumer(&diags);
  const bool ran = invocation.run();
  if (!ran && result.errors.empty())
    result.errors.push_back({0, 0, true, "clang could not parse " + rq.file_name});
  if (!result.errors.empty()) return result;

  RewrittenProgram& p = result.program;
  if (rq.lesson_form) {
    if (!instances.empty()) {
      if (p.source.size() < instances.size() ||
          p.source.compare(p.source.size() - instances.size(), instances.size(), instances) != 0) {
        result.errors.push_back({0, 0, true, "the lesson form changed its template instances"});
        return result;
      }
      p.source.resize(p.source.size() - instances.size());
    }
    // The lessons' API, then the kernel file at its own line numbers; then, for the emulator,
    // the same file's warp functions (the SIMT path: the program rewrite's, keyed as the
    // lessons' sites are), in the namespace the emulator's WS_LAUNCH finds them in.
    p.source = "#include \"warpscope/kernels/ws_cuda.h\"\n#line 1 \"" + Escape(rq.file_name) +
               "\"\n" + p.source;
    result.ok = true;
    return result;
  }
  // The rewritten program: its own line numbers, then the site table the runtime reads (none in
  // a host unit: no device code, and no Warpscope header in it).
  std::string out = "#line 1 \"" + Escape(rq.file_name) + "\"\n" + p.source;
  if (rq.host_unit) {
    p.source = std::move(out);
    for (ProgramFile& f : p.files)
      f.rewritten =
          "#line 1 \"" + Escape(f.name) + "\"\n" + (f.rewritten.empty() ? f.text : f.rewritten);
    result.ok = true;
    return result;
  }
  out += "\n#line 1 \"warpscope-sites\"\n";
  // The files the sites are in: the main file, then its headers by first use.
  std::vector<std::string> names = {rq.file_name};
  auto index_of = [&names](const std::string& f) {
    const auto it = std::find(names.begin(), names.end(), f);
    if (it != names.end()) return static_cast<std::size_t>(it - names.begin());
    names.push_back(f);
    return names.size() - 1;
  };
  std::string descs;
  for (const ProgramSite& s : p.sites) {
    descs += "{" + std::to_string(s.site) + "u, " + std::to_string(s.line) + "u, " +
             std::to_string(s.column) + "u, " + std::to_string(s.end_column) + "u, " +
             std::to_string(index_of(s.file)) + "u}, ";
  }
  out += "static const char* const ws_site_files[] = {";
  for (const std::string& n : names) out += "\"" + Escape(n) + "\", ";
  out += "};\n";
  if (p.sites.empty()) {
    out += "static ::ws::prog::SiteTable ws_site_table(nullptr, 0u, ws_site_files, " +
           std::to_string(names.size()) + "u);\n";
  } else {
    out += "static const ::ws::prog::SiteDesc ws_site_descs[] = {" + descs + "};\n";
    out += "static ::ws::prog::SiteTable ws_site_table(ws_site_descs, " +
           std::to_string(p.sites.size()) + "u, ws_site_files, " + std::to_string(names.size()) +
           "u);\n";
  }
  if (p.uses_heap) out += "static const int ws_device_heap = ::ws::prog::UseDeviceHeap();\n";
  // The kernels' addresses by name, for launches through function pointers and a template's
  // specializations launched inside function templates (LaunchAt).
  if (!p.kernel_table.empty()) {
    out += "static const ::ws::prog::KernelTable ws_kernel_table({";
    for (std::size_t k = 0; k < p.kernel_table.size(); ++k)
      out +=
          "{reinterpret_cast<const void*>(" + p.kernel_table[k] + "), \"" +
          Escape(p.kernel_table_names[k]) + "\", " + std::to_string(p.kernel_table_shared[k]) +
          "u, " +
          (k < p.kernel_table_warp.size() && !p.kernel_table_warp[k].empty()
               ? "WS_SIMT_WARP(" + p.kernel_table_warp[k] + "), WS_SIMT_NONE"
               : "nullptr, \"" +
                     Escape(k < p.kernel_table_simt.size() ? p.kernel_table_simt[k] : "") + "\"") +
          ", WS_BIND_OF(" + p.kernel_table[k] + ")" +
          (k < p.kernel_table_cluster.size() && p.kernel_table_cluster[k] != 0
               ? ", " + std::to_string(p.kernel_table_cluster[k]) + "u"
               : "") +
          "}, ";
    out += "});\n";
  }
  // Each header the compiler reads from where the rewritten program is put: at its own lines,
  // named as the program names it.
  for (ProgramFile& f : p.files) {
    f.rewritten =
        "#line 1 \"" + Escape(f.name) + "\"\n" + (f.rewritten.empty() ? f.text : f.rewritten);
  }
  p.source = std::move(out);
  result.ok = true;
  return result;
}

}  // namespace ws

// warpscope-rewrite: the program rewriter (program_rewrite.h) as its own process. The app and
// the CLI run it as a child: clang's front end then never shares a process with the app's OpenGL
// driver (Mesa's llvmpipe loads its own LLVM, whose symbols clash with clang's), and a program
// that crashes the parser ends only this process.
//
//   warpscope-rewrite --name FILE.cu --dir DIR --text PATH --shim DIR [-D NAME=VALUE]...
//                     [-I DIR]... [--site-base N] [--pch PATH]
//
// prints one JSON object: {"ok", "errors", "source", "sites", "launches", "kernels",
// "kernel_files", "files", "warnings"}.
//
//   warpscope-rewrite --emit-pch OUT --shim DIR
//
// precompiles the shim into OUT, which a later rewrite reads with --pch OUT (clang refuses one
// made by another build of the rewriter or from another shim: the caller keys it by both).
//
//   warpscope-rewrite --lesson-form --name FILE.cuh --dir DIR --text PATH --shim DIR --out OUT
//
// writes a built-in lesson's plain-CUDA kernel file in the lessons' API to OUT (the build runs it:
// kernels/CMakeLists.txt), or prints clang's errors and exits with status 1.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "warpscope/program/program_rewrite.h"

namespace {

nlohmann::json Diagnostics(const std::vector<ws::ProgramDiagnostic>& list) {
  nlohmann::json a = nlohmann::json::array();
  for (const ws::ProgramDiagnostic& d : list)
    a.push_back({{"line", d.line},
                 {"column", d.column},
                 {"error", d.error},
                 {"message", d.message},
                 {"file", d.file}});
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  ws::RewriteRequest rq;
  std::string text_path, out_path, pch_out;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--name" && has_value) {
      rq.file_name = argv[++i];
    } else if (a == "--dir" && has_value) {
      rq.directory = argv[++i];
    } else if (a == "--text" && has_value) {
      text_path = argv[++i];
    } else if (a == "--shim" && has_value) {
      rq.shim_dir = argv[++i];
    } else if (a == "-I" && has_value) {
      rq.include_dirs.emplace_back(argv[++i]);
    } else if (a == "--host-unit") {
      rq.host_unit = true;
    } else if (a == "--site-base" && has_value) {
      rq.site_base = static_cast<std::uint32_t>(std::strtoul(argv[++i], nullptr, 10));
    } else if (a == "-D" && has_value) {
      rq.defines.push_back(argv[++i]);
    } else if (a == "--lesson-form") {
      rq.lesson_form = true;
    } else if (a == "--out" && has_value) {
      out_path = argv[++i];
    } else if (a == "--pch" && has_value) {
      rq.pch = argv[++i];
    } else if (a == "--emit-pch" && has_value) {
      pch_out = argv[++i];
    } else {
      std::cerr << "warpscope-rewrite: unknown argument '" << a << "'\n";
      return 2;
    }
  }
  if (!pch_out.empty()) {
    std::string error;
    if (rq.shim_dir.empty() || !ws::EmitShimPch(rq.shim_dir, pch_out, &error)) {
      std::cerr << "warpscope-rewrite: could not precompile the shim: "
                << (rq.shim_dir.empty() ? "no --shim" : error) << "\n";
      return 1;
    }
    return 0;
  }
  std::ifstream in(text_path, std::ios::binary);
  if (rq.file_name.empty() || !in) {
    std::cerr << "warpscope-rewrite: needs --name and a readable --text file\n";
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  rq.text = text.str();
  const ws::RewriteResult r = ws::RewriteProgram(rq);
  if (!out_path.empty()) {
    // The source alone, into a file (the build's lesson kernels); errors as a compiler's.
    if (!r.ok) {
      for (const ws::ProgramDiagnostic& d : r.errors)
        std::cerr << rq.file_name << ":" << d.line << ":" << d.column << ": error: " << d.message
                  << "\n";
      return 1;
    }
    std::ofstream out(out_path, std::ios::binary);
    out << r.program.source;
    return out ? 0 : 1;
  }
  nlohmann::json j;
  j["ok"] = r.ok;
  j["errors"] = Diagnostics(r.errors);
  j["source"] = r.program.source;
  j["sites"] = nlohmann::json::array();
  for (const ws::ProgramSite& s : r.program.sites)
    j["sites"].push_back({{"site", s.site},
                          {"file", s.file},
                          {"line", s.line},
                          {"column", s.column},
                          {"end_column", s.end_column},
                          {"access", static_cast<int>(s.access)},
                          {"text", s.text}});
  j["launches"] = nlohmann::json::array();
  for (const ws::ProgramLaunchSite& l : r.program.launches)
    j["launches"].push_back({{"kernel", l.kernel}, {"line", l.line}, {"file", l.file}});
  j["kernels"] = r.program.kernels;
  j["kernel_files"] = nlohmann::json::array();
  for (const ws::ProgramKernel& k : r.program.kernel_files)
    j["kernel_files"].push_back({{"name", k.name}, {"file", k.file}, {"line", k.line}});
  j["files"] = nlohmann::json::array();
  for (const ws::ProgramFile& f : r.program.files)
    j["files"].push_back({{"name", f.name},
                          {"path", f.path.string()},
                          {"text", f.text},
                          {"rewritten", f.rewritten}});
  j["main_takes_args"] = r.program.main_takes_args;
  j["local_arrays"] = r.program.local_arrays;
  j["has_main"] = r.program.has_main;
  j["wmma_at"] = r.program.wmma_at;
  j["async_at"] = r.program.async_at;
  j["group_copy_at"] = r.program.group_copy_at;
  j["cublas_at"] = r.program.cublas_at;
  j["curand_at"] = r.program.curand_at;
  j["warnings"] = Diagnostics(r.program.warnings);
  std::cout << j.dump();
  return 0;
}

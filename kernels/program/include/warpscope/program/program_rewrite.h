// Finds what a CUDA program does with memory, with clang's front end (libclang-cpp, clang 14),
// and rewrites the program so that the emulator records it (docs/PROGRAMS.md):
//
// - every load or store of memory in a __global__ or __device__ function: an element through a
//   pointer or an array (`a[i]`, `*p`, `p->x`), a __shared__, __constant__ or __device__
//   variable. A read is an lvalue-to-rvalue conversion in clang's AST, a write the left side of
//   `=`, both for `+=` and `++`; the access `E` becomes `(*::ws::prog::Ld(&(E), SITE))` (St, LdSt).
// - the address argument of atomicAdd() and its kin: `::ws::prog::At(ADDR, SITE)`.
// - every launch `k<<<g, b, s>>>(args)`: `::ws::prog::Launch("k", LINE, k,
//   ::ws::prog::Config(g, b, s)).Run(args)`.
// - each __shared__ array registers its address (the emulator then knows which block window it
//   is in); `extern __shared__ T s[]` becomes the launch's dynamic shared memory.
//
// SITE is the access's number (1, 2, ... in source order) in bits 16..31 and its line in bits
// 0..15: two accesses on one line are two sites. The rewriter only inserts text, never a line
// break, and starts the output with `#line 1 "FILE"`, so the compiler's lines are the source's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "warpscope/trace/program_record.h"
#include "warpscope/trace/status.h"

namespace ws {

enum class ProgramAccess : std::uint8_t { kLoad, kStore, kLoadStore, kAtomic };
const char* ToString(ProgramAccess a);  // "load", "store", "load+store", "atomic"

struct ProgramSite {
  std::uint32_t site = 0;  // 1-based, in source order (from RewriteRequest::site_base + 1)
  std::string file;        // the file it is in, as the program names it ("kernel.cuh")
  std::uint32_t line = 0, column = 0;
  std::uint32_t end_column = 0;  // just past the expression, when it ends on its first line
  ProgramAccess access = ProgramAccess::kLoad;
  std::string text;  // the accessed expression as written, e.g. "idata[index_in]"
};

struct ProgramLaunchSite {
  std::string kernel;  // as written before <<<, e.g. "transposeCoalesced<16>"
  std::uint32_t line = 0;
  std::string file;  // the file the launch is written in
};

// A file of the program's own that the translation unit includes (from the program's folder, a
// -I folder or beside another of its files: anything but system headers and the shim), with its
// text as the compiler must see it (rewritten where it holds device code).
struct ProgramFile {
  std::string name;  // relative to the main file's folder: "kernel.cuh", "../common/book.h"
  std::filesystem::path path;  // absolute
  std::string text;            // as read
  std::string rewritten;       // what the compiler reads instead (empty: the text as it is)
};

struct RewrittenProgram {
  std::string source;  // the rewritten program, for the host compiler
  // With RewriteRequest::lesson_places: each kernel's warp function (named as the kernel, in
  // namespace ws_simt; a kernel the SIMT rewrite cannot express, a ::ws::simt::NoWarp naming
  // why), and where in the file it goes (after the kernel: the file's macros hold there).
  std::vector<std::pair<unsigned, std::string>> lesson_warps;
  // The lesson form's kernel templates (of integer parameters), each named with an instantiation
  // ("transposeNaive<16>"): the warp functions' rewrite sees a template's accesses in an
  // instantiation, which a lesson file, launching nothing, has none of.
  std::vector<std::string> lesson_kernel_templates;
  std::vector<ProgramSite> sites;
  std::vector<ProgramLaunchSite> launches;
  std::vector<std::string> kernels;         // the __global__ functions, by name
  std::vector<ProgramKernel> kernel_files;  // and where each is written
  // The kernels a launch through a function pointer (or a template's specialization launched
  // inside a function template) may name, defined here (a template's by its arguments), by
  // their qualified names: the rewritten unit registers their addresses (KernelTable).
  std::vector<std::string> kernel_table;           // each kernel's address, as C++
  std::vector<std::string> kernel_table_names;     // and its name
  std::vector<std::uint64_t> kernel_table_shared;  // and its static __shared__ bytes
  // and its __cluster_dims__(x, y, z) as x | y << 8 | z << 16 (0: none)
  std::vector<std::uint32_t> kernel_table_cluster;
  bool uses_heap = false;  // device code allocates (new, malloc): the device heap is registered
  // The first call of nvcuda::wmma in the program's own files, "file.cu:line" ("" when none).
  std::string wmma_at;
  // The first asynchronous copy's call (__pipeline_*, cuda::, cooperative_groups::memcpy_async),
  // "file.cu:line" ("" when none).
  std::string async_at;
  // The first group's copy (cooperative_groups::memcpy_async, wait, wait_prior): the GPU backend
  // refuses it (yet), since the toolkit's cuts it inside its own header (shim/gpu/ws_gpu_async.h).
  std::string group_copy_at;
  // The first #include of cuBLAS (<cublas_v2.h>, <cublas_api.h>, <cublasLt.h>) in the program's
  // own files, "file.cu:line": the emulator runs its calls (emu_cublas.cpp), the GPU backend
  // refuses it (yet).
  std::string cublas_at;
  // The first #include of cuRAND's device API (<curand_kernel.h>, <curand.h>), the same way: the
  // emulator runs its generators (shim/curand_kernel.h), the GPU backend refuses it (yet).
  std::string curand_at;
  // and its warp function (the SIMT path, docs/ENGINE.md) as C++, or "" and why it has none
  std::vector<std::string> kernel_table_warp, kernel_table_simt;
  std::vector<ProgramFile> files;  // the program's own headers it includes (not the main file)
  bool has_main = false;           // a program Warpscope can run has a main()
  bool main_takes_args = false;    // main(int argc, char** argv): the app offers an arguments field
  // Some kernel's own array is indexed at run time (recorded as local memory): the run must know
  // first which kernels ptxas keeps such arrays in registers for.
  bool local_arrays = false;
  // Parts of the program that are not recorded, and why (an access inside a macro, ...).
  std::vector<ProgramDiagnostic> warnings;
};

struct RewriteRequest {
  std::string file_name;            // the program's name as shown and as __FILE__ ("transpose.cu")
  std::filesystem::path directory;  // where its own #include "..." files are found
  std::string text;
  std::vector<std::string> defines;                 // "TILE_DIM=16"
  std::vector<std::filesystem::path> include_dirs;  // -I, in order (CPATH's folders after)
  std::uint32_t site_base = 0;  // the sites of earlier translation units: numbering starts past it
  // A host translation unit (a .cpp beside the .cu files): C++ as the host compiler reads it under
  // nvcc, without CUDA's headers forced in; only its allocations and main() are found.
  bool host_unit = false;
  std::filesystem::path shim_dir;  // kernels/program/shim: cuda_runtime.h and ws_program.h
  // The shim precompiled (EmitShimPch), read instead of parsing ws_program.h again: most of a
  // rewrite's time. Empty: parsed.
  std::filesystem::path pch;
  // A built-in lesson's kernel file (plain CUDA, as the slides print it) into the lessons'
  // recording API: pointer parameters become ws::Global<T>, __shared__ arrays ws::SharedArray
  // (lesson_form.cpp); nothing else changes. No sites, launches or main().
  bool lesson_form = false;
  // (Inside a lesson form's rewrite: the lesson file's warp functions, RewrittenProgram::
  // lesson_warps, each access's place the lessons' own: its file's tag and its line. With
  // lesson_form: the lesson form alone, naming its kernel templates.)
  bool lesson_places = false;
};

// The rewritten program, or the compiler's errors (each with its line and message).
struct RewriteResult {
  bool ok = false;
  RewrittenProgram program;
  std::vector<ProgramDiagnostic> errors;
};
RewriteResult RewriteProgram(const RewriteRequest& request);

// Precompiles the shim (ws_program.h, as a CUDA unit's rewrite includes it) into `out`, for
// RewriteRequest::pch. False, with clang's first error in `error`, when it cannot.
bool EmitShimPch(const std::filesystem::path& shim_dir, const std::filesystem::path& out,
                 std::string* error);

// The site word the rewriter writes: site number in bits 16..31, line in bits 0..15.
constexpr std::uint32_t ProgramPlace(std::uint32_t site, std::uint32_t line) {
  return (site << 16) | (line > 0xffffu ? 0xffffu : line);
}

}  // namespace ws

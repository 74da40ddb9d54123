// What both program runtimes (libws_program_emu, libws_program_cuda) do with a finished launch
// and with the whole run: name the launch's sites after the rewriter's numbers, and write the
// launches to the trace file the parent reads (program.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "warpscope/trace/kernel_table.h"
#include "warpscope/trace/launch.h"
#include "warpscope/trace/ws_cuda_keys.h"

namespace ws::prog {

// The rewriter's site tables (one per translation unit; the shim's SiteDesc): each site's columns
// and file, and the file each tag stands for.
struct SiteNames {
  std::vector<std::uint32_t> column, end_column;  // by site number - 1
  std::vector<std::string> file;                  // by site number - 1
  std::map<std::uint32_t, std::string> by_tag;    // FileTag -> the file's name
  std::string main_file;

  template <typename SiteDesc>
  void Add(const SiteDesc* sites, unsigned int count, const char* const* files,
           unsigned int file_count) {
    for (unsigned int i = 0; i < file_count; ++i) by_tag.emplace(FileTag(files[i]), files[i]);
    if (main_file.empty() && file_count > 0) main_file = files[0];
    for (unsigned int i = 0; i < count; ++i) {
      const SiteDesc& d = sites[i];
      if (d.site == 0) continue;
      if (file.size() < d.site) {
        column.resize(d.site, 0);
        end_column.resize(d.site, 0);
        file.resize(d.site);
      }
      column[d.site - 1] = d.column;
      end_column[d.site - 1] = d.end_column;
      file[d.site - 1] = d.file < file_count ? files[d.file] : std::string();
    }
  }
  // The file a place's tag names (the main file when the tag is unknown).
  const std::string& FileOf(std::uint32_t tag) const {
    const auto it = by_tag.find(tag);
    return it != by_tag.end() ? it->second : main_file;
  }
};

// An access's place is its site number (bits 16..31) and line: gives each site its columns and
// file, and each barrier and warp meeting (whose place holds its file's tag) its file.
void NameProgramSites(LaunchTrace& t, const SiteNames& names);

// What the program's child process writes besides its launches: the trace header of the run
// (the parent reads it into the run record, program_run.cpp).
struct ChildRecord {
  std::string file, backend, preset, error;
  std::size_t launches_without_records = 0;
  std::size_t launches_with_records = 0;
  std::map<std::string, std::size_t> launches_of;  // by kernel, so far
  std::size_t parts = 0;                           // launches written so far
  bool events_modeled = false;  // cudaEventElapsedTime gave the model's time (the emulator)
  // A library's calls that ran on the emulator's processor, not as recorded kernels (cuBLAS's:
  // emu_cublas.cpp), by name: how many of each.
  std::map<std::string, std::size_t> library_calls;
  // What the program asked that changes nothing on the emulator (an L2 access policy), each once.
  std::vector<std::string> without_effect;
};

// The kernels each translation unit registers by address (the shims' KernelTable): the name of a
// launch made through a function pointer, else `written`, and the kernel's static __shared__
// bytes (0 for one not registered).
void RegisterKernel(const void* address, const char* name, unsigned int static_shared,
                    const void* warp = nullptr, const char* simt = nullptr,
                    const void* bind = nullptr, unsigned int cluster = 0);
// The kernel's __cluster_dims__ (x | y << 8 | z << 16; 0: none, or not registered).
unsigned int KernelClusterAt(const void* address);
unsigned int KernelClusterNamed(const char* name);  // the same, by the kernel's table name
// The emulator's binder of the kernel's arguments (ws::prog::Binder; null: not registered).
const void* KernelBindAt(const void* address);
// The emulator's SIMT path: the kernel's warp function (null: none) and why it has none (null:
// not known, a kernel the table lacks).
const void* KernelWarpAt(const void* address);
const char* KernelSimtReasonAt(const void* address);
const char* KernelNameAt(const void* address, const char* written);
unsigned int KernelStaticSharedAt(const void* address);

// Does ptxas keep kernel `kernel`'s own arrays in registers (0 bytes of stack frame in its
// report on the program as written)? The parent passes the report's local bytes per kernel in
// WS_PROGRAM_LOCAL_BYTES ("key bytes" lines); where it does not know, false: the rewriter's rule
// (arrays indexed at run time are in local memory) stands.
bool KeepsArraysInRegisters(const char* kernel);

// The compiled kernels' shared instructions by line (trace/compiled_code.h), which the parent
// passes in WS_PROGRAM_COMPILED (CompiledCode::Table()) where nvdisasm listed the program as
// written: from the launch of `kernel` on, each shared site whose line the compiled kernel serves
// wider than the source is given that width (SiteInfo::compiled_width), before it is costed.
// `names` (kept) gives a site's file by the rewriter's site number, which a program's access keys
// carry in their file field on both backends (NameProgramSites reads it so too).
void CompiledCodeLaunching(const char* kernel, const SiteNames& names);

// Writes the finished launch `t` at once, to WS_PROGRAM_OUT.part<N> (N = run.parts, counting from
// 0), so that a program stopped later (a time limit, a crash) keeps it; past its kernel's budget
// of launches with records (kernel_table.h) only its figures are written. The parent reads the
// parts in order (program.h).
void KeepLaunch(ChildRecord& run, LaunchTrace t);
// Whether KeepLaunch will keep the block records of the next launch of `kernel` (its first
// launches; later ones only their figures): a GPU launch that will not keeps none from the start,
// so that every block's requests are counted on the device (ws_cuda_record_format.h, the tally).
bool KeepsRecords(const ChildRecord& run, const std::string& kernel);
// Writes `run`'s header to the file named by WS_PROGRAM_OUT (nothing when it is not set): the
// parts and how the run ended.
void WriteChildRecord(const ChildRecord& run);

}  // namespace ws::prog

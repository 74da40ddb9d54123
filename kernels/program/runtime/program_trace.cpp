#include "program_trace.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <utility>
#include <vector>

#include "warpscope/kernels/site_table.h"
#include "warpscope/trace/compiled_code.h"
#include "warpscope/trace/kernel_resources.h"
#include "warpscope/trace/trace_file.h"

namespace ws::prog {

namespace {
struct RegisteredKernel {
  const void* address;
  const char* name;
  unsigned int static_shared;
  const void* warp;
  const char* simt;
  const void* bind;
  unsigned int cluster;
};
std::vector<RegisteredKernel>& Kernels() {
  static auto* k = new std::vector<RegisteredKernel>();  // never destroyed
  return *k;
}
}  // namespace

void RegisterKernel(const void* address, const char* name, unsigned int static_shared,
                    const void* warp, const char* simt, const void* bind, unsigned int cluster) {
  Kernels().push_back({address, name, static_shared, warp, simt, bind, cluster});
}

unsigned int KernelClusterNamed(const char* name) {
  for (const RegisteredKernel& k : Kernels()) {
    if (name != nullptr && k.name != nullptr && std::strcmp(k.name, name) == 0) return k.cluster;
  }
  return 0;
}

unsigned int KernelClusterAt(const void* address) {
  for (const RegisteredKernel& k : Kernels()) {
    if (k.address == address && address != nullptr) return k.cluster;
  }
  return 0;
}

const void* KernelWarpAt(const void* address) {
  for (const RegisteredKernel& k : Kernels()) {
    if (k.address == address && address != nullptr) return k.warp;
  }
  return nullptr;
}

const void* KernelBindAt(const void* address) {
  for (const RegisteredKernel& k : Kernels()) {
    if (k.address == address && address != nullptr) return k.bind;
  }
  return nullptr;
}

const char* KernelSimtReasonAt(const void* address) {
  for (const RegisteredKernel& k : Kernels()) {
    if (k.address == address && address != nullptr) return k.simt;
  }
  return nullptr;
}

const char* KernelNameAt(const void* address, const char* written) {
  for (const RegisteredKernel& k : Kernels()) {
    if (k.address == address && address != nullptr) return k.name;
  }
  return written;
}

unsigned int KernelStaticSharedAt(const void* address) {
  for (const RegisteredKernel& k : Kernels()) {
    if (k.address == address && address != nullptr) return k.static_shared;
  }
  return 0;
}

bool KeepsArraysInRegisters(const char* kernel) {
  static const auto* table = [] {
    auto* t = new std::map<std::string, KernelResources, std::less<>>();  // never destroyed
    if (const char* text = std::getenv("WS_PROGRAM_LOCAL_BYTES")) {
      std::istringstream in(text);
      std::string key;
      std::uint32_t bytes = 0;
      while (in >> key >> bytes) {
        KernelResources r;
        r.registers = 0;
        r.local_bytes = bytes;
        (*t)[key] = r;
      }
    }
    return t;
  }();
  const KernelResources* r = FindKernelResources(*table, kernel != nullptr ? kernel : "");
  return r != nullptr && r->local_bytes == 0;
}

namespace {
// What the compiled-width function reads: the program's compiled code, the kernel launching and
// how its sites name their files.
struct CompiledSites {
  CompiledCode code;
  std::string kernel;
  const SiteNames* names = nullptr;
};
CompiledSites& Compiled() {
  static auto* c = new CompiledSites();  // never destroyed: launches may run at exit
  return *c;
}

std::uint8_t CompiledWidthOfSite(const SiteInfo& site) {
  const CompiledSites& c = Compiled();
  if (c.names == nullptr) return 0;
  SiteInfo named = site;
  const std::uint32_t site_number = site.file_tag;  // NameProgramSites: the rewriter's number
  named.file = site_number >= 1 && site_number <= c.names->file.size() &&
                       !c.names->file[site_number - 1].empty()
                   ? c.names->file[site_number - 1]
                   : c.names->main_file;
  return CompiledWidthOf(c.code, c.kernel, named);
}
}  // namespace

void CompiledCodeLaunching(const char* kernel, const SiteNames& names) {
  static const bool any = [] {
    const char* text = std::getenv("WS_PROGRAM_COMPILED");
    if (text == nullptr || *text == '\0') return false;
    Result<CompiledCode> code = CompiledCode::FromTable(text);
    if (!code.ok() || code->empty()) return false;
    Compiled().code = std::move(*code);
    return true;
  }();
  if (!any) return;
  CompiledSites& c = Compiled();
  c.kernel = kernel != nullptr ? kernel : "";
  c.names = &names;
  SetCompiledWidthFn(&CompiledWidthOfSite);
}

void NameProgramSites(LaunchTrace& t, const SiteNames& names) {
  for (SiteInfo& s : t.sites) {
    const std::uint32_t site = s.file_tag;  // the recorders keep the site number here
    if (site >= 1 && site <= names.file.size()) {
      s.column = static_cast<std::uint16_t>(names.column[site - 1]);
      s.end_column = static_cast<std::uint16_t>(names.end_column[site - 1]);
      s.file = names.file[site - 1];
    } else {
      s.file = names.main_file;
    }
    s.file_tag = static_cast<std::uint16_t>(FileTag(s.file.c_str()));
  }
  for (BarrierSite& b : t.barrier_sites) b.file = names.FileOf(b.file_tag);
  for (WarpOpSite& w : t.warp_op_sites) w.file = names.FileOf(w.file_tag);
}

bool KeepsRecords(const ChildRecord& run, const std::string& kernel) {
  const auto it = run.launches_of.find(kernel);
  const std::size_t nth = it == run.launches_of.end() ? 0 : it->second;  // of its kernel, from 0
  return nth == 0 ||
         (nth < kRecordedLaunchesPerKernel && run.launches_with_records < kMaxLaunchesWithRecords);
}

void KeepLaunch(ChildRecord& run, LaunchTrace t) {
  const bool keep = KeepsRecords(run, t.kernel);
  ++run.launches_of[t.kernel];
  if (keep && !t.blocks.empty()) ++run.launches_with_records;
  if (!keep) {
    t.blocks.clear();
    t.thread_active.clear();
    ++run.launches_without_records;
  }
  const char* out = std::getenv("WS_PROGRAM_OUT");
  const std::size_t part = run.parts++;
  if (out == nullptr) return;
  TraceContents contents;
  contents.header = {{"program", run.file}, {"backend", run.backend}, {"preset", run.preset}};
  contents.launches.push_back(std::move(t));
  contents.compression_level = 0;  // raw: the parent reads it at once (trace_file.h)
  contents.durable = false;        // and removes it
  if (Status s = WriteTraceFile(std::string(out) + ".part" + std::to_string(part), contents);
      !s.ok())
    std::cerr << "warpscope: could not write launch " << part + 1 << ": " << s.message() << "\n";
}

void WriteChildRecord(const ChildRecord& run) {
  const char* out = std::getenv("WS_PROGRAM_OUT");
  if (out == nullptr) return;
  TraceContents contents;
  contents.header = {{"program", run.file},
                     {"backend", run.backend},
                     {"preset", run.preset},
                     {"parts", run.parts},
                     {"events_modeled", run.events_modeled},
                     {"launches_without_records", run.launches_without_records}};
  if (!run.error.empty()) contents.header["error"] = run.error;
  if (!run.library_calls.empty()) contents.header["library_calls"] = run.library_calls;
  if (!run.without_effect.empty()) contents.header["without_effect"] = run.without_effect;
  if (Status s = WriteTraceFile(out, contents); !s.ok())
    std::cerr << "warpscope: could not write the run: " << s.message() << "\n";
}

}  // namespace ws::prog

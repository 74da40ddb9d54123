#include "emu_program_state.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <sstream>

namespace ws::prog::detail {

namespace {
// Memory ran out (the run's limit, RLIMIT_AS): said in those words, for the parent to name the
// limit, rather than left to std::bad_alloc's abort. The launches written so far are kept.
[[noreturn]] void OutOfMemory() {
  static const char message[] =
      "warpscope: out of memory: the program and Warpscope's records of it need more memory "
      "than the run may take\n";
  (void)!write(2, message, sizeof message - 1);
  std::_Exit(kOutOfMemoryExit);
}
// From the runtime's load on: the engine's records and the program's own new alike.
[[maybe_unused]] const bool installed = (std::set_new_handler(OutOfMemory), true);
// Memory a launch frees is kept for the next: one malloc arena (the workers' own arenas gave
// their freed shadow pages back to the system at once, and each launch took and zeroed them
// again), no trimming, and only blocks of 32 MiB or more mapped apart. A strided copy's 67
// launches (the corpus's coalescing.cu) spent half their time in page faults: 23 s, now 12 s;
// the peak is the same. (Under the sanitizers mallopt does nothing.)
[[maybe_unused]] const bool kept_memory =
    (mallopt(M_ARENA_MAX, 1), mallopt(M_TRIM_THRESHOLD, 1 << 30),
     mallopt(M_MMAP_THRESHOLD, 32 << 20), true);
}  // namespace

Program::Program() {
  if (const char* p = std::getenv("WS_PRESET")) {
    if (auto found = FindDevicePreset(p); found.ok()) preset = *found;
  }
  if (preset.name.empty()) preset = DevicePresets().front();
  if (const char* k = std::getenv("WS_KEEP_BLOCKS")) {
    keep_blocks.clear();
    std::stringstream s(k);
    for (std::string item; std::getline(s, item, ',');) {
      if (!item.empty()) keep_blocks.push_back(static_cast<std::uint32_t>(std::stoul(item)));
    }
  }
  if (const char* k = std::getenv("WS_KEEP_ALL_UP_TO"))
    keep_all_up_to = std::strtoull(k, nullptr, 10);
  if (const char* w = std::getenv("WS_WORKERS"))
    workers = static_cast<unsigned>(std::strtoul(w, nullptr, 10));
  if (const char* s = std::getenv("WS_SCHEDULE")) {
    if (auto found = ParseSchedule(s); found.ok()) schedule = *found;
  }
  std::atexit([] { Write(); });
}

Program& P() {
  static Program* p = new Program();  // never destroyed: atexit writes it
  return *p;
}

void Program::Write() {
  Program& p = P();
  std::lock_guard lock(p.mutex);
  if (p.written) return;
  p.written = true;
  p.run.file = p.sites.main_file;
  p.run.backend = "emu";
  p.run.preset = p.preset.name;
  p.run.error = p.error;
  std::fflush(stdout);
  WriteChildRecord(p.run);
}

cudaError_t Fail(cudaError_t e, const std::string& what) {
  std::cerr << "warpscope: " << what << "\n";
  P().last_error = e;
  return e;
}

std::size_t AddRegion(void* begin, std::size_t bytes, std::string name, std::uint32_t space,
                      bool symbol, void* allocation) {
  Program& p = P();
  std::lock_guard lock(p.mutex);
  Region r;
  r.begin = reinterpret_cast<std::uintptr_t>(begin);
  r.bytes = bytes;
  r.id = static_cast<std::uint16_t>(p.regions.size());
  r.space = space;
  r.name = std::move(name);
  r.symbol = symbol;
  r.allocation = allocation;
  BufferInfo b{r.name, bytes, p.next_base};
  p.next_base = (p.next_base + bytes + kCudaMallocAlignment - 1) / kCudaMallocAlignment *
                kCudaMallocAlignment;
  p.buffers.push_back(b);
  p.regions.push_back(std::move(r));
  p.by_address.push_back(p.regions.size() - 1);
  std::sort(p.by_address.begin(), p.by_address.end(), [&](std::size_t a, std::size_t b2) {
    return p.regions[a].begin < p.regions[b2].begin;
  });
  return p.regions.size() - 1;
}

const Region* FindRegion(std::uintptr_t addr, std::size_t bytes, const Region** near) {
  Program& p = P();
  *near = nullptr;
  const Region* freed = nullptr;
  auto it =
      std::upper_bound(p.by_address.begin(), p.by_address.end(), addr,
                       [&](std::uintptr_t a, std::size_t id) { return a < p.regions[id].begin; });
  for (int steps = 0; it != p.by_address.begin() && steps < 4096; ++steps) {
    --it;
    const Region& r = p.regions[*it];
    if (*near == nullptr) *near = &r;
    if (addr + bytes <= r.begin + r.bytes) {
      if (!r.freed) return &r;
      if (freed == nullptr) freed = &r;
    }
  }
  return freed;
}

const Region* RegionAbove(std::uintptr_t addr) {
  Program& p = P();
  auto it =
      std::upper_bound(p.by_address.begin(), p.by_address.end(), addr,
                       [&](std::uintptr_t a, std::size_t id) { return a < p.regions[id].begin; });
  for (; it != p.by_address.end(); ++it) {
    if (!p.regions[*it].freed) return &p.regions[*it];
  }
  return nullptr;
}

}  // namespace ws::prog::detail

// The shim's PlaceOf and the recorders' FileTag name a file alike.
static_assert(ws::prog::PlaceOf("dir/kernel.cuh", 7) ==
              ws::MakePlace(ws::FileTag("kernel.cuh"), 7));
// The shim's view of a thread's state is the emulator's.
static_assert(offsetof(ws::prog::ThreadView, view.frame) == offsetof(ws::emu::ThreadState, frame));
static_assert(offsetof(ws::prog::ThreadView, view.instance) ==
              offsetof(ws::emu::ThreadState, instance));

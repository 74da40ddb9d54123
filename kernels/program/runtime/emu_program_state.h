// The emulator's CUDA runtime for programs, its shared state (emu_program.cpp records and
// launches, emu_cuda_api.cpp is the runtime API): the buffers and symbols the program registered,
// its launches, its last error. Internal to libws_program_emu.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "warpscope/kernels/emu_runtime.h"
#define WS_NO_LESSON_INTRINSICS 1  // ws_program.h declares the program's own
#include "warpscope/kernels/ws_cuda_emu.h"
#include "warpscope/trace/launch.h"
#include "warpscope/trace/ws_cuda_keys.h"

// ws_cuda_emu.h's keyword macros are for lesson kernels; these files define the program's API.
#undef __global__
#undef __device__
#undef __host__
#undef __forceinline__
#undef __shared__
#undef threadIdx
#undef blockIdx
#undef blockDim
#undef gridDim
#undef __syncthreads
#include "program_trace.h"
#include "ws_program.h"

namespace ws::prog::detail {

inline constexpr std::size_t kGuardBytes = 256;
// The child's exit status when memory ran out (program_run.cpp names the limit).
inline constexpr int kOutOfMemoryExit = 4;  // unregistered bytes after each allocation
// The array field of a site that reaches into several buffers: its offsets are virtual addresses
// (no buffer of the launch has this id, so AccessAddress takes the offset as the address).
inline constexpr std::uint32_t kAnyBuffer = kSeveralBuffers;

struct Region {
  std::uintptr_t begin = 0;
  std::size_t bytes = 0;
  std::uint16_t id = 0;
  std::uint32_t space = kKeyGlobal;
  std::string name;
  bool freed = false;
  bool symbol = false;
  void* allocation = nullptr;  // what free() takes (null for symbols)
};

struct Program {
  std::mutex mutex;
  std::vector<Region> regions;          // by id
  std::vector<std::size_t> by_address;  // region ids sorted by begin
  std::vector<BufferInfo> buffers;      // by id, as the launches see them
  std::uint64_t next_base = 1u << 20;
  SiteNames sites;      // the rewriter's site tables, one per translation unit
  ChildRecord run;      // what is written: the launches so far (each at once) and the ending
  double model_ms = 0;  // the modeled time of the launches so far (what cudaEvent* read)
  cudaError_t last_error = cudaSuccess;
  // The last allocation that failed for lack of memory ("cudaMalloc of 1073741824 bytes", and its
  // bytes): an access through the null pointer it left (an address under its size) names it
  // (BadAddress).
  std::string failed_allocation;
  std::uint64_t failed_bytes = 0;
  // A launch's failed assert(): every later call returns it until cudaDeviceReset, as on a GPU.
  cudaError_t sticky_error = cudaSuccess;
  // Kernels that asked for more dynamic shared memory than a block has without asking
  // (cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, n)): n by kernel.
  std::map<const void*, std::uint32_t> max_dynamic_shared;
  bool assert_failed = false;  // the running launch's
  std::string error;           // the failed launch's message
  DevicePreset preset;
  std::vector<std::uint32_t> keep_blocks = {0, 1, 2, 3};
  unsigned workers = 0;              // the emulator's worker threads (0: one per processor)
  std::uint64_t keep_all_up_to = 0;  // keep every block of launches of at most these threads
  Schedule schedule;
  bool written = false;
  // The running launch's kernel keeps its local arrays in registers (ptxas said 0 bytes of
  // stack frame: WS_PROGRAM_LOCAL_BYTES), so their accesses reach no memory and are not recorded.
  bool registers_only = false;
  std::string next_name;  // the variable the next cudaMalloc fills (NameNext)
  // What the running launch's threads printed, by linear block index (printed in block order
  // when the launch ends), and its size.
  std::map<std::uint64_t, std::string> printed;
  std::size_t printed_bytes = 0;
  bool printed_cut = false;

  Program();
  // Writes the launches to WS_PROGRAM_OUT (once: at exit, or when a launch failed).
  static void Write();
};

Program& P();  // never destroyed: atexit writes it
}  // namespace ws::prog::detail
namespace ws::prog {
// A launch begins: the threads' asynchronous copies start afresh (emu_async.cpp).
void AsyncLaunchStarts();
// Records a texture read of `bytes` at `texel` (emu_program.cpp).
void RecordTexture(const void* texel, unsigned int bytes, unsigned int place);
}  // namespace ws::prog
namespace ws::prog::detail {
// Stream capture: ws_program_capture.h (cuda_graphs.cpp).
// The device heap (emu_device_heap.cpp): its size, set before the first launch, and its buffer,
// registered at the first launch of a program that allocates in device code.
std::size_t DeviceHeapLimit();
cudaError_t SetDeviceHeapLimit(std::size_t bytes);
void RegisterDeviceHeap();
// Prints "warpscope: WHAT", keeps `e` as the last error and returns it.
cudaError_t Fail(cudaError_t e, const std::string& what);
// Registers a buffer or a symbol; returns its id (its index in P().regions).
std::size_t AddRegion(void* begin, std::size_t bytes, std::string name, std::uint32_t space,
                      bool symbol, void* allocation);
// The live region holding [addr, addr + bytes), else a freed one that held it, else null;
// `near` gets the region that starts closest below `addr` (for messages).
const Region* FindRegion(std::uintptr_t addr, std::size_t bytes, const Region** near);
// The first live buffer that starts above `addr` (null: none), for naming the nearest buffer of
// an address between two.
const Region* RegionAbove(std::uintptr_t addr);

// What an access's address is: a __shared__ array of the running block or a buffer (its site key
// and offset), a variable of the thread's own (not recorded), or in nothing.
// (The SIMT path's Classified, ws_program_simt.h, with what a message needs.)
using Where = ::ws::simt::Where;
struct Classified : ::ws::simt::Classified {
  const Region* region = nullptr;  // for the message of one in nothing
  const Region* near = nullptr;
  int remote_rank = -1;  // another block's shared memory in the cluster: that block's rank
};

// Whether `addr` lies in one of the calling worker's shared arrays this launch (emu_program.cpp;
// the test ws::emu::ClusterRemoteShared makes of an address another block's could be).
bool OwnShared(std::uintptr_t addr, void*);
// Classifies an access (emu_program.cpp); BadAddressOf stops the launch for one in nothing.
Classified Classify(const void* ptr, unsigned int bytes, unsigned int place, unsigned int op);
[[noreturn]] void BadAddressOf(const void* ptr, unsigned int bytes, unsigned int place,
                               unsigned int op, const Classified& c);
// The two for the SIMT path's warp functions (simt_runtime.cpp).
extern const ::ws::simt::Classifier kSimtClassifier;
// A buffer of `bytes` from the device memory (`what`: "cudaMalloc", named in an error), registered
// as the program's next buffer (emu_cuda_api.cpp).
cudaError_t Allocate(void** ptr, std::size_t bytes, const char* what);
// Prints what the launch's threads printed, block after block, and empties the buffer
// (emu_device_calls.cpp).
void FlushPrinted();

}  // namespace ws::prog::detail
namespace ws::prog {
// Asynchronous copies issued and not yet landed by the threads of this worker (emu_async.cpp):
// where none are, a shared load looks no further.
extern thread_local std::uint64_t t_copies_in_flight;
// A shared load of `bytes` at `ptr` (site key `key`, `offset` into the block's window): where one
// of the thread's own copies in flight lands there, the pair is a hazard (HazardKind::kEarlyRead).
void EarlyRead(const void* ptr, unsigned int bytes, std::uint64_t key, std::uint32_t offset);
}  // namespace ws::prog

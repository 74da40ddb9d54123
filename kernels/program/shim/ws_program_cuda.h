// What a rewritten program (program_rewrite.h) sees when Warpscope runs it on a GPU: force-included
// (nvcc -include) before the program, with the real CUDA toolkit. The counterpart of ws_program.h's
// emulator build: the same rewritten text, the same sites, recorded by the GPU recorder the lessons
// use (ws_cuda_device.h: per-warp events, barriers, warp-level meetings) and decoded by the same
// code (gpu_records.h). docs/PROGRAMS.md describes both roads.
//
// - An access records its site's key and its offset in the array it falls in: a __shared__ array
//   (its slot in the launch's table of shared arrays, filled as the arrays are declared), a buffer
//   or symbol from the region table the runtime uploads before each launch, or a local variable
//   (not recorded). An address in none of them is kept as the launch's bad access (mapped host
//   memory, so it survives the access) and ends the run with a message naming the line.
// - A launch is run by libws_program_cuda (cuda_program.cu): a counting pass, then a recording pass
//   from the same memory (CudaBackend), decoded into the launch's records.
#pragma once

#include <cuda_runtime.h>
// Headers that declare overloads of the warp intrinsics this file makes macros of (half-precision
// shuffles): read first, so that the macros meet only the program. Cooperative groups are
// Warpscope's own (cooperative_groups.h, below), as on the emulator.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "warpscope/kernels/ws_cuda_device.h"
#include "warpscope/kernels/ws_cuda_launch.h"
#include "warpscope/trace/ws_cuda_keys.h"
#include "ws_program_cuda_api.h"

#define __CUDA_WARPSCOPE__ 1  // a program can tell it runs under Warpscope
#define WS_PROGRAM_GPU 1      // the GPU road (cooperative_groups.h)
// What the rewriter writes for device printf and clock() (the emulator's own on the emulator).
#define WS_DEVICE_PRINTF printf
#define WS_DEVICE_CLOCK clock
#define WS_DEVICE_ASSERT(e) assert(e)

// One per program (a program is one translation unit): the runtime sets it before each launch.
static __constant__ ws::prog::ProgramDeviceState ws_program_state;

namespace ws::prog {

#include "ws_program_cuda_record.h"  // an access recorded: shared, the cluster's, global

// The address of an element of any type (volatile ones too: a warp-synchronous reduction's).
template <typename T>
__host__ __device__ inline const void* AddressOf(T* p) {
  return const_cast<const void*>(static_cast<const volatile void*>(p));
}

// A tree of `ops` floating-point operations ran (the rewriter's collector_flops.cpp): the lanes
// running it together are added once, by the first of them (one atomic a warp, in the recorded
// run only; the run as written counts nothing).
__host__ __device__ inline void CountFlops(unsigned int ops) noexcept {
#if defined(__CUDA_ARCH__)
  if (ws_recorder_state.mode == ::ws::dev::kOff || ws_program_state.flops == nullptr) return;
  const unsigned int lanes = __activemask();
  if (::ws::dev::LaneId() == static_cast<unsigned int>(__ffs(lanes) - 1))
    atomicAdd(ws_program_state.flops, static_cast<unsigned long long>(ops) * __popc(lanes));
#else
  (void)ops;
#endif
}

// An element of the thread's own array indexed at run time (local memory): its offset as
// local memory interleaves it (LocalOffset in ws_cuda_keys.h), the same on both roads.
__host__ __device__ inline void RecordLocal(const void* p, unsigned int bytes, unsigned int place,
                                            unsigned int op, const void* array,
                                            unsigned int array_bytes) {
#if defined(__CUDA_ARCH__)
  if (ws_recorder_state.mode == ::ws::dev::kOff || ws_program_state.registers_only) return;
  const auto at = static_cast<unsigned int>(reinterpret_cast<unsigned long long>(p) -
                                            reinterpret_cast<unsigned long long>(array));
  const unsigned long long threads =
      static_cast<unsigned long long>(blockDim.x) * blockDim.y * blockDim.z;
  const unsigned long long thread =
      threadIdx.x + static_cast<unsigned long long>(blockDim.x) *
                        (threadIdx.y + static_cast<unsigned long long>(blockDim.y) * threadIdx.z);
  const unsigned long long block =
      blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                       (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  ::ws::dev::RecordAccess(MakeSiteKey(place, kKeyGlobal, op & ~kOpSeveral, bytes, kKeyLocalArray),
                          LocalOffset(block, threads, thread, at, bytes, array_bytes),
                          InstanceKey());
#else
  (void)p, (void)bytes, (void)place, (void)op, (void)array, (void)array_bytes;
#endif
}
template <typename T, typename A>
__host__ __device__ inline T* Ld(T* p, unsigned int place, unsigned int flags, A& array,
                                 const char* /*name*/) {
  RecordLocal(AddressOf(p), sizeof(T), place, kOpLoad | flags, AddressOf(&array), sizeof(A));
  return p;
}
template <typename T, typename A>
__host__ __device__ inline T* St(T* p, unsigned int place, unsigned int flags, A& array,
                                 const char* /*name*/) {
  RecordLocal(AddressOf(p), sizeof(T), place, kOpStore | flags, AddressOf(&array), sizeof(A));
  return p;
}
template <typename T, typename A>
__host__ __device__ inline T* LdSt(T* p, unsigned int place, unsigned int flags, A& array,
                                   const char* /*name*/) {
  RecordLocal(AddressOf(p), sizeof(T), place, kOpLoad | flags, AddressOf(&array), sizeof(A));
  RecordLocal(AddressOf(p), sizeof(T), place, kOpStore | flags, AddressOf(&array), sizeof(A));
  return p;
}
// An element's access: one, or a struct wider than 16 bytes in pieces of its alignment (16 bytes
// at most), each an access at the same site, as the emulator records it (ws_program_simt.h,
// kPieceBytes) and as nvcc moves it (an instruction a piece).
#if defined(__CUDA_ARCH__)
template <typename T>
__device__ inline void RecordPieces(T* p, unsigned int place, unsigned int op) {
  constexpr unsigned int piece =
      sizeof(T) <= 16 ? 0u : (alignof(T) < 16 ? static_cast<unsigned int>(alignof(T)) : 16u);
  if constexpr (piece == 0) {
    RecordDevice(AddressOf(p), sizeof(T), place, op);
  } else {
    for (unsigned int at = 0; at < sizeof(T); at += piece)
      RecordDevice(static_cast<const char*>(AddressOf(p)) + at, piece, place, op);
  }
}
#endif
template <typename T>
__host__ __device__ inline T* Ld(T* p, unsigned int place, unsigned int flags = 0) {
#if defined(__CUDA_ARCH__)
  RecordPieces(p, place, kOpLoad | flags);
#else
  (void)flags;
#endif
  (void)place;
  return p;
}
template <typename T>
__host__ __device__ inline T* St(T* p, unsigned int place, unsigned int flags = 0) {
#if defined(__CUDA_ARCH__)
  RecordPieces(p, place, kOpStore | flags);
#else
  (void)flags;
#endif
  (void)place;
  return p;
}
template <typename T>
__host__ __device__ inline T* LdSt(T* p, unsigned int place, unsigned int flags = 0) {
#if defined(__CUDA_ARCH__)
  RecordPieces(p, place, kOpLoad | flags);
  RecordPieces(p, place, kOpStore | flags);
#else
  (void)flags;
#endif
  (void)place;
  return p;
}
template <typename T>
__host__ __device__ inline T* At(T* p, unsigned int place, unsigned int flags = 0) {
#if defined(__CUDA_ARCH__)
  RecordDevice(AddressOf(p), sizeof(T), place, kOpAtomic | flags);
#else
  (void)flags;
#endif
  (void)place;
  return p;
}

// A __shared__ array's declaration (WS_PROGRAM_SHARED): notes the array's offset in the launch's
// table as the kernel records (every block places it at the same offset; written once).
__device__ inline void RegisterShared(const void* p, unsigned int bytes, unsigned int slot) {
#if defined(__CUDA_ARCH__)
  if (ws_recorder_state.mode == ::ws::dev::kOff || slot >= kSharedSlots) return;
  unsigned int* t = ws_program_state.shared;
  const unsigned int begin = SharedWindowOffset(p) + 1u;
  // Both words, each checked: a thread that saw another's offset before its size (two stores,
  // seen in either order on another SM) would find no array at its accesses (SharedBase), and
  // record them under array 0: a second site (seen on a public program, 13 % of its requests).
  // Whoever reads a stale word writes it itself, and then reads its own write.
  if (t[2 * slot] != begin) t[2 * slot] = begin;
  if (t[2 * slot + 1] != bytes) t[2 * slot + 1] = bytes;
  if (t[2 * kSharedSlots] <= slot) atomicMax(&t[2 * kSharedSlots], slot + 1u);  // slots in use
#else
  (void)p, (void)bytes, (void)slot;
#endif
}
template <typename T>
__device__ inline T* Dyn() {
  RegisterShared(ws_dynamic_shared, 0xffffffffu, 0);  // its size is the launch's third argument
  return reinterpret_cast<T*>(ws_dynamic_shared);
}
#define WS_PROGRAM_SHARED(name, slot) \
  ::ws::prog::RegisterShared(&(name), static_cast<unsigned int>(sizeof(name)), slot)

// The place of a barrier or warp meeting: its file's tag (computed by the compiler) and line.
#define WS_PROGRAM_PLACE                                                                   \
  (::ws::MakePlace(::std::integral_constant<unsigned int, ::ws::FileTag(__FILE__)>::value, \
                   __LINE__))
__device__ inline unsigned int Place(unsigned int place) {
  return place;
}

// Warp-level intrinsics: the real ones, and the meeting recorded (WarpOpKind numbers).
template <typename T>
__device__ inline T Shfl(unsigned int kind, unsigned int line, unsigned int mask, T var, int arg,
                         int width = 32) {
  T out = kind == 0   ? (__shfl_sync)(mask, var, arg, width)
          : kind == 1 ? (__shfl_up_sync)(mask, var, static_cast<unsigned int>(arg), width)
          : kind == 2 ? (__shfl_down_sync)(mask, var, static_cast<unsigned int>(arg), width)
                      : (__shfl_xor_sync)(mask, var, arg, width);
  ::ws::dev::RecordWarpOp(kind, Place(line), mask,
                          ShuffleSourceLane(kind, ::ws::dev::LaneId(), arg, width));
  return out;
}
__device__ inline unsigned int Vote(unsigned int kind, unsigned int line, unsigned int mask,
                                    int pred) {
  const unsigned int out = kind == 4   ? (__ballot_sync)(mask, pred)
                           : kind == 5 ? static_cast<unsigned int>((__any_sync)(mask, pred))
                                       : static_cast<unsigned int>((__all_sync)(mask, pred));
  ::ws::dev::RecordWarpOp(kind, Place(line), mask, ::ws::dev::LaneId());
  return out;
}
__device__ inline unsigned int ActiveMask(unsigned int line) {
  const unsigned int out = (__activemask)();
  ::ws::dev::RecordWarpOp(7, Place(line), out, ::ws::dev::LaneId());
  return out;
}
// The lanes of the caller's warp that exist (a block's last warp may be partial).
__device__ inline unsigned int ExistingLanes() {
  const unsigned int threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned int first =
      (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & ~31u;
  return threads - first >= 32 ? 0xffffffffu : (1u << (threads - first)) - 1u;
}
__device__ inline void SyncWarp(unsigned int line, unsigned int mask = 0xffffffffu) {
  (__syncwarp)(mask);
  ::ws::dev::RecordWarpOp(8, Place(line), mask & ExistingLanes(), ::ws::dev::LaneId(), true);
}
// __syncthreads_count and its kin: the recorded barrier, then the counting one (the same threads
// pass both, so the result is the program's).
__device__ inline int SyncCount(unsigned int line, int pred) {
  ::ws::dev::SyncThreads(Place(line));
  return (__syncthreads_count)(pred);
}

// What cooperative_groups.h calls (the emulator's are in ws_program_device.h): a place as the
// emulator's (PlaceOf), a barrier, and one warp-level meeting (kind: a WarpOpKind number) run by
// the hardware and recorded.
__host__ __device__ constexpr unsigned int PlaceOf(const char* file, unsigned int line) {
  return ::ws::MakePlace(::ws::FileTag(file), line);
}
__device__ inline void SyncThreads(unsigned int place) {
  ::ws::dev::SyncThreads(place);
}
__device__ inline unsigned long long WarpOp(unsigned int kind, unsigned int mask,
                                            unsigned long long value, int arg, int width,
                                            unsigned int place) {
  const unsigned int lane = ::ws::dev::LaneId();
  unsigned int source = lane;
  unsigned long long out = 0;
  switch (kind) {
    case 0:
    case 1:
    case 2:
    case 3:
      out = kind == 0   ? (__shfl_sync)(mask, value, arg, width)
            : kind == 1 ? (__shfl_up_sync)(mask, value, static_cast<unsigned int>(arg), width)
            : kind == 2 ? (__shfl_down_sync)(mask, value, static_cast<unsigned int>(arg), width)
                        : (__shfl_xor_sync)(mask, value, arg, width);
      source = ShuffleSourceLane(kind, lane, arg, width);
      break;
    case 4:
      out = (__ballot_sync)(mask, value != 0);
      break;
    case 5:
      out = static_cast<unsigned long long>((__any_sync)(mask, value != 0));
      break;
    case 6:
      out = static_cast<unsigned long long>((__all_sync)(mask, value != 0));
      break;
    case 7:
      out = mask = (__activemask)();
      break;
    case 8:
      (__syncwarp)(mask);
      ::ws::dev::RecordWarpOp(kind, place, mask & ExistingLanes(), lane, true);
      return 0;
    case 9:
      out = (__match_any_sync)(mask, value);
      break;
    default: {
      int same = 0;
      out = (__match_all_sync)(mask, value, &same);
      break;
    }
  }
  ::ws::dev::RecordWarpOp(kind, place, mask, source);
  return out;
}
// A value of more than 8 bytes moves 8 bytes a meeting, as on the emulator.
template <typename T>
__device__ inline T Shuffle(unsigned int kind, unsigned int mask, T var, int arg, int width,
                            unsigned int place) {
  static_assert(std::is_trivially_copyable<T>::value, "a shuffle moves a trivially copyable value");
  unsigned char bytes[sizeof(T)];
  memcpy(bytes, &var, sizeof(T));
  for (std::size_t at = 0; at < sizeof(T); at += 8) {
    unsigned long long bits = 0;
    const std::size_t n = sizeof(T) - at < 8 ? sizeof(T) - at : 8;
    memcpy(&bits, bytes + at, n);
    bits = WarpOp(kind, mask, bits, arg, width, place);
    memcpy(bytes + at, &bits, n);
  }
  T out;
  memcpy(&out, bytes, sizeof(T));
  return out;
}

// The rewriter's markers of loop iterations and calls (ws_program_instance.h): each thread's
// current instance lives in its slot of the launch's table (ProgramDeviceState::instances), and
// its accesses' events carry the key. The lanes that record an access together can be fewer than
// the lanes the uninstrumented kernel runs together (the recorder's own code keeps them apart
// after a divergent branch: Nsight Compute counted the emulator's requests, not those groups,
// in three public programs); the host joins a warp's events of one instance into one request.
__device__ inline InstanceView* ThreadInstanceView() {
  const ProgramDeviceState& s = ws_program_state;
  if (s.instances == nullptr) return nullptr;
  const unsigned long long block = blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                                                    (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned long long t = block * (blockDim.x * blockDim.y * blockDim.z) + threadIdx.x +
                               blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return t < s.instance_slots ? s.instances + t : nullptr;
}
__host__ __device__ inline InstanceView* CurrentInstanceView() {
#if defined(__CUDA_ARCH__)
  return ThreadInstanceView();
#else
  return nullptr;  // a __host__ __device__ function on the host
#endif
}

}  // namespace ws::prog
#define WS_INSTANCE_FN __host__ __device__
#include "ws_program_cuda_groups.h"    // tiles' and the grid's syncs, the device heap
#include "ws_program_cuda_textures.h"  // texture fetches with their site
#include "ws_program_heap.h"           // new, delete, malloc and free over it
#include "ws_program_instance.h"
namespace ws::prog {

// The special registers a rewritten asm statement reads (program_rewrite.cpp).
__device__ inline unsigned long long GlobalTimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ inline long long DeviceClock() {
  return clock64();
}
__device__ inline clock_t DeviceClock32() {
  return clock();
}
__device__ inline unsigned int SmId() {
  unsigned int r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ inline unsigned int LaneId() {
  unsigned int r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
__device__ inline unsigned int WarpId() {
  unsigned int r;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(r));
  return r;
}

// The launchers have internal linkage: each unit sets its own recorder and program state (a
// `static __constant__` of each unit). Shared, two units' launches of kernels of one signature
// ran one unit's instantiation, which set that unit's state only: the other unit's kernels
// recorded nothing (scan_v1.cu and scan_v2.cu of a course's scan).
namespace {
template <typename... P>
struct Launcher {
  const char* name;
  unsigned int line, static_shared;
  void (*kernel)(P...);
  Config config;
  // Each argument converted to its parameter's type where the launch is written, as a call does
  // (NULL or 0 for a pointer).
  void Run(std::decay_t<P>... args) {
    if (config.stream != 0 && Capturing(config.stream)) {  // a node of the stream's graph
      auto held = std::make_shared<std::tuple<std::decay_t<P>...>>(std::move(args)...);
      Launcher self = *this;
      self.config.stream = 0;
      CaptureLaunch(config.stream, name, [self, held]() mutable {
        std::apply([&](auto&... a) { Launcher(self).Run(a...); }, *held);
      });
      return;
    }
    std::tuple<std::decay_t<P>...> values(std::move(args)...);
    struct Context {
      void (*kernel)(P...);
      std::tuple<std::decay_t<P>...>* values;
      Config config;
    } context{kernel, &values, config};
    RunKernel(
        name, line, static_shared, config,
        [](void* c, const ::ws::dev::RecorderState& recorder,
           const ProgramDeviceState& program) -> cudaError_t {
          auto* ctx = static_cast<Context*>(c);
          cudaError_t e = cudaMemcpyToSymbol(ws_recorder_state, &recorder, sizeof(recorder));
          if (e == cudaSuccess) e = cudaMemcpyToSymbol(ws_program_state, &program, sizeof(program));
          if (e != cudaSuccess) return e;
          void* argv[sizeof...(P) + 1] = {};
          std::apply(
              [&](auto&... v) {
                std::size_t i = 0;
                ((argv[i++] = static_cast<void*>(&v)), ...);
              },
              *ctx->values);
          // The hazard pass's shadow of shared memory, past the launch's own dynamic bytes
          // (LaunchWithSharedShadow sets the kernel's limit for that launch and back).
          const void* kernel = reinterpret_cast<const void*>(ctx->kernel);
          return ::ws::LaunchWithSharedShadow(
              kernel, ctx->config.shared, recorder, [&](std::size_t shared) {
                // A cooperative launch's blocks all resident at once, this_grid().sync() among
                // them.
                // A cluster asked for by cudaLaunchKernelEx (a kernel's __cluster_dims__ is
                // its own).
                cudaLaunchAttribute cluster[1] = {};
                cluster[0].id = cudaLaunchAttributeClusterDimension;
                cluster[0].val.clusterDim.x = ctx->config.cluster.x;
                cluster[0].val.clusterDim.y = ctx->config.cluster.y;
                cluster[0].val.clusterDim.z = ctx->config.cluster.z;
                cudaLaunchConfig_t ex = {};
                ex.gridDim = ctx->config.grid;
                ex.blockDim = ctx->config.block;
                ex.dynamicSmemBytes = shared;
                ex.attrs = cluster;
                ex.numAttrs = 1;
                const cudaError_t le =
                    ctx->config.cooperative
                        ? cudaLaunchCooperativeKernel(kernel, ctx->config.grid, ctx->config.block,
                                                      argv, shared, nullptr)
                    : ctx->config.cluster.x != 0
                        ? (::cudaLaunchKernelExC)(&ex, kernel, argv)
                        : cudaLaunchKernel(kernel, ctx->config.grid, ctx->config.block, argv,
                                           shared, nullptr);
                return le != cudaSuccess ? le : cudaGetLastError();
              });
        },
        &context, /*shadow_launcher=*/true);
  }
};
// A launch written inside a function template (program_rewrite.cpp): the lambda launches the
// kernel as written (WS_KERNEL_CALL) with the running pass's configuration.
inline thread_local Config t_via_config{dim3(), dim3()};
// The kernel comes last, as written: `scale<T, 64>` holds a comma.
#define WS_KERNEL_CALL(args, ...)                                              \
  __VA_ARGS__<<<::ws::prog::t_via_config.grid, ::ws::prog::t_via_config.block, \
                ::ws::prog::t_via_config.shared>>>(args...)
template <typename Call>
struct LauncherVia {
  const char* name;
  unsigned int line;
  Call call;
  Config config;
  template <typename... A>
  void Run(A&&... args) {
    if (config.stream != 0 && Capturing(config.stream)) {  // a node of the stream's graph
      auto held = std::make_shared<std::tuple<std::decay_t<A>...>>(std::forward<A>(args)...);
      LauncherVia self = *this;
      self.config.stream = 0;
      CaptureLaunch(config.stream, name, [self, held]() mutable {
        std::apply([&](auto&... a) { LauncherVia(self).Run(a...); }, *held);
      });
      return;
    }
    std::tuple<std::decay_t<A>...> values(std::forward<A>(args)...);
    struct Context {
      Call* call;
      std::tuple<std::decay_t<A>...>* values;
      Config config;
    } context{&call, &values, config};
    RunKernel(
        name, line, 0, config,
        [](void* c, const ::ws::dev::RecorderState& recorder,
           const ProgramDeviceState& program) -> cudaError_t {
          auto* ctx = static_cast<Context*>(c);
          cudaError_t e = cudaMemcpyToSymbol(ws_recorder_state, &recorder, sizeof(recorder));
          if (e == cudaSuccess) e = cudaMemcpyToSymbol(ws_program_state, &program, sizeof(program));
          if (e != cudaSuccess) return e;
          t_via_config = ctx->config;
          ::ws::RecordPassStart();  // a timed pass starts at its kernel (ws_cuda_launch.h)
          std::apply(*ctx->call, *ctx->values);
          return cudaGetLastError();
        },
        &context);
  }
};
template <typename Call>
LauncherVia<Call> LaunchVia(const char* name, unsigned int line, Call call, Config config) {
  return LauncherVia<Call>{name, line, call, config};
}

template <typename... P>
Launcher<P...> Launch(const char* name, unsigned int line, unsigned int static_shared,
                      void (*kernel)(P...), Config config) {
  return Launcher<P...>{KernelNameOf(reinterpret_cast<const void*>(kernel), name), line,
                        static_shared, kernel, config};
}
// A launch through a pointer, or of a template's specialization inside a function template:
// its name and static shared memory looked up by address (ws_program.h's LaunchAt).
template <typename... P>
Launcher<P...> LaunchAt(const char* written, unsigned int line, void (*kernel)(P...),
                        Config config) {
  const void* k = reinterpret_cast<const void*>(kernel);
  return Launcher<P...>{KernelNameOf(k, written), line, KernelStaticShared(k), kernel, config};
}
#include "ws_program_bind.h"
}  // namespace
#undef WS_BIND_OF
#define WS_BIND_OF(...) ::ws::prog::BindOf(__VA_ARGS__)

}  // namespace ws::prog

// Cooperative groups: Warpscope's, over the calls above (its `WS_PD` functions are device code).
#define WS_PD __device__
#include "cooperative_groups.h"
#undef WS_PD

// The program's own calls that Warpscope must see (the same in its host .cpp files).
#include "ws_program_cuda_host.h"

// Barriers and warp-level intrinsics at the program's lines.
#include "ws_program_cuda_intrinsics.h"

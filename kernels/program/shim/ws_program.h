// What an ordinary CUDA program sees in place of the CUDA toolkit when Warpscope runs it on the
// CPU emulator (docs/PROGRAMS.md). Force-included (-include) before the program, in two builds:
//
// - WS_PROGRAM_PARSE: clang parses the unmodified program as CUDA (-x cuda --cuda-host-only
//   -nocudainc) to find its memory accesses and launches (program_rewrite.h); the CUDA keywords
//   are clang's attributes.
// - otherwise: the host compiler builds the rewritten program as C++ for the emulator; the
//   keywords vanish, a __shared__ variable is one per worker thread (a worker runs one block at a
//   time), and the runtime calls, launches and recorded accesses go to libws_program_emu.
//
// Self-contained (C++17) but for the emulator's ThreadState, so that it compiles fast.
#pragma once

// C++'s own headers first, as host code (constexpr functions are __host__ __device__ anyway)...
#include <array>  // <cmath> needs the algorithms' base, whose parts are defined in later headers
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>
// ...then the C library and <cmath>, which device code calls into (printf, sqrtf, clock, abs):
// on the parse, every function they declare is __host__ __device__, as the CUDA toolkit's headers
// make them. (A function declared inside the pragma and defined outside it, or the other way
// round, would clash: hence this order, and the region holds nothing else.)
#if defined(WS_PROGRAM_PARSE)
#pragma clang force_cuda_host_device begin
#endif
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#if defined(WS_PROGRAM_PARSE)
#pragma clang force_cuda_host_device end
#endif

#if defined(WS_PROGRAM_PARSE)
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define WS_PD __host__ __device__
#else
#define __global__
#define __device__
#define __host__
// 16-byte aligned, as the emulator places each static array in the block's shared memory
// (worker_sites.cpp): the address a program sees has the alignment its bank model uses. Left to
// the compiler, an array had its element's alignment (a char[3] at 8 modulo 16), and g++ gave
// one of 16 bytes or more 16 at -O1 but 8 at -O0, so that a group copy's alignment, which
// CUDA's header reads from the addresses, changed with the optimisation level.
#define __shared__ static thread_local __attribute__((aligned(16)))
#define __constant__
#define __managed__
#define WS_PD
#endif
#define __forceinline__ inline __attribute__((always_inline))
// Empty: libstdc++ writes __attribute__((__noinline__)) in its own headers, which a definition
// as an attribute would break for any header included after this one.
#define __noinline__
#define __launch_bounds__(...)
// A kernel's cluster (compute capability 9.0): the rewriter reads it from the annotation and puts
// it in the kernels' table (KernelTable::Entry::cluster).
#if defined(WS_PROGRAM_PARSE)
#define __cluster_dims__(...) __attribute__((annotate("ws_cluster_dims", __VA_ARGS__)))
#else
#define __cluster_dims__(...)
#endif
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#define CUDART_CB
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define __cudart_builtin__
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))
#define CUDART_VERSION 13000
#define __CUDA_WARPSCOPE__ 1  // a program can tell it runs on Warpscope's emulator

// What the CUDA headers define, so that code testing for them (cuda-samples' helper_cuda.h tests
// __DRIVER_TYPES_H__ and __CUDA_RUNTIME_H__) finds them; the headers themselves are this shim.
// __CUDACC__ only where nvcc defines it: a .cu unit (a .cpp beside it is the host compiler's).
#if !defined(__CUDACC__) && (defined(__CUDA__) || defined(WS_CUDA_UNIT))
#define __CUDACC__ 1
#endif
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __HOST_DEFINES_H__
#define CUDA_VERSION 13000
#define __CUDART_API_VERSION 13000

#include "ws_program_api.h"       // the runtime API: types, calls, texture objects
#include "ws_program_arrays3d.h"  // 3D, layered and cubemap arrays
#include "ws_program_graphs.h"    // CUDA graphs: stream capture and nodes
#include "ws_program_heap.h"      // the device heap: new, delete, malloc, free in device code
#include "ws_program_pools.h"     // stream-ordered allocation's memory pools

// ------------------------------------------------------------------------------------------------
// Device-side built-ins.
// ------------------------------------------------------------------------------------------------
namespace ws::prog {
// A place in the program: its file's tag (bits 16..31: a 16-bit FNV-1a hash of the file's base
// name, as ws::FileTag in ws_cuda_keys.h) and the line. Barriers and warp meetings carry one.
WS_PD constexpr unsigned int PlaceOf(const char* file, unsigned int line) {
  const char* base = file;
  for (const char* c = file; *c != '\0'; ++c) {
    if (*c == '/' || *c == '\\') base = c + 1;
  }
  unsigned int h = 2166136261u;
  for (const char* c = base; *c != '\0'; ++c) {
    h ^= static_cast<unsigned char>(*c);
    h *= 16777619u;
  }
  return ((((h >> 16) ^ h) & 0xffffu) << 16) | (line > 0xffffu ? 0xffffu : line);
}
}  // namespace ws::prog
#if defined(WS_PROGRAM_PARSE)
// The parser needs only their declarations.
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, std::size_t shared = 0,
                                                cudaStream_t stream = 0);
// What clang 14 makes of a <<<...>>> launch's configuration when it finds no CUDA toolkit (a lab
// machine with Warpscope's package and no nvcc): it then assumes a CUDA older than 9.2, which
// named it so. The rewriter reads only the configuration's text, whichever is called.
extern "C" int cudaConfigureCall(dim3 grid, dim3 block, std::size_t shared = 0,
                                 cudaStream_t stream = 0);
__device__ void __syncthreads();
// The helpers a built-in lesson's plain kernel may call (ws_cuda_arrays.h: the barrier and
// scalability lessons' modelled work, %smid, %globaltimer); read by warpscope-rewrite
// --lesson-form only, programs have no such names.
namespace ws {
__device__ void work(long long units);
__device__ unsigned int smid();
__device__ unsigned long long globaltimer();
}  // namespace ws
// The device's clocks (the emulator's are the model's cycles: docs/PROGRAMS.md).
__device__ long long clock64();
namespace ws::prog {
__device__ void SyncThreads(unsigned int place);  // what cooperative_groups.h's sync() calls
__device__ void TileSync(unsigned int threads, unsigned int place);
__device__ unsigned long long* TileSlots();
__device__ void GridSync(unsigned int place);
__device__ void ClusterSync(unsigned int place);
__device__ unsigned int ClusterRank();
__device__ dim3 ClusterDims();
__device__ void* ClusterMapShared(const void* p, unsigned int rank, unsigned int place);
__device__ unsigned int ClusterQueryRank(const void* p);
}  // namespace ws::prog
#define WS_DEVICE_PRINTF printf
#define WS_DEVICE_CLOCK clock
namespace ws::prog {
__device__ unsigned long long GlobalTimer();
__device__ unsigned int SmId();
__device__ unsigned int LaneId();
__device__ unsigned int WarpId();
}  // namespace ws::prog
#else
namespace ws::emu {
struct ThreadState;
// Initialized statically (g++'s __constinit, C++20's constinit): read without a TLS wrapper call.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 10
extern thread_local __constinit ThreadState* t_thread;
extern thread_local __constinit bool t_reads_pending;  // (emu_runtime.h)
#else
extern thread_local ThreadState* t_thread;
extern thread_local bool t_reads_pending;
#endif
}  // namespace ws::emu
namespace ws::prog {
// The running GPU thread's threadIdx, blockIdx, blockDim and gridDim (ws::emu::ThreadState's
// layout: four triples). A program's own variable of one of these names (a `dim3 blockDim` in
// main()) is renamed by the rewriter, so these macros meet only the built-ins.
inline const uint3* Builtins() {
  return reinterpret_cast<const uint3*>(::ws::emu::t_thread);
}
void SyncThreads(unsigned int place);
}  // namespace ws::prog
#define threadIdx (::ws::prog::Builtins()[0])
#define blockIdx (::ws::prog::Builtins()[1])
#define blockDim (::dim3(::ws::prog::Builtins()[2]))
#define gridDim (::dim3(::ws::prog::Builtins()[3]))
#define __syncthreads()    \
  ::ws::prog::SyncThreads( \
      ::std::integral_constant<unsigned int, ::ws::prog::PlaceOf(__FILE__, __LINE__)>::value)
// Device printf goes to the launch's buffer, printed in block order when the launch ends (the
// rewriter renames printf in device code); clock(), clock64() and %globaltimer read the
// emulator's clock: the model's cycles.
namespace ws::prog {
int DevicePrintf(const char* format, ...) __attribute__((format(printf, 1, 2)));
long long DeviceClock();
unsigned long long GlobalTimer();
unsigned int SmId();
unsigned int LaneId();
unsigned int WarpId();
inline clock_t DeviceClock32() {
  return static_cast<clock_t>(DeviceClock() & 0x7fffffff);
}
}  // namespace ws::prog
inline long long clock64() {
  return ::ws::prog::DeviceClock();
}
#define WS_DEVICE_PRINTF ::ws::prog::DevicePrintf
#define WS_DEVICE_CLOCK ::ws::prog::DeviceClock32
namespace ws::prog {
// A failed assert() in device code: the CUDA message, and the launch ends with cudaErrorAssert,
// which every later call returns (the program goes on, as on a GPU).
[[noreturn]] void DeviceAssertFail(const char* expression, const char* file, unsigned int line,
                                   const char* function);
}  // namespace ws::prog
#define WS_DEVICE_ASSERT(e) \
  (static_cast<bool>(e)     \
       ? void(0)            \
       : ::ws::prog::DeviceAssertFail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#endif
inline constexpr int warpSize = 32;

#include "ws_program_device.h"  // math, warp intrinsics, atomics

// ------------------------------------------------------------------------------------------------
// What the rewriter inserts (program_rewrite.h). Each recorded access names its site: a number
// the rewriter gave the access (bits 16..31) and its line (bits 0..15).
// ------------------------------------------------------------------------------------------------
namespace ws::prog {

enum : unsigned int { kOpLoad = 0, kOpStore = 1, kOpAtomic = 2, kOpSeveral = 8 };
// kOpSeveral: an access through a pointer the kernel read from memory (a row of an `int**`
// matrix: `d[i][j]`), marked so by the rewriter: one site over every buffer it reaches, on both
// roads, keyed by no buffer, its offsets the buffers' virtual addresses.

#if defined(WS_PROGRAM_PARSE)
template <typename T>
WS_PD T* Ld(T* p, unsigned int) {
  return p;
}
#else
// Records one access of `bytes` at `p` (runtime: classifies the address, or stops the launch
// with a message when it is in no buffer).
void Record(const void* p, unsigned int bytes, unsigned int place, unsigned int op);
void RecordLoadStore(const void* p, unsigned int bytes, unsigned int place, unsigned int flags = 0);
struct SharedSlot {
  unsigned int tag = 0, base = 0;
};
void RegisterShared(const void* p, unsigned int bytes, SharedSlot* slot, const char* name);
void* DynamicShared();
// Registers a __device__ or __constant__ variable (space: 0 global, 2 constant).
struct Symbol {
  Symbol(const void* p, std::size_t bytes, const char* name, unsigned int space);
};
struct SiteDesc {
  unsigned int site, line, column, end_column, file;  // file: index into the table's files
};
struct SiteTable {
  SiteTable(const SiteDesc* sites, unsigned int count, const char* const* files,
            unsigned int file_count);
};

}  // namespace ws::prog
#if !defined(WS_NO_SIMT)
#define WS_SIMT 1  // the rewriter's warp functions are compiled (docs/ENGINE.md)
#endif
#include "ws_program_simt.h"
static_assert(::ws::simt::kOpLoad == ::ws::prog::kOpLoad &&
              ::ws::simt::kOpStore == ::ws::prog::kOpStore &&
              ::ws::simt::kOpAtomic == ::ws::prog::kOpAtomic);
#if defined(WS_SIMT)
#define WS_SIMT_WARP(...) reinterpret_cast<const void*>(__VA_ARGS__)
#define WS_SIMT_NONE nullptr
#define WS_SIMT_VIA(...) , __VA_ARGS__  // a LaunchVia's warp call
#else
#define WS_SIMT_WARP(...) nullptr
#define WS_SIMT_VIA(...)
#define WS_SIMT_NONE \
  "the SIMT engine's rewrite of its file did not compile (the run's notes say so)"
#endif
namespace ws::prog {
// The address of an element of any type (volatile ones too: a warp-synchronous reduction's).
template <typename T>
inline const void* AddressOf(T* p) {
  return const_cast<const void*>(static_cast<const volatile void*>(p));
}
// An element's access: one, or a struct wider than 16 bytes in its pieces (ws::simt::kPieceBytes),
// each an access at the same site.
template <typename T>
inline void RecordPieces(T* p, unsigned int place, unsigned int op) {
  constexpr unsigned int piece = ::ws::simt::kPieceBytes<T>;
  if constexpr (piece == 0) {
    Record(AddressOf(p), sizeof(T), place, op);
  } else {
    for (unsigned int at = 0; at < sizeof(T); at += piece)
      Record(static_cast<const char*>(AddressOf(p)) + at, piece, place, op);
  }
}
// `flags`: kOpSeveral for a row of a T** (the rewriter writes it), else 0.
template <typename T>
inline T* Ld(T* p, unsigned int place, unsigned int flags = 0) {
  RecordPieces(p, place, kOpLoad | flags);
  return p;
}
template <typename T>
inline T* St(T* p, unsigned int place, unsigned int flags = 0) {
  RecordPieces(p, place, kOpStore | flags);
  return p;
}
template <typename T>
inline T* LdSt(T* p, unsigned int place, unsigned int flags = 0) {
  if constexpr (::ws::simt::kPieceBytes<T> == 0) {
    RecordLoadStore(AddressOf(p), sizeof(T), place, flags);
  } else {
    RecordPieces(p, place, kOpLoad | flags);
    RecordPieces(p, place, kOpStore | flags);
  }
  return p;
}
template <typename T>
inline T* At(T* p, unsigned int place, unsigned int flags = 0) {
  Record(AddressOf(p), sizeof(T), place, kOpAtomic | flags);
  return p;
}
// A kernel's own array indexed at run time (`float a[8]; a[i]`), which the compiler puts in
// local memory: the rewriter passes the array, whose size lays out the interleaving.
void RecordLocal(const void* p, unsigned int bytes, unsigned int place, unsigned int op,
                 const void* array, unsigned int array_bytes, const char* name);
template <typename T, typename A>
inline T* Ld(T* p, unsigned int place, unsigned int flags, A& array, const char* name) {
  RecordLocal(AddressOf(p), sizeof(T), place, kOpLoad | flags, AddressOf(&array), sizeof(A), name);
  return p;
}
template <typename T, typename A>
inline T* St(T* p, unsigned int place, unsigned int flags, A& array, const char* name) {
  RecordLocal(AddressOf(p), sizeof(T), place, kOpStore | flags, AddressOf(&array), sizeof(A), name);
  return p;
}
template <typename T, typename A>
inline T* LdSt(T* p, unsigned int place, unsigned int flags, A& array, const char* name) {
  RecordLocal(AddressOf(p), sizeof(T), place, kOpLoad | flags, AddressOf(&array), sizeof(A), name);
  RecordLocal(AddressOf(p), sizeof(T), place, kOpStore | flags, AddressOf(&array), sizeof(A), name);
  return p;
}
// A tree of `ops` floating-point operations ran (the rewriter's collector_flops.cpp): counted
// for the launch when its result is floating (a template's text is shared by instantiations of
// other element types, whose operations are not floating-point).
void CountFlops(unsigned int ops) noexcept;
template <typename T>
inline T* Dyn() {
  return static_cast<T*>(DynamicShared());
}
// A __shared__ array's declaration (the rewriter puts it after each): one slot per worker thread
// remembers where the running launch placed the array.
#define WS_PROGRAM_SHARED(name, slot)                                                              \
  {                                                                                                \
    static thread_local ::ws::prog::SharedSlot ws_slot;                                            \
    ::ws::prog::RegisterShared(&(name), static_cast<unsigned int>(sizeof(name)), &ws_slot, #name); \
  }

// A thread's current dynamic instance (ws_program_instance.h), kept in its worker's
// ws::emu::ThreadState.
struct InstanceView {
  void* frame;
  unsigned int instance;
};
struct ThreadView {  // ws::emu::ThreadState's layout (checked in emu_program_state.cpp)
  uint3 builtins[4];
  InstanceView view;
};
inline InstanceView* CurrentInstanceView() {
  ThreadView* t = reinterpret_cast<ThreadView*>(::ws::emu::t_thread);
  return t != nullptr ? &t->view : nullptr;  // null: a __host__ __device__ function on the host
}
}  // namespace ws::prog
#define WS_INSTANCE_FN
#include "ws_program_instance.h"
namespace ws::prog {

struct Config {
  dim3 grid, block;
  std::size_t shared;
  cudaStream_t stream;
  bool cooperative = false;  // cudaLaunchCooperativeKernel's
  dim3 cluster{0, 0, 0};     // cudaLaunchKernelEx's cluster attribute (0: the kernel's own)
  Config(dim3 g, dim3 b, std::size_t s = 0, cudaStream_t st = 0)
      : grid(g), block(b), shared(s), stream(st) {}
};
// Runs one launch (the runtime): `body` is called once per GPU thread.
// `static_shared`: the bytes of the kernel's own __shared__ arrays (the rewriter counts them).
// `warp` (may be null): the kernel's warp function, once per warp (the SIMT path), with `reason`
// why there is none (null: the kernel table's).
void RunKernel(const char* name, unsigned int line, unsigned int static_shared,
               const Config& config, void (*body)(void*), void* context,
               void (*warp)(void*, ::ws::simt::Warp&) = nullptr, const void* kernel = nullptr);
// The kernel's warp function from the kernels' table (null: none).
const void* KernelWarpOf(const void* kernel);
// Names the buffer the next cudaMalloc of this thread allocates (the rewriter puts it before
// each cudaMalloc call, with the variable it fills).
int NameNext(const char* name, unsigned int line);

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
      auto held = std::make_shared<std::tuple<std::decay_t<P>...> >(std::move(args)...);
      Launcher self = *this;
      self.config.stream = 0;
      CaptureLaunch(config.stream, name, [self, held]() mutable {
        std::apply([&](auto&... a) { Launcher(self).Run(a...); }, *held);
      });
      return;
    }
    std::tuple<std::decay_t<P>...> values(std::move(args)...);
    using Warp = void (*)(::ws::simt::Warp&, P...);
    struct Context {
      void (*kernel)(P...);
      std::tuple<std::decay_t<P>...>* values;
      Warp warp;
    } context{kernel, &values,
              reinterpret_cast<Warp>(
                  const_cast<void*>(KernelWarpOf(reinterpret_cast<const void*>(kernel))))};
    RunKernel(
        name, line, static_shared, config,
        [](void* c) {
          auto* ctx = static_cast<Context*>(c);
          std::apply(ctx->kernel, *ctx->values);  // each thread gets its own copies
        },
        &context,
        context.warp == nullptr ? nullptr
                                : +[](void* c, ::ws::simt::Warp& w) {
                                    auto* ctx = static_cast<Context*>(c);
                                    std::apply([&](auto&... a) { ctx->warp(w, a...); },
                                               *ctx->values);  // each warp its own copies
                                  },
        reinterpret_cast<const void*>(kernel));
  }
};
// A launch written inside a function template: the kernel is called from `call` with each
// thread's own copies of the arguments as given (their types, not the parameters'). With the
// kernel's warp function (the SIMT path), `warp` is called the same way; NoWarp where none.
struct NoWarp {};
template <typename Call, typename WarpCall = NoWarp>
struct LauncherVia {
  const char* name;
  unsigned int line;
  Call call;
  WarpCall warp;
  Config config;
  template <typename... A>
  void Run(A&&... args) {
    if (config.stream != 0 && Capturing(config.stream)) {  // a node of the stream's graph
      auto held = std::make_shared<std::tuple<std::decay_t<A>...> >(std::forward<A>(args)...);
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
      WarpCall* warp;
      std::tuple<std::decay_t<A>...>* values;
    } context{&call, &warp, &values};
    void (*by_warp)(void*, ::ws::simt::Warp&) = nullptr;
    if constexpr (!std::is_same_v<WarpCall, NoWarp>)
      by_warp = +[](void* c, ::ws::simt::Warp& w) {
        auto* ctx = static_cast<Context*>(c);
        std::apply([&](auto&... a) { (*ctx->warp)(w, a...); },
                   *ctx->values);  // each warp its own copies
      };
    RunKernel(
        name, line, 0, config,
        [](void* c) {
          auto* ctx = static_cast<Context*>(c);
          std::apply(*ctx->call, *ctx->values);  // by value: each thread its own copies
        },
        &context, by_warp);
  }
};
template <typename Call>
LauncherVia<Call> LaunchVia(const char* name, unsigned int line, Call call, Config config) {
  return LauncherVia<Call>{name, line, call, NoWarp{}, config};
}
template <typename Call, typename WarpCall>
LauncherVia<Call, WarpCall> LaunchVia(const char* name, unsigned int line, Call call, WarpCall warp,
                                      Config config) {
  return LauncherVia<Call, WarpCall>{name, line, call, warp, config};
}
// The call inside LaunchVia's lambda: on the emulator a kernel is a function. The kernel comes
// last, as written: `scale<T, 64>` holds a comma.
#define WS_KERNEL_CALL(args, ...) __VA_ARGS__(args...)

// Each unit's kernels by address (the rewriter registers them): the name of a launch made
// through a function pointer, and its kernel's static __shared__ bytes.
#define WS_BIND_OF(...) ::ws::prog::BindOf(__VA_ARGS__)
struct KernelTable {
  struct Entry {
    const void* address;
    const char* name;
    unsigned int static_shared = 0;
    // The SIMT path: the kernel's warp function (WS_SIMT_WARP), or null and why not.
    const void* warp = nullptr;
    const char* simt = nullptr;
    // The kernel bound to copies of arguments given as pointers (cudaLaunchKernel, a graph's
    // kernel node): BindOf(&kernel).
    Binder bind = nullptr;
    // Its __cluster_dims__(x, y, z), as x | y << 8 | z << 16 (0: none).
    unsigned int cluster = 0;
  };
  KernelTable(std::initializer_list<Entry> entries);
};
const char* KernelNameOf(const void* kernel, const char* written);
unsigned int KernelStaticShared(const void* kernel);  // 0 where the table lacks it

template <typename... P>
Launcher<P...> Launch(const char* name, unsigned int line, unsigned int static_shared,
                      void (*kernel)(P...), Config config) {
  return Launcher<P...>{KernelNameOf(reinterpret_cast<const void*>(kernel), name), line,
                        static_shared, kernel, config};
}
// A launch through a pointer, or of a template's specialization inside a function template
// (`scale<T, 64>`: another kernel in each instantiation): its name and static shared memory
// are looked up by address.
template <typename... P>
Launcher<P...> LaunchAt(const char* written, unsigned int line, void (*kernel)(P...),
                        Config config) {
  const void* k = reinterpret_cast<const void*>(kernel);
  return Launcher<P...>{KernelNameOf(k, written), line, KernelStaticShared(k), kernel, config};
}
#include "ws_program_bind.h"
#endif

}  // namespace ws::prog

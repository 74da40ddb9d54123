// The SIMT path's side of a rewritten program on the emulator (docs/ENGINE.md, "The SIMT
// engine"): what a kernel's *warp function* calls. The rewriter (collector_simt.cpp) emits, beside
// each kernel it can, a copy that runs a whole warp: each of the thread's variables becomes a
// Lanes<T> (32 values), control flow runs under the warp's active-lane mask (both sides of a
// divergent `if`, a loop while any lane goes on; break, continue and return take lanes out), and
// each simple statement runs once per active lane, in lane order (WS_SIMT_LANES). An access in
// that statement puts its lane's address into one of the warp's slots; after the statement each
// slot with lanes is one warp request (Flush), classified, keyed and costed once.
//
// Part of ws_program.h (emulator build only), and of the lessons' warp functions on the emulator
// (warpscope/kernels/lesson_simt.h, which the build copies this file beside). The runtime is the
// emulator's (kernels/emu/simt_runtime.cpp); what an address is (which array, which site) is the
// caller's: a program's buffers or a lesson's (Classifier).
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <type_traits>

namespace ws::emu {
struct ThreadState;
struct WarpLanes;
}  // namespace ws::emu

namespace ws::simt {

using Mask = unsigned int;
// An access's operation (ws::prog::kOpLoad & co., MakeSiteKey's op).
inline constexpr unsigned int kOpLoad = 0u, kOpStore = 1u, kOpAtomic = 2u;

// A thread's variable, one per lane.
template <typename T>
struct Lanes {
  T v[32];
  T& operator[](int l) { return v[l]; }
  const T& operator[](int l) const { return v[l]; }
};

// An access of a struct wider than 16 bytes is recorded in pieces of the struct's alignment (16
// bytes at most), each an access of its own, a request a warp (FlushSlot; ws::prog::RecordPieces):
// a model of how nvcc moves it, an instruction a piece (a whole copy of a 24-byte struct of floats
// is six 4-byte loads in its PTX; a 48-byte curandState, aligned to 8, is five 8-byte pieces and
// one of 4, field by field; fields a kernel never reads are not loaded at all). 0: the access is
// one (16 bytes or fewer, the widest one instruction moves).
template <typename T>
inline constexpr unsigned int kPieceBytes =
    sizeof(T) <= 16 ? 0u : (alignof(T) < 16 ? static_cast<unsigned int>(alignof(T)) : 16u);

// One access expression of the running statement: its lanes' addresses, times and values.
struct Slot {
  const void* ptr[32];
  std::uint32_t time[32];
  std::uint64_t value[32];
  Mask mask;
  unsigned int place, op, bytes;
  unsigned int piece;  // kPieceBytes of the access's type
};
inline constexpr unsigned int kMaxSlots = 32;
// A load's flag: its statement stores nothing (and calls nothing that may), so its lanes' values
// are read from memory when the request is formed, not by each lane (FlushSlot).
inline constexpr unsigned int kLater = 16u;
// An access's flag: every running lane makes it (it is in no arm of `?:`, no right side of `&&`
// or `||`): its slot's lanes are the warp's, set by the first lane (Access).
inline constexpr unsigned int kAlways = 32u;
// A slot's flag: a texture fetch's texel (TexLane), keyed in the texture space.
inline constexpr unsigned int kTexture = 64u;

// Where an address falls: in a recorded array (its site's key, its offset there, and the range in
// which the same key holds with offsets that step with the address), in the thread's own
// variables (not recorded), or nowhere (the launch stops).
enum class Where { kRecorded, kOwnVariable, kNowhere };
struct Classified {
  Where where = Where::kNowhere;
  std::uint64_t key = 0;
  std::uint32_t offset = 0;
  std::uintptr_t lo = 0, hi = 0;  // a shared array's accesses need only start in [lo, hi)
  bool shared = false;
};
// The caller's arrays: `classify` an access of `bytes` at a place with an op; `fail` stops the
// running lane's thread with the message of one that falls nowhere.
// `buffer`: the id of the global buffer an address is in (a site key's array), ~0u if none.
struct Classifier {
  Classified (*classify)(const void* p, unsigned int bytes, unsigned int place, unsigned int op);
  void (*fail)(const void* p, unsigned int bytes, unsigned int place, unsigned int op);
  std::uint32_t (*buffer)(const void* p);
};

// A warp as its warp function runs it.
struct Warp {
  Mask mask = 0;             // the lanes running now
  Mask live = 0;             // the lanes the warp has
  Mask ret = 0;              // lanes that returned (they run no more of the kernel)
  Mask fret = 0;             // lanes that returned from the __device__ function running now
  Mask brk = 0;              // lanes that left the innermost loop by `break`
  Mask cont = 0;             // lanes that left this step of the innermost loop by `continue`
  bool values = false;       // the slots carry values (the race check or a kept block wants them)
  bool keep_values = false;  // this statement's loads keep their values (Unseen)
  std::uint32_t warp = 0;
  std::uint32_t tag = 0;              // the launch's (what an access's array range was checked in)
  ::ws::emu::ThreadState* state[32];  // each lane's threadIdx & co. (t_thread in its turn)
  std::uint32_t clk[32];              // each lane's clock: one tick per access
  std::uint32_t* clock[32];           // where the emulator keeps it (synced at barriers and calls)
  std::uint64_t flops = 0;  // the warp's floating-point operations (the rewriter's counts)
  const Classifier* classifier = nullptr;  // the program's or the lesson's arrays
  Slot slot[kMaxSlots];
  Mask Off() const { return ret | fret | brk | cont; }
};

// The runtime (kernels/emu/simt_runtime.cpp).
// Runs `fn(context, warp)`, a warp function, for the emulator's warp `lanes` (LaunchConfig::
// warp_body), its addresses classified by `classifier`; returns the floating-point operations
// it counted.
std::uint64_t RunWarp(const ::ws::emu::WarpLanes& lanes, const Classifier* classifier,
                      void (*fn)(void*, Warp&), void* context);
void FlushSlots(Warp& w, unsigned int n);  // each slot with lanes: one request
// Before a store: the shared loads kept without their values read them now (t_reads_pending).
void ReadValues();
// Before a statement that may write memory the recording does not see (a call given a pointer or
// a reference: memcpy, sincosf's outputs): the same, and this statement's loads keep their values.
inline void Unseen(Warp& w) {
  if (::ws::emu::t_reads_pending) ReadValues();
  w.keep_values = true;
}
void Barrier(Warp& w, unsigned int place);
// A kernel's first statement where it only reads through some of its pointer parameters (the
// rewriter's OnlyReadParams): the buffers `read` points into and no parameter of `written` does
// need no log of their loads for the race check (docs/ENGINE.md, "A buffer only read"). Once
// per launch on each worker.
void OnlyRead(Warp& w, std::initializer_list<const void*> read,
              std::initializer_list<const void*> written);
// A parameter's value as OnlyRead takes it (a template's parameter may be no pointer: null).
template <typename T>
const void* PtrOf(const T& v) {
  if constexpr (std::is_pointer_v<T> && std::is_object_v<std::remove_pointer_t<T>>)
    return const_cast<const void*>(static_cast<const volatile void*>(v));
  else
    return nullptr;
}

// Where an access at one place last fell, checked (per worker thread): a lane's address inside
// it needs no check before the lane dereferences it; any other is checked at once (CheckLane:
// an address in nothing stops the launch, as the per-thread path stops it, before it is read).
struct Range {
  std::uintptr_t lo = 0, span = 0;  // addresses lo .. lo + span start an access inside
  std::uint32_t tag = 0;
};
// (By place and slot, as a lesson's place is its line, which accesses of a statement share.)
template <unsigned int Place>
inline thread_local Range t_range[4];
// A statement's copy of its slot's range, made before its lanes run (the rewriter declares one
// for each slot: `[[maybe_unused]] ::ws::simt::Bounds ws_b0 = ::ws::simt::BoundsOf<PLACE>(ws_W,
// 0u);`, unused where a hoisted call took its access): a local
// the lanes' checks read from registers, where the range's own fields, in thread-local storage,
// were loaded again for each lane after each store of the lane's slot (a sixth of matmul naive's
// run). Empty: only the address of kNoBounds would pass, which no kernel can name.
struct Bounds {
  std::uintptr_t lo, span;
};
inline constexpr char kNoBounds = 0;
inline Bounds NoBounds() {
  return {reinterpret_cast<std::uintptr_t>(&kNoBounds), 0};
}
template <unsigned int Place>
inline Bounds BoundsOf(const Warp& w, unsigned int k) {
  const Range& r = t_range<Place>[k & 3u];
  return r.tag == w.tag ? Bounds{r.lo, r.span} : NoBounds();
}
// A lane's address outside its slot's bounds, checked (an address in nothing stops the launch);
// the bounds of the array it falls in from here on (and the place's range), else NoBounds.
Bounds CheckLane(Warp& w, int lane, const void* p, unsigned int bytes, unsigned int place,
                 unsigned int op, Range* range);
// A texture fetch in a warp function (tex2D and kin, the shim's, which find the texel): the lane's
// texel goes into slot k of the statement (TakeTexel, from the shim's RecordTexture) rather than
// into the thread's record. Before the fetch: `(TexLane(w, l, k), tex2D<T>(t, x, y, place))`.
struct TexTarget {
  Warp* w = nullptr;
  int lane = 0;
  unsigned int k = 0;
};
extern thread_local TexTarget t_tex;
inline int TexLane(Warp& w, int l, unsigned int k) {
  t_tex = {&w, l, k};
  return 0;
}
// The running warp function's fetch of `texel` (a texture's memory, checked), into its slot;
// false where no warp function fetches (the per-thread path records it).
bool TakeTexel(const void* texel, unsigned int bytes, unsigned int place);
// The same where the fetch is recorded at another address than its texel's (a lesson's texture
// under a layout: `at`, within the bytes the layout spans; its value read at `texel`).
bool TakeTexelAt(const void* at, const void* texel, unsigned int bytes, unsigned int place);
void Return(Warp& w);               // the running lanes leave the kernel
void EnterLane(Warp& w, int lane);  // a call that reads the thread (printf, clock64, assert)
void LeaveLanes(Warp& w);

template <typename T>
inline std::uint64_t Bits(const T* p) {
  constexpr std::size_t n = sizeof(T) < 8 ? sizeof(T) : 8;
  std::uint64_t v = 0;
  std::memcpy(&v, const_cast<const void*>(static_cast<const volatile void*>(p)), n);
  return v;
}

// The `bytes` (at most 8) at `p` as a number, read in one load of its size: a memcpy of a
// variable size wrote them to the stack in pieces and read them back whole, a store the
// processor cannot forward (a third of a transpose's warp function).
inline std::uint64_t ValueAt(const void* p, unsigned int bytes) {
  // (The address is passed through an empty asm: GCC 13, inlining this where it sees the object,
  // a float, would otherwise warn that the 8-byte case's load, which that slot never takes,
  // reads past it.)
  asm("" : "+r"(p));
  switch (bytes) {
    case 4: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case 8: {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
    case 2: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 1:
      return *static_cast<const unsigned char*>(p);
    default: {
      std::uint64_t v = 0;
      std::memcpy(&v, p, bytes < 8 ? bytes : 8);
      return v;
    }
  }
}

template <unsigned int Place, unsigned int Op, typename T>
inline T* Access(Warp& w, int l, unsigned int k, Bounds& b, T* p) {
  const void* at = const_cast<const void*>(static_cast<const volatile void*>(p));
  if (reinterpret_cast<std::uintptr_t>(at) - b.lo > b.span) [[unlikely]]
    b = CheckLane(w, l, at, static_cast<unsigned int>(sizeof(T)), Place, Op & ~(kLater | kAlways),
                  &t_range<Place>[k & 3u]);
  if constexpr ((Op & 3u) != 0u) {
    if (::ws::emu::t_reads_pending) [[unlikely]]
      ReadValues();
  }
  Slot& s = w.slot[k];
  s.ptr[l] = at;
  s.time[l] = w.clk[l]++;
  if constexpr ((Op & kAlways) != 0u) {
    if (s.mask == 0u) [[unlikely]] {  // the first lane: every running lane will make it
      s.mask = w.mask;
      s.place = Place;
      s.op = Op & ~kAlways;
      s.bytes = static_cast<unsigned int>(sizeof(T));
      s.piece = kPieceBytes<T>;
    }
  } else {
    s.mask |= 1u << l;
    s.place = Place;
    s.op = Op;
    s.bytes = static_cast<unsigned int>(sizeof(T));
    s.piece = kPieceBytes<T>;
  }
  if constexpr ((Op & 3u) == 0u && (Op & kLater) == 0u) {
    if (w.values) s.value[l] = Bits(p);  // a load's value now
  }
  return p;
}
template <unsigned int Place, unsigned int Flags = 0, typename T>
inline T* Ld(Warp& w, int l, unsigned int k, Bounds& b, T* p) {
  return Access<Place, kOpLoad | Flags>(w, l, k, b, p);
}
template <unsigned int Place, unsigned int Flags = 0, typename T>
inline T* St(Warp& w, int l, unsigned int k, Bounds& b, T* p) {
  return Access<Place, kOpStore | Flags>(w, l, k, b, p);
}
template <unsigned int Place, unsigned int Flags = 0, typename T>
inline T* At(Warp& w, int l, unsigned int k, Bounds& b, T* p) {
  return Access<Place, kOpAtomic | Flags>(w, l, k, b, p);
}
// `a[i] += v`: a load (slot k) and a store (slot k + 1), at one address: one slot's bounds.
template <unsigned int Place, unsigned int Flags = 0, typename T>
inline T* LdSt(Warp& w, int l, unsigned int k, Bounds& b, T* p) {
  Access<Place, kOpLoad | Flags>(w, l, k, b, p);
  return Access<Place, kOpStore | Flags>(w, l, k + 1, b, p);
}

// After a lane's turn at a statement: the values its stores and atomics left.
inline void AfterLane(Warp& w, int l, unsigned int n) {
  for (unsigned int k = 0; k < n; ++k) {
    Slot& s = w.slot[k];
    if ((s.mask >> l & 1u) == 0u || (s.op & 3u) == 0u) continue;
    s.value[l] = ValueAt(s.ptr[l], s.bytes);
  }
}

// A variable's lane value from the lane's own declaration (arrays too).
template <typename T, typename U>
inline void Put(T& to, const U& from) {
  if constexpr (std::is_array_v<T>)
    std::memcpy(&to, const_cast<const void*>(static_cast<const volatile void*>(&from)), sizeof(T));
  else
    to = from;
}

// `if (c) A else B` under the mask: A with the lanes where c holds, B with the others.
struct If {
  Warp& w;
  Mask saved, cond;
  If(Warp& warp, Mask c) : w(warp), saved(warp.mask), cond(c) { w.mask = saved & c; }
  bool Then() const { return w.mask != 0; }
  bool Else() {
    w.mask = saved & ~cond & ~w.Off();
    return w.mask != 0;
  }
  ~If() { w.mask = saved & ~w.Off(); }
  If(const If&) = delete;
  If& operator=(const If&) = delete;
};

// A loop under the mask: a step runs while any lane goes on; `continue` lanes come back for the
// next step, `break` lanes at the loop's end.
struct Loop {
  Warp& w;
  Mask saved, run, outer_brk, outer_cont;
  explicit Loop(Warp& warp)
      : w(warp), saved(warp.mask), run(warp.mask), outer_brk(warp.brk), outer_cont(warp.cont) {
    w.brk = 0;
    w.cont = 0;
  }
  bool Cond(Mask c) {  // the lanes whose condition holds go on; the rest are done
    run = c;
    w.mask = c;
    return c != 0;
  }
  void Next() {  // the step's end: `continue` lanes back
    w.cont = 0;
    w.mask = run & ~w.ret & ~w.brk;
    run = w.mask;
  }
  ~Loop() {
    w.brk = outer_brk;
    w.cont = outer_cont;
    w.mask = saved & ~w.Off();
  }
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;
};

// A warp-level intrinsic (__shfl_*_sync, a vote, __syncwarp, __reduce_*_sync) in a warp function:
// each running lane's call is noted (the shim's intrinsic runs as written, its WarpOp noting
// instead of waiting), the lanes meet as on the per-thread path (the same groups, records,
// clocks and errors: Meet), then each lane's call runs again and takes its result.
struct WarpCall {
  Warp& w;
  bool noting = true;
  explicit WarpCall(Warp& warp);
  ~WarpCall();
  void Meet();
  WarpCall(const WarpCall&) = delete;
  WarpCall& operator=(const WarpCall&) = delete;
};
extern thread_local WarpCall* t_warp_call;
// The warp whose warp function runs on this worker (RunWarp), else null.
extern thread_local Warp* t_warp;

// A __device__ function's warp function: its own return, break and continue lanes; the lanes
// that called it run on after it but for those that left the kernel in it (none can: a return
// leaves the function only).
struct Frame {
  Warp& w;
  Mask saved, fret, brk, cont;
  explicit Frame(Warp& warp)
      : w(warp), saved(warp.mask), fret(warp.fret), brk(warp.brk), cont(warp.cont) {
    w.fret = 0;
    w.brk = 0;
    w.cont = 0;
  }
  ~Frame() {
    w.fret = fret;
    w.brk = brk;
    w.cont = cont;
    w.mask = saved & ~w.ret;
  }
  Frame(const Frame&) = delete;
  Frame& operator=(const Frame&) = delete;
};
inline void FnReturn(Warp& w) {
  w.fret |= w.mask;
  w.mask = 0;
}

inline void Break(Warp& w) {
  w.brk |= w.mask;
  w.mask = 0;
}
inline void Continue(Warp& w) {
  w.cont |= w.mask;
  w.mask = 0;
}

}  // namespace ws::simt

// A statement once per running lane, in lane order (threadIdx reads the lane's: t_thread); then
// its slots become requests.
#define WS_SIMT_LANES(W)                                                  \
  for (::ws::simt::Mask ws_m = (W).mask; ws_m != 0u; ws_m &= ws_m - 1u) { \
    const int ws_l = __builtin_ctz(ws_m);                                 \
    ::ws::emu::t_thread = (W).state[ws_l];
// The same for a statement that reads nothing of the running thread (no threadIdx & co., no
// call): its lanes run without each becoming the running thread.
#define WS_SIMT_LANES_NO_THREAD(W)                                        \
  for (::ws::simt::Mask ws_m = (W).mask; ws_m != 0u; ws_m &= ws_m - 1u) { \
    const int ws_l = __builtin_ctz(ws_m);
// A uniform statement (collector_simt_uniform.cpp), once for the warp where any lane runs:
// blockIdx, blockDim and gridDim read any of its lanes'. A uniform declaration: WS_SIMT_AT.
#define WS_SIMT_AT(W) ::ws::emu::t_thread = (W).state[__builtin_ctz((W).live)];
#define WS_SIMT_ONCE(W) \
  if ((W).mask != 0u && (::ws::emu::t_thread = (W).state[__builtin_ctz((W).live)], true))
// assert() in a warp function: the kernel's name, as the per-thread path's message has it.
#define WS_SIMT_ASSERT(e) \
  (static_cast<bool>(e) ? void(0) : ::ws::prog::DeviceAssertFail(#e, __FILE__, __LINE__, ws_pretty))
#define WS_SIMT_END(W, N) \
  }                       \
  if ((N) > 0u) ::ws::simt::FlushSlots(W, N);
// The same, for a statement that stores: each lane's stored values read after its turn.
#define WS_SIMT_END_W(W, N)                          \
  if ((W).values) ::ws::simt::AfterLane(W, ws_l, N); \
  }                                                  \
  ::ws::simt::FlushSlots(W, N);
// The same, for a statement that calls something that reads the running thread.
#define WS_SIMT_LANES_CTX(W) WS_SIMT_LANES(W)::ws::simt::EnterLane(W, ws_l);
#define WS_SIMT_END_CTX(W, N) \
  WS_SIMT_END(W, N)           \
  ::ws::simt::LeaveLanes(W);
#define WS_SIMT_END_W_CTX(W, N) \
  WS_SIMT_END_W(W, N)           \
  ::ws::simt::LeaveLanes(W);

// The SIMT path's runtime (ws_program_simt.h; docs/ENGINE.md, "The SIMT engine"), for a
// program's warp functions and a lesson's alike: a warp function's requests (one per access of a
// statement: classified once, by the caller's Classifier, where every lane falls in one array),
// its checks, barriers, exits and warp-level meetings.
#include <cstdint>

#include "warpscope/kernels/emu_runtime.h"
#include "warpscope/kernels/ws_program_simt.h"

namespace ws::simt {
namespace {

// One slot's lanes: where every lane falls in the array of the first (the common case), one
// request, classified once; else lane by lane, one request per site key (lanes in different
// buffers are different sites, as on the per-thread path).
// The last array each access met (by its place), for this launch: a request whose lanes all fall
// in it needs no classification.
struct SeenArray {
  std::uint32_t tag = 0, place = 0, slot = 0, op = 0, bytes = 0;
  std::uintptr_t lo = 0, span = 0;  // accesses start at lo .. lo + span inside it
  std::uint64_t key = 0;
  std::uint32_t offset_at_lo = 0;
};
thread_local SeenArray t_seen[256];

// Whether every lane of `mask` starts an access inside [lo, lo + span] (span: the last such
// address less lo), with each lane's offset (`at_lo` at lo). Without branches: for a whole warp a
// loop the compiler vectorizes, else the lanes one by one.
bool Inside(const Slot& s, Mask mask, std::uintptr_t lo, std::uintptr_t span, std::uint32_t at_lo,
            std::uint32_t (&offsets)[32]) {
  std::uintptr_t outside = 0;
  if (mask == ~0u) {
    for (int l = 0; l < 32; ++l) {
      const std::uintptr_t d = reinterpret_cast<std::uintptr_t>(s.ptr[l]) - lo;
      outside |= static_cast<std::uintptr_t>(d > span);
      offsets[l] = at_lo + static_cast<std::uint32_t>(d);
    }
    return outside == 0;
  }
  for (Mask m = mask; m != 0; m &= m - 1) {
    const int l = __builtin_ctz(m);
    const std::uintptr_t d = reinterpret_cast<std::uintptr_t>(s.ptr[l]) - lo;
    outside |= static_cast<std::uintptr_t>(d > span);
    offsets[l] = at_lo + static_cast<std::uint32_t>(d);
  }
  return outside == 0;
}

// Whether a whole warp's lanes lie in rows of `group` lanes (32, 16, 8, 4 or 2): lane l at
// ptr[0] + (l / group) * delta + (l % group) * step, a step and a delta under 64 MiB either way
// (so that no lane wraps round). 32: consecutive, broadcast and strided requests; fewer: a 2D
// block's rows of blockDim.x threads (a 16 x 16 block's warp reads two rows).
bool Rows(const Slot& s, std::intptr_t* step, std::intptr_t* delta, std::uint32_t* group) {
  const auto p0 = reinterpret_cast<std::uintptr_t>(s.ptr[0]);
  const std::uintptr_t d = reinterpret_cast<std::uintptr_t>(s.ptr[1]) - p0;
  // The row's length: the first power of two at which the step breaks (a break elsewhere is no
  // row at all, which the check below finds).
  std::uint32_t g = 32;
  for (std::uint32_t p = 2; p < 32; p *= 2) {
    if (reinterpret_cast<std::uintptr_t>(s.ptr[p]) -
            reinterpret_cast<std::uintptr_t>(s.ptr[p - 1]) !=
        d) {
      g = p;
      break;
    }
  }
  const std::uintptr_t r = reinterpret_cast<std::uintptr_t>(s.ptr[g % 32]) - p0;  // (32: none)
  // Lane to lane: `d` within a row, `jump` from a row's last lane to the next row's first.
  const std::uintptr_t jump = r - (g - 1) * d;
  std::uintptr_t off = 0;
  for (std::uint32_t l = 1; l < 32; ++l)  // a loop the compiler vectorizes
    off |= (reinterpret_cast<std::uintptr_t>(s.ptr[l]) -
            reinterpret_cast<std::uintptr_t>(s.ptr[l - 1])) ^
           ((l & (g - 1)) == 0 ? jump : d);
  *step = static_cast<std::intptr_t>(d);
  *delta = g == 32 ? 0 : static_cast<std::intptr_t>(r);
  *group = g;
  constexpr std::intptr_t kMost = std::intptr_t{1} << 26;
  return off == 0 && *step > -kMost && *step<kMost&& * delta> - kMost && *delta < kMost;
}

// The last address less lo at which an access of `bytes` starts inside [lo, hi) (a shared
// array's need only start in it, as Record has always checked them); ~0: none.
std::uintptr_t SpanOf(std::uintptr_t lo, std::uintptr_t hi, unsigned int bytes, bool shared) {
  const std::uintptr_t last = shared ? hi - 1 : hi - bytes;
  return hi > lo && last >= lo && last < hi ? last - lo : ~std::uintptr_t{0};
}

// `loads_alone`: the statement stores nothing, so its loads may be kept without their values
// (RecordWarpAccess reads them later).
// `k`: the slot's number (a piece's: its own, past the slots'), which keys the classification's
// cache with its place.
void FlushSlot(Warp& w, Slot& s, bool loads_alone, std::uint32_t k) {
  if (s.piece != 0 && s.piece < s.bytes) [[unlikely]] {
    // A struct wider than 16 bytes (kPieceBytes): a request a piece, in the struct's order, each
    // lane's value the piece's, read where the statement left memory (a load's as kLater reads
    // them, a store's as AfterLane would): in a statement that also stores there (`a[i] = a[j]`
    // of such structs) the race check may see a load's value after the store, and lanes storing
    // to one place the last lane's. Requests and sectors are not touched by it.
    Slot part = s;
    part.piece = 0;
    part.bytes = s.piece;
    part.op = s.op | (((s.op & 3u) == kOpLoad) ? kLater : 0u);
    for (unsigned int at = 0; at < s.bytes; at += s.piece) {
      part.mask = s.mask;
      for (Mask m = s.mask; m != 0; m &= m - 1) {
        const int l = __builtin_ctz(m);
        part.ptr[l] = static_cast<const char*>(s.ptr[l]) + at;
        if (w.values && (part.op & kLater) == 0) part.value[l] = ValueAt(part.ptr[l], part.bytes);
      }
      FlushSlot(w, part, loads_alone, k + (at / s.piece + 1) * kMaxSlots);
    }
    s.mask = 0;
    return;
  }
  const Mask mask = s.mask;
  s.mask = 0;
  const bool later = (s.op & kLater) != 0;  // its lanes' values are read now, from s.ptr
  const unsigned int op = s.op & ~kLater, bytes = s.bytes, place = s.place;
  const std::uint64_t* values = w.values && !later ? s.value : nullptr;
  const void* const* ptrs = loads_alone || (later && w.values) ? s.ptr : nullptr;
  const int l0 = __builtin_ctz(mask);
  std::uint32_t offsets[32];
  const std::uint32_t tag = w.tag;  // the launch's (emu::CurrentLaunchTag())
  // By place and slot: a lesson's place is its line, which two accesses of a statement share.
  SeenArray& seen = t_seen[((place + k) * 0x9e3779b9u) >> 24];
  const bool known = seen.tag == tag && seen.place == place && seen.slot == k && seen.op == op &&
                     seen.bytes == bytes && seen.span != ~std::uintptr_t{0};
  std::intptr_t step = 0, delta = 0;
  std::uint32_t row = 0;
  if (known && mask == ~0u && Rows(s, &step, &delta, &row)) {
    // Every lane lies between the rows' corners (the first and last lanes of the first and the
    // last row): those four alone are checked.
    const std::uintptr_t d0 = reinterpret_cast<std::uintptr_t>(s.ptr[0]) - seen.lo;
    bool inside = true;
    for (const std::uint32_t l : {0u, row - 1, 32 - row, 31u})
      inside = inside && reinterpret_cast<std::uintptr_t>(s.ptr[l]) - seen.lo <= seen.span;
    if (inside) {
      emu::RecordWarpAffine(seen.key, seen.offset_at_lo + static_cast<std::uint32_t>(d0),
                            static_cast<std::int32_t>(step), static_cast<std::int32_t>(delta), row,
                            s.time, values, ptrs);
      return;
    }
  }
  if (known && Inside(s, mask, seen.lo, seen.span, seen.offset_at_lo, offsets)) {
    emu::RecordWarpAccess(seen.key, mask, offsets, s.time, values, ptrs);
    return;
  }
  seen.tag = 0;  // met elsewhere: classified again
  const Classified c0 = w.classifier->classify(s.ptr[l0], bytes, place, op);
  if (c0.where == Where::kRecorded) {
    const std::uintptr_t a0 = reinterpret_cast<std::uintptr_t>(s.ptr[l0]);
    const std::uint32_t at_lo = c0.offset - static_cast<std::uint32_t>(a0 - c0.lo);
    const std::uintptr_t span = SpanOf(c0.lo, c0.hi, bytes, c0.shared);
    if (span != ~std::uintptr_t{0} && Inside(s, mask, c0.lo, span, at_lo, offsets)) {
      seen = {tag, place, k, op, bytes, c0.lo, span, c0.key, at_lo};
      emu::RecordWarpAccess(c0.key, mask, offsets, s.time, values, ptrs);
      return;
    }
  }
  std::uint64_t keys[32];
  Mask recorded = 0;
  for (Mask m = mask; m != 0; m &= m - 1) {
    const int l = __builtin_ctz(m);
    const Classified c = w.classifier->classify(s.ptr[l], bytes, place, op);
    if (c.where == Where::kNowhere) {
      emu::EnterLane(l);
      w.classifier->fail(s.ptr[l], bytes, place, op);
    }
    if (c.where != Where::kRecorded) continue;
    keys[l] = c.key;
    offsets[l] = c.offset;
    recorded |= 1u << l;
  }
  if (later && w.values) {
    for (Mask m = recorded; m != 0; m &= m - 1) {
      const int l = __builtin_ctz(m);
      s.value[l] = ValueAt(s.ptr[l], bytes);
    }
    values = s.value;
  }
  while (recorded != 0) {  // one request per key, in the order of their first lanes
    const std::uint64_t key = keys[__builtin_ctz(recorded)];
    Mask group = 0;
    for (Mask m = recorded; m != 0; m &= m - 1) {
      const int l = __builtin_ctz(m);
      if (keys[l] == key) group |= 1u << l;
    }
    emu::RecordWarpAccess(key, group, offsets, s.time, values);
    recorded &= ~group;
  }
}
}  // namespace

Bounds CheckLane(Warp& w, int lane, const void* p, unsigned int bytes, unsigned int place,
                 unsigned int op, Range* range) {
  const Classified c = w.classifier->classify(p, bytes, place, op);
  if (c.where == Where::kNowhere) {
    *w.clock[lane] = w.clk[lane];
    emu::EnterLane(lane);
    w.classifier->fail(p, bytes, place, op);
  }
  if (c.where == Where::kRecorded) {  // the array's addresses from here on need no check
    const std::uintptr_t last = c.shared ? c.hi - 1 : c.hi - bytes;
    if (last >= c.lo) {
      *range = {c.lo, last - c.lo, w.tag};
      return {c.lo, last - c.lo};
    }
  }
  return NoBounds();  // (a lane's own variable: checked each time)
}

std::uint64_t RunWarp(const emu::WarpLanes& lanes, const Classifier* classifier,
                      void (*fn)(void*, Warp&), void* context) {
  Warp w;
  w.mask = w.live = lanes.live;
  w.values = lanes.values;
  w.tag = emu::CurrentLaunchTag();
  w.warp = lanes.warp;
  w.classifier = classifier;
  for (int l = 0; l < 32; ++l) {
    w.slot[l].mask = 0;
    if ((lanes.live >> l & 1u) == 0u) continue;
    w.state[l] = const_cast<emu::ThreadState*>(lanes.state[l]);
    w.clock[l] = lanes.clock[l];
    w.clk[l] = *lanes.clock[l];
  }
  t_warp = &w;
  fn(context, w);
  t_warp = nullptr;
  for (Mask m = w.live; m != 0; m &= m - 1) {
    const int l = __builtin_ctz(m);
    *w.clock[l] = w.clk[l];
  }
  return w.flops;
}

void FlushSlots(Warp& w, unsigned int n) {
  bool stores = false;
  for (unsigned int k = 0; k < n; ++k)
    stores = stores || (w.slot[k].mask != 0 && (w.slot[k].op & 3u) != 0);
  const bool alone = !stores && !w.keep_values;
  w.keep_values = false;
  for (unsigned int k = 0; k < n; ++k) {
    if (w.slot[k].mask != 0) FlushSlot(w, w.slot[k], alone, k);
  }
}

void ReadValues() {
  emu::SimtReadValues();
}

void Barrier(Warp& w, unsigned int place) {
  for (Mask m = w.live; m != 0; m &= m - 1) {
    const int l = __builtin_ctz(m);
    *w.clock[l] = w.clk[l];
  }
  const bool passed = emu::WarpBarrier(w.mask, place);
  t_warp = &w;  // (the other warps ran on this worker meanwhile)
  if (!passed) {
    // Lanes of the warp are in another branch: these wait at the barrier for good (the block's
    // barrier check names them, as on the per-thread path) and run no more.
    w.ret |= w.mask;
    w.mask = 0;
    return;
  }
  for (Mask m = w.live; m != 0; m &= m - 1) {  // the barrier's departure
    const int l = __builtin_ctz(m);
    w.clk[l] = *w.clock[l];
  }
}

void OnlyRead(Warp& w, std::initializer_list<const void*> read,
              std::initializer_list<const void*> written) {
  static thread_local std::uint32_t t_done = 0;  // the launch whose buffers this worker has
  if (t_done == w.tag || w.classifier->buffer == nullptr) return;
  t_done = w.tag;
  auto ids = [&](std::initializer_list<const void*> ptrs, std::uint32_t* out) {
    std::size_t n = 0;
    for (const void* p : ptrs) {
      const std::uint32_t id = p != nullptr ? w.classifier->buffer(p) : ~0u;
      if (id != ~0u) out[n++] = id;
    }
    return n;
  };
  std::uint32_t r[64], x[64];
  if (read.size() > 64 || written.size() > 64) return;  // (no kernel has so many)
  const std::size_t nr = ids(read, r), nx = ids(written, x);
  emu::OnlyRead(r, nr, x, nx);
}

void Return(Warp& w) {
  emu::WarpExit(w.mask);
  w.ret |= w.mask;
  w.mask = 0;
}

thread_local WarpCall* t_warp_call = nullptr;
thread_local Warp* t_warp = nullptr;
thread_local TexTarget t_tex;

bool TakeTexel(const void* texel, unsigned int bytes, unsigned int place) {
  return TakeTexelAt(texel, texel, bytes, place);
}

bool TakeTexelAt(const void* at, const void* texel, unsigned int bytes, unsigned int place) {
  const TexTarget t = t_tex;
  t_tex = {};
  if (t.w == nullptr || t.w != t_warp) return false;
  Warp& w = *t.w;
  Slot& s = w.slot[t.k];
  const int l = t.lane;
  s.ptr[l] = at;
  s.time[l] = w.clk[l]++;
  s.mask |= 1u << l;
  s.place = place;
  s.op = kOpLoad | kTexture;
  s.bytes = bytes;
  s.piece = 0;
  if (w.values) s.value[l] = ValueAt(texel, bytes);
  return true;
}

WarpCall::WarpCall(Warp& warp) : w(warp) {
  t_warp_call = this;
}
WarpCall::~WarpCall() {
  t_warp_call = nullptr;
}
void WarpCall::Meet() {
  for (Mask m = w.live; m != 0; m &= m - 1) {  // the meeting's time is the latest arrival
    const int l = __builtin_ctz(m);
    *w.clock[l] = w.clk[l];
  }
  emu::SimtWarpOpMeet();
  t_warp = &w;
  for (Mask m = w.live; m != 0; m &= m - 1) {
    const int l = __builtin_ctz(m);
    w.clk[l] = *w.clock[l];
  }
  noting = false;
}

void EnterLane(Warp& w, int lane) {
  *w.clock[lane] = w.clk[lane];  // clock64() reads it
  emu::EnterLane(lane);
}

void LeaveLanes(Warp&) {
  emu::LeaveLanes();
}
}  // namespace ws::simt

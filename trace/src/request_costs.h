// A warp request's costs, and the caches that cost each shape of request once (private to
// trace/src: analysis.cpp). Every model counts in granules of at most 256 bytes, so requests
// that agree but for a shift by a multiple of 256 bytes cost the same.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "warpscope/trace/analysis.h"
#include "warpscope/trace/request.h"

namespace ws::request_costs {

// One warp request's costs under every model that applies to its memory space.
struct RequestCost {
  std::uint32_t degree = 0, d16 = 0;  // shared
  std::uint32_t wavefronts = 0, ideal_wavefronts = 0;
  std::uint32_t sectors = 0, ideal = 0, lines128 = 0;  // global, constant, texture
  std::uint32_t cc10 = 0, cc12 = 0;
  std::uint64_t cc12_bytes = 0;
  std::uint32_t atomic_degree = 0, constant_addresses = 0;
  std::uint8_t compiled = 0;  // at a site the compiled code serves wider: kCompiled*
};
// RequestCost::compiled (SiteInfo::compiled_width): the first place of a compiled run, costed as
// the compiled instruction; a later place of one (in the first's figures: nothing of its own);
// lanes at different places of a run (costed as the source's).
inline constexpr std::uint8_t kCompiledRun = 1, kCompiledPart = 2, kCompiledMixed = 3;

RequestCost SourceCost(const SiteInfo& site, std::span<const LaneAccess> lanes);

// A request's costs. At a site the compiled code serves `compiled_width` bytes a lane at a time
// (nvcc's LDS.128 for As[ty][k..k+3]), a request whose lanes all lie at one place of such a run
// (their addresses alike modulo the width) is a part of one instruction: at the run's first place
// it is that instruction, each lane reading its run's bytes; at a later place its lanes' bytes are
// in that instruction already. Lanes at different places (Bs[k][tx]) were not merged by the
// compiler: the source's cost.
RequestCost CostOf(const SiteInfo& site, std::span<const LaneAccess> lanes) {
  if (site.compiled_width == 0 || site.space != MemorySpace::kShared || site.async_copy)
    return SourceCost(site, lanes);
  RequestCost c;
  switch (CompiledPlaceOf(site.compiled_width, lanes)) {
    case CompiledPlace::kSource:
      return SourceCost(site, lanes);
    case CompiledPlace::kMixed:
      c = SourceCost(site, lanes);
      c.compiled = kCompiledMixed;
      return c;
    case CompiledPlace::kPart:
      c.compiled = kCompiledPart;
      return c;
    case CompiledPlace::kRun: {
      std::array<LaneAccess, 32> wide;
      SiteInfo as_compiled = site;
      as_compiled.size = site.compiled_width;
      as_compiled.compiled_width = 0;
      c = SourceCost(as_compiled, WidenedLanes(site.compiled_width, lanes, &wide));
      c.d16 = HalfWarp16Degree(lanes);  // compute 1.x's 16-bank model knows no LDS.128
      c.compiled = kCompiledRun;
      return c;
    }
  }
  return c;
}

// A request's costs as its source makes it.
RequestCost SourceCost(const SiteInfo& site, std::span<const LaneAccess> lanes) {
  RequestCost c;
  if (site.bulk_copy) {
    // A bulk copy through the TMA (SiteInfo::bulk_copy): its write no shared wavefront; its read
    // each lane's sectors on their own, none shared with another lane's copy (an H200: two
    // lanes' 16-byte copies of one sector's halves read 2 sectors; kernels/async/bulk_copy.txt).
    // The recorders cut a bulk copy at its source's 32-byte sectors, so a lane's piece is one.
    if (site.space != MemorySpace::kShared) {
      for (const LaneAccess& a : lanes) {
        const std::uint64_t first = a.address / 32, last = (a.address + a.size - 1) / 32;
        c.sectors += static_cast<std::uint32_t>(last - first + 1);
      }
      c.ideal = c.sectors;
    }
    return c;
  }
  if (site.space == MemorySpace::kShared) {
    const SharedCost sc = SharedRequestCost(lanes, site.op == AccessOp::kLoad);
    c.degree = sc.degree;
    c.wavefronts = sc.wavefronts;
    c.ideal_wavefronts = sc.ideal;
    c.d16 = HalfWarp16Degree(lanes);
  } else {
    c.sectors = Sectors(lanes);
    c.ideal = IdealSectors(lanes);
    c.lines128 = Lines128(lanes);
    c.cc10 = Cc10Transactions(lanes);
    const Cc12Cost c12 = Cc12Transactions(lanes);
    c.cc12 = c12.transactions;
    c.cc12_bytes = c12.bytes;
  }
  if (site.op == AccessOp::kAtomic) c.atomic_degree = AtomicConflictDegree(lanes);
  if (site.space == MemorySpace::kConstant) {
    // A warp's different constant addresses are served one after another (the slides: "the 16
    // different reads get serialized"); one address is broadcast.
    std::array<std::uint64_t, 32> addr{};
    std::size_t n = 0;
    for (const LaneAccess& a : lanes) {
      if (n < addr.size()) addr[n++] = a.address;
    }
    std::sort(addr.begin(), addr.begin() + n);
    c.constant_addresses =
        static_cast<std::uint32_t>(std::unique(addr.begin(), addr.begin() + n) - addr.begin());
  }
  return c;
}

// Costs of request shapes seen before. Every model counts in granules of at most 256 bytes
// (sectors, lines, segments, 32 banks of 4 bytes), so two requests whose lanes, sizes and
// addresses agree but for a shift by a multiple of 256 bytes cost the same (the one place an
// absolute address enters, compute 1.0's "address below the segment's start" test, concerns
// addresses under 240 bytes, which global buffers never have and shared requests never ask).
// A shape is the memory space, the operation, the access size, the lanes and each lane's address
// less the lowest one rounded down to 256 bytes. Loops repeat a handful of shapes: matmul's k
// loop walks a row 4 bytes at a time (64 shapes, then the first again), a copy's rows shift by
// whole rows. A two-way table of shapes, kept for the worker's life, costs each shape once.
class ShapeCache {
 public:
  ShapeCache() : entries_(kEntries) {}

  // The request of the lanes in `mask`, lane l at `base + offsets[l]`, `size` bytes each.
  const RequestCost& Cost(const SiteInfo& site, std::uint32_t mask, const std::uint32_t* offsets,
                          std::uint64_t base) {
    std::uint32_t rel[32];
    std::uint32_t lo = 0, hi = 0, h = 0;
    Shape(mask, offsets, rel, &lo, &hi, &h);
    const auto shift = static_cast<std::uint32_t>((base + lo) & 255u);
    if (hi > 0xffffffffu - 256u) {  // a spread over 4 GiB: costed every time
      scratch_ = Compute(site, mask, offsets, base);
      return scratch_;
    }
    h = (h ^ shift ^ (static_cast<std::uint32_t>(site.space) << 9) ^
         (site.async_copy ? 1u << 20 : 0u) ^ (site.bulk_copy ? 1u << 21 : 0u) ^
         (std::uint32_t{site.compiled_width} << 22) ^ (static_cast<std::uint32_t>(site.op) << 12) ^
         (std::uint32_t{site.size} << 16)) *
        0x85ebca6bu;
    h ^= h >> 15;
    // Two ways a set: a loop's shapes that fall in one set (a broadcast at two shifts) take
    // turns in it rather than evicting each other every time.
    Entry* set = &entries_[(h & (kEntries / 2 - 1)) * 2];
    for (int way = 0; way < 2; ++way) {
      Entry& e = set[way];
      if (e.valid && e.mask == mask && e.shift == shift && e.size == site.size &&
          e.space == site.space && e.op == site.op && e.async_copy == site.async_copy &&
          e.bulk_copy == site.bulk_copy && e.compiled_width == site.compiled_width &&
          std::equal(rel, rel + 32, e.rel)) {
        e.used = ++clock_;
        return e.cost;
      }
    }
    Entry& e = set[set[0].used <= set[1].used ? 0 : 1];  // the one used longer ago
    e.used = ++clock_;
    e.cost = Compute(site, mask, offsets, base);
    e.valid = true;
    e.mask = mask;
    e.shift = shift;
    e.size = site.size;
    e.space = site.space;
    e.op = site.op;
    e.async_copy = site.async_copy;
    e.bulk_copy = site.bulk_copy;
    e.compiled_width = site.compiled_width;
    std::copy(rel, rel + 32, e.rel);
    return e.cost;
  }

 private:
  static constexpr std::size_t kEntries = 2048;
  static constexpr std::uint32_t kMix[32] = {
      0x9e3779b1u, 0x85ebca77u, 0xc2b2ae3du, 0x27d4eb2fu, 0x165667b1u,      0xd3a2646du,
      0xfd7046c5u, 0xb55a4f09u, 0x6c8e9cf5u, 0x9fb21c65u, 0xe7037ed1u,      0x1b873593u,
      0xcc9e2d51u, 0x38b34ae5u, 0xa136aaadu, 0x7feb352du, 0x846ca68bu,      0x5bd1e995u,
      0x68e31da5u, 0xf8b84a39u, 0x4cf5ad43u, 0x2545f491u, 0xbf58476du,      0x94d049bbu,
      0x3c6ef373u, 0xdaa66d2bu, 0x61c88647u, 0x8e3c5b2fu, 0x40a7b892u | 1u, 0xe6546b65u,
      0x1d8e4e27u, 0xa3b195edu};
  // The lanes' offsets less the lowest (0 for lanes not in `mask`), their largest, and a hash.
  // 32-lane loops without branches; where the CPU has AVX2 they run 8 lanes at a time.
  __attribute__((target_clones("avx2", "default"))) static void Shape(
      std::uint32_t mask, const std::uint32_t* offsets, std::uint32_t* rel, std::uint32_t* lo_out,
      std::uint32_t* hi_out, std::uint32_t* hash_out) {
    std::uint32_t lo = ~0u;
    for (std::uint32_t l = 0; l < 32; ++l) {
      const std::uint32_t in = 0u - (mask >> l & 1u);  // all ones for a lane in the request
      lo = std::min(lo, (offsets[l] & in) | ~in);
    }
    std::uint32_t hi = 0, h = mask * 0x9e3779b1u;
    for (std::uint32_t l = 0; l < 32; ++l) {
      const std::uint32_t in = 0u - (mask >> l & 1u);
      rel[l] = (offsets[l] - lo) & in;
      hi = std::max(hi, rel[l]);
      h += rel[l] * kMix[l];
    }
    *lo_out = lo;
    *hi_out = hi;
    *hash_out = h;
  }

  struct Entry {
    std::uint32_t mask = 0, shift = 0;
    std::uint8_t size = 0;
    MemorySpace space = MemorySpace::kGlobal;
    AccessOp op = AccessOp::kLoad;
    bool async_copy = false;
    bool bulk_copy = false;
    std::uint8_t compiled_width = 0;
    bool valid = false;
    std::uint64_t used = 0;      // when it last answered
    std::uint32_t rel[32] = {};  // offset less the lowest, per lane (0 for lanes not in mask)
    RequestCost cost;
  };

  static RequestCost Compute(const SiteInfo& site, std::uint32_t mask, const std::uint32_t* offsets,
                             std::uint64_t base) {
    std::array<LaneAccess, 32> lanes;
    std::size_t n = 0;
    for (std::uint32_t m = mask; m != 0; m &= m - 1) {
      const auto l = static_cast<std::uint32_t>(__builtin_ctz(m));
      lanes[n++] = {static_cast<std::uint8_t>(l), site.size, base + offsets[l]};
    }
    return CostOf(site, std::span<const LaneAccess>(lanes.data(), n));
  }

  std::vector<Entry> entries_;
  std::uint64_t clock_ = 0;
  RequestCost scratch_;
};

// Whole-warp requests whose lanes lie in rows, counted by site and shape until the block ends
// (WarpRequests::AddAffine): a loop's requests are a handful of shapes, each costed once.
class AffineCounts {
 public:
  AffineCounts() : table_(kSize) {}
  void Add(std::uint16_t site, std::uint32_t step, std::uint32_t delta, std::uint32_t group,
           std::uint32_t shift) {
    std::uint64_t h = (std::uint64_t{step} << 24) ^ (std::uint64_t{shift} << 16) ^ site ^
                      (std::uint64_t{delta} << 32) ^ (std::uint64_t{group} << 58);
    h *= 0x9e3779b97f4a7c15ull;
    for (std::size_t i = h >> (64 - kBits);; i = (i + 1) & (kSize - 1)) {
      Entry& e = table_[i];
      if (e.count != 0 && e.site == site && e.step == step && e.shift == shift &&
          e.delta == delta && e.group == group) {
        ++e.count;
        return;
      }
      if (e.count == 0) {
        if (used_.size() >= kSize / 2) {  // full: the caller adds the rest one by one
          overflow_ = true;
          return;
        }
        e = {site, step, shift, delta, group, 1};
        used_.push_back(static_cast<std::uint32_t>(i));
        return;
      }
    }
  }
  // Whether the last Add found no room (its request was not counted).
  bool TakeOverflow() {
    const bool o = overflow_;
    overflow_ = false;
    return o;
  }
  // Each shape counted since the last call, then forgotten.
  template <typename F>
  void Drain(F f) {
    for (const std::uint32_t i : used_) {
      Entry& e = table_[i];
      f(e.site, e.step, e.delta, e.group, e.shift, e.count);
      e.count = 0;
    }
    used_.clear();
  }

 private:
  static constexpr int kBits = 12;
  static constexpr std::size_t kSize = std::size_t{1} << kBits;
  struct Entry {
    std::uint16_t site = 0;
    std::uint32_t step = 0, shift = 0, delta = 0, group = 32;
    std::uint64_t count = 0;
  };
  std::vector<Entry> table_;
  std::vector<std::uint32_t> used_;
  bool overflow_ = false;
};

}  // namespace ws::request_costs

// A warp's reservations of words for its events (included by ws_cuda_device.h, after the
// recorder's state and LinearThread): in chunks of the pool (TakeChunk, Reserve;
// ws_cuda_record_format.h says how), or a kept warp's in its own region, counted in the block's
// shared memory (ReserveKept; RecorderState's kept_* say where).
//
// The kept regions. Why. A kept block writes every event, one after the other on each warp's path,
// and each reservation by the pool's road (Reserve) is an atomic on the warp's state word in device
// memory whose answer the warp waits for: a round trip to L2. A lesson at its default size waits
// for its kept blocks (matmul tiled's recording pass 157 us against 3.3 us uninstrumented, Nsight
// Compute on an H200, about 1 us for each of a kept warp's 160 events). bench/gpu_tally_micro.cu's
// kept chain (4 blocks of 8 warps, 160 affine events a warp, H200): 0.215 ms by the pool's road,
// 0.136 by a prototype of this one, 0.067 with nothing recorded.
//
// How. The host gives each warp of the kept span (RecorderState::kept_region_blocks blocks from
// kept_base) a region of kept_region words of the pool, laid out as a chunk (a kChunkHeaderWords
// header whose word 2 holds the words used, header included), and adds 8 bytes a warp to the
// launch's dynamic shared memory (added_shared_bytes, past the launch's own). A warp's word there
// holds a tag in its high half (the block's span number and the launch's launch_tag mixed) and
// its words used in the low half. Nothing clears it: a word whose tag is not this block's is
// stale (another block's, another launch's or another process's; launch_tag mixes in a random
// number drawn once a process), and the reservation that finds it claims it, its words used set
// to 0, by a compare-and-swap. A stale word that carries this block's tag by chance (about 2^-32
// a warp) would place the warp's events past words never written: the host would decode them.
// The used count is published for the host in the region's header by an atomicMax that nothing
// waits for. A region that fills sends the warp's later events to the pool's road (its own
// first chunk, then chunks from its SM's super-chunk): the words used only grow, so no event
// after the first that did not fit lands in the region, and the host reads a warp's region
// before its chunks (ReadPool).
#pragma once

namespace ws::dev {

// The tag of a block's kept cursors: its place in the span and the launch's tag, mixed (a
// finalizer's steps, so that two launches' tags do not pair blocks off); never 0.
__device__ __forceinline__ unsigned KeptTag(unsigned from_base, unsigned launch_tag) {
  unsigned h = (from_base + 1u) * 0x9e3779b1u ^ launch_tag;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h | 1u;
}

// A used count past this is taken back to kKeptFull, so that a warp that goes on reserving
// after its region filled never carries into the tag (the region holds at most 2^28 words).
inline constexpr unsigned kKeptFull = 0x80000000u, kKeptRewind = 0xc0000000u;

// Reserves `words` in this warp's kept region: their place, or null where the warp has none (its
// block outside the span, no regions this pass) or its region is full (Reserve's pool road then).
// Called by ReserveSlowly, out of line: only where the pass has kept regions.
__device__ __forceinline__ unsigned* ReserveKept(unsigned words) {
  const RecorderState& r = ws_recorder_state;
  const unsigned from_base = LinearBlock32() - static_cast<unsigned>(r.kept_base);
  if (from_base >= r.kept_region_blocks) return nullptr;
  const unsigned in_block = LinearThread() / 32u;
  auto* cursor =
      reinterpret_cast<unsigned long long*>(ws_dynamic_shared + r.added_shared_offset) + in_block;
  const unsigned long long tag = static_cast<unsigned long long>(KeptTag(from_base, r.launch_tag))
                                 << 32;
  unsigned long long old = atomicAdd(cursor, static_cast<unsigned long long>(words));
  if ((old & ~0xffffffffull) != tag) {
    // Stale: claimed with no words used (a group of this warp that claimed it first leaves the
    // tag set, and this one goes on), then reserved again.
    for (unsigned long long seen = old + words; (seen & ~0xffffffffull) != tag;) {
      const unsigned long long was = atomicCAS(cursor, seen, tag);
      seen = was == seen ? tag : was;
    }
    old = atomicAdd(cursor, static_cast<unsigned long long>(words));
  }
  const unsigned used = static_cast<unsigned>(old);
  if (used + words + kChunkHeaderWords > r.kept_region) {
    if (used >= kKeptRewind) atomicExch(cursor, tag | kKeptFull);
    return nullptr;
  }
  unsigned* region =
      r.words + r.kept_at +
      (static_cast<unsigned long long>(from_base) * r.warps_per_block + in_block) * r.kept_region;
  atomicMax(region + 2, kChunkHeaderWords + used + words);
  return region + kChunkHeaderWords + used;
}

// Takes `size` words for a chunk from the super-chunk of the SM this warp runs on, the SM taking
// the next super-chunk from the pool when its own is full (the same protocol as a warp's chunks
// in Reserve). Returns the chunk's first word, or ~0 when the pool is spent.
__device__ inline unsigned long long TakeChunk(const RecorderState& r, unsigned size) {
  unsigned long long* state = r.sm_state + (SmId() % kSmSlots) * kSmSlotStride;
  for (;;) {
    const unsigned long long old = atomicAdd(state, static_cast<unsigned long long>(size));
    const unsigned super = StateChunk(old);
    const unsigned used = StateUsed(old);
    if (super == kDeadChunk) {
      if (used > kUsedMask / 2) atomicExch(state, kDeadState);
      return ~0ull;
    }
    const unsigned long long first = StateFirstWord(old);
    const unsigned capacity = super == 0 ? 0u : r.super_words;
    if (used + size <= capacity) return first + used;
    if (used > capacity) {  // another warp of this SM is taking the next super-chunk
      while (StateChunk(atomicAdd(state, 0ull)) == super) __nanosleep(64);
      continue;
    }
    if (super != 0) r.words[first] = used;  // close the full super-chunk
    const unsigned long long at =
        kChunkHeaderWords + size <= r.super_words
            ? atomicAdd(r.pool_next, static_cast<unsigned long long>(r.super_words))
            : r.pool_words;
    if (at + r.super_words > r.pool_words) {
      atomicExch(state, kDeadState);
      return ~0ull;
    }
    r.words[at] = 0;  // open
    atomicExch(state, ChunkState(at, 0, kChunkHeaderWords + size));
    return at + kChunkHeaderWords;
  }
}

// Reserve's slow road, out of line (inlined at every access site it made a lesson's kernels
// twice as large and their registers too many for full occupancy). It reads this unit's
// ws_recorder_state itself (every caller passes that), not its parameter through a generic
// pointer, which the call would otherwise load field by field: `old` is the state word
// before this reservation's own atomic add, where `added` (else the reservation is not made
// yet: the pass has kept regions, and the warp's region is tried first). Takes the next chunk,
// waits for another group that is taking it, or finds the warp out of room.
static __device__ __noinline__ unsigned* ReserveSlowly(const RecorderState&,
                                                       unsigned long long warp, unsigned words,
                                                       unsigned long long old, bool added) {
  const RecorderState& r = ws_recorder_state;
  unsigned long long* state = r.warp_state + warp;
  if (!added) {
    if (unsigned* w = ReserveKept(words); w != nullptr) return w;
  }
  for (;; added = false) {
    if (!added) {
      old = atomicAdd(state, static_cast<unsigned long long>(words));
      if (r.mode == kCount) return nullptr;
    }
    const unsigned chunk = StateChunk(old);
    unsigned used = StateUsed(old);
    if (chunk == kDeadChunk) {
      // Keep the used bits from ever carrying into the chunk's.
      if (used > kUsedMask / 2) atomicExch(state, kDeadState);
      return nullptr;
    }
    // A warp's first chunk is its own kFirstChunkWords at warp * kFirstChunkWords when the pool
    // has room for one per warp (r.first_chunks): the warp's first events cost no allocation.
    const bool own_first = chunk == 0 && r.first_chunks;
    const unsigned long long first = own_first ? warp * kFirstChunkWords : StateFirstWord(old);
    if (own_first) used += kChunkHeaderWords;
    const unsigned size = own_first           ? kFirstChunkWords
                          : chunk == 0        ? 0u
                          : r.plan != nullptr ? static_cast<unsigned>(r.plan[warp + 1] - first)
                                              : kFirstChunkWords << StateClass(old);
    if (used + words <= size) return r.words + first + used;
    if (used > size) {  // another group of this warp is taking the next chunk: wait, try again
      while (StateChunk(atomicAdd(state, 0ull)) == chunk) __nanosleep(64);
      continue;
    }
    // This reservation crossed the chunk's end: close the chunk and take the next.
    if (chunk != 0 || own_first) r.words[first + 2] = used;
    unsigned size_class =
        chunk == 0 && !own_first ? 0u : min(StateClass(old) + 1u, r.max_chunk_class);
    while ((kFirstChunkWords << size_class) < kChunkHeaderWords + words) ++size_class;
    const unsigned long long at =
        r.plan == nullptr ? TakeChunk(r, kFirstChunkWords << size_class) : ~0ull;
    if (at == ~0ull) {
      atomicExch(state, kDeadState);
      *r.overflow = 1;
      return nullptr;
    }
    unsigned* c = r.words + at;
    c[0] = static_cast<unsigned>(warp);
    c[1] = static_cast<unsigned>(warp >> 32);
    c[2] = 0;
    c[3] = kFirstChunkWords << size_class;
    atomicExch(state, ChunkState(at, size_class, kChunkHeaderWords + words));
    return c + kChunkHeaderWords;
  }
}

// Called by one lane of a group (its leader; a program's asynchronous copy call, ws_gpu_async.h,
// by each lane making it): reserves `words` in warp `warp`'s stream and returns
// where they are, or null when there is no room (or on the counting pass, which only counts).
// See ws_cuda_record_format.h for the chunks and the state word. One atomic add on the warp's
// state word; the rest is ReserveSlowly's, when the event does not fit where the warp is, and
// every reservation of a pass with kept regions (its call tries the warp's region first: a call
// of its own here put a second call at every site, and the lean unit's spill loads went from 14
// to 23 KB, ptxas -v).
__device__ __forceinline__ unsigned* Reserve(const RecorderState& r, unsigned long long warp,
                                             unsigned words) {
  unsigned long long old = 0;
  const bool pool_first = r.kept_region == 0;
  if (pool_first) {
    old = atomicAdd(r.warp_state + warp, static_cast<unsigned long long>(words));
    if (r.mode == kCount) return nullptr;
    const unsigned chunk = StateChunk(old);
    const unsigned used = StateUsed(old);
    if (chunk == 0 && r.first_chunks && used + kChunkHeaderWords + words <= kFirstChunkWords)
      return r.words + warp * kFirstChunkWords + kChunkHeaderWords + used;
    if (chunk != 0 && chunk != kDeadChunk && r.plan == nullptr &&
        used + words <= (kFirstChunkWords << StateClass(old)))
      return r.words + StateFirstWord(old) + used;
  }
  return ReserveSlowly(r, warp, words, old, pool_first);
}

// The group's leader reserves, the others learn where. `active`: every lane running this code
// now, all groups; they meet again before the shuffle. Leaders of several groups may wait for
// each other inside Reserve, and a group's shuffle while another group's lanes were still
// waiting for their leader at the same instruction was refused on an H100 (compute-sanitizer's
// synccheck: "Barrier error detected. Invalid arguments", then cudaErrorIllegalInstruction).
__device__ __forceinline__ unsigned* ReserveForGroup(const RecorderState& r, unsigned active,
                                                     unsigned group, bool leader, unsigned words) {
  unsigned* w = nullptr;
  if (leader) w = Reserve(r, LinearWarp(r), words);
  if (r.mode == kCount) return nullptr;
  __syncwarp(active);
  return reinterpret_cast<unsigned*>(
      __shfl_sync(group, reinterpret_cast<unsigned long long>(w), __ffs(group) - 1));
}

}  // namespace ws::dev

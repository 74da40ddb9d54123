// A warp's reservations of words for its events in chunks of the pool (ws_cuda_record_format.h
// says how): included by ws_cuda_device.h, after the recorder's state and LinearWarp.
#pragma once

namespace ws::dev {

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
// before this reservation's own atomic add. Takes the next chunk, waits for another group that
// is taking it, or finds the warp out of room.
static __device__ __noinline__ unsigned* ReserveSlowly(const RecorderState&,
                                                       unsigned long long warp, unsigned words,
                                                       unsigned long long old) {
  const RecorderState& r = ws_recorder_state;
  unsigned long long* state = r.warp_state + warp;
  for (bool added = true;; added = false) {
    if (!added) old = atomicAdd(state, static_cast<unsigned long long>(words));
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
// state word; the rest is ReserveSlowly's, when the event does not fit where the warp is.
__device__ __forceinline__ unsigned* Reserve(const RecorderState& r, unsigned long long warp,
                                             unsigned words) {
  unsigned long long* state = r.warp_state + warp;
  const unsigned long long old = atomicAdd(state, static_cast<unsigned long long>(words));
  if (r.mode == kCount) return nullptr;
  const unsigned chunk = StateChunk(old);
  const unsigned used = StateUsed(old);
  if (chunk == 0 && r.first_chunks && used + kChunkHeaderWords + words <= kFirstChunkWords)
    return r.words + warp * kFirstChunkWords + kChunkHeaderWords + used;
  if (chunk != 0 && chunk != kDeadChunk && r.plan == nullptr &&
      used + words <= (kFirstChunkWords << StateClass(old)))
    return r.words + StateFirstWord(old) + used;
  return ReserveSlowly(r, warp, words, old);
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

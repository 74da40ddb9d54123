// The hazard check on the device (ws_cuda_device.h includes this; include that one): a pass of
// its own (mode kHazards) that writes no events and finds the blocks whose threads may race, so
// that the recording pass after it keeps their records and the host's FindHazards counts their
// pairs. A block found clean has no pair: the check may flag a block that has none (it is then
// recorded and found clean on the host), never miss one that has one. Shadows and their layout:
// ws_cuda_record_format.h ("The hazard check").
//
//   shared memory: each word of each block's window, per barrier interval (the thread's count of
//     the block's barriers, kept per thread in thread_epoch): its first thread in the interval,
//     whether another thread came, whether it was written and whether a plain (not atomic)
//     access came. Two threads, a write and a plain access in one interval flag the block: the
//     host's rule for a pair (a write against another thread's access, not both atomics) with
//     __syncwarp() and the accesses' order left to the host.
//   global memory: each word of each buffer: its one block (or several), whether it was written
//     and a plain access came, and within its one block the same per-interval fields. A word of
//     several blocks that was written and accessed plainly is contended: the blocks meeting at
//     it may race (the host pairs them in block order, as the emulator). Its earlier blocks have
//     gone by when that is known, so a launch with a contended word runs a second pass
//     (kHazardsIdentify) that flags every block touching one, the shadow left as the first made it.
#pragma once

#include <cstdint>

#include "warpscope/kernels/ws_cuda_record_format.h"
#include "warpscope/trace/ws_cuda_keys.h"

namespace ws::dev {

__device__ __forceinline__ void FlagBlock(const RecorderState& r, unsigned long long block) {
  unsigned char* f = r.hazard_block + block;
  if (*f == 0) *f = 1;
}

// The shadow's words live in L2 (compare-and-swap), so they are read past L1.
__device__ __forceinline__ unsigned SharedShadowMerge(unsigned old, unsigned epoch,
                                                      unsigned thread1, unsigned bits) {
  if (old == 0 || (old >> kShadowEpochShift) != epoch)
    return epoch << kShadowEpochShift | thread1 | bits;
  return old | bits | ((old & kShadowThread) != thread1 ? kShadowMany : 0u);
}

// A store guesses the word fresh (0: the shadows start cleared, and most stores are a word's
// first access in its block or its buffer) and tries its compare-and-swap at once: one round trip
// to L2 instead of a read and then the swap. A load reads first: many threads reading one word
// would queue on it with a swap each.
__device__ __forceinline__ void SharedShadowWord(const RecorderState& r, unsigned long long block,
                                                 unsigned word, unsigned epoch, unsigned thread1,
                                                 unsigned bits) {
  unsigned* e = r.shared_shadow + block * r.shared_shadow_words + word;
  unsigned old = bits & kShadowWritten ? 0u : __ldcg(e);
  for (;;) {
    const unsigned next = SharedShadowMerge(old, epoch, thread1, bits);
    if (next == old) break;
    const unsigned seen = atomicCAS(e, old, next);
    if (seen == old) {
      old = next;
      break;
    }
    old = seen;
  }
  if ((old & kShadowRacing) == kShadowRacing) FlagBlock(r, block);
}

// A block's tag in its shared-memory shadow (ws_cuda_record_format.h): the same for all its
// threads; another block's differs (one of an earlier launch almost always: a word that matches
// can only flag the block more).
__device__ __forceinline__ unsigned HazardBlockTag(const RecorderState& r) {
  return (LinearBlock32() + 1u) * 0x9e3779b1u ^ r.hazard_tag;
}

// SharedShadowWord with the shadow in the block's own shared memory: a compare-and-swap there
// instead of in L2. A word with another block's tag is fresh.
__device__ __forceinline__ void SharedShadowWordHere(const RecorderState& r,
                                                     unsigned long long block, unsigned word,
                                                     unsigned tag, unsigned epoch, unsigned thread1,
                                                     unsigned bits) {
  auto* e =
      reinterpret_cast<unsigned long long*>(ws_dynamic_shared + r.hazard_shared_offset) + word;
  unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(e);
  unsigned now = 0;
  for (;;) {
    const unsigned mine = static_cast<unsigned>(old >> 32) == tag ? static_cast<unsigned>(old) : 0u;
    now = SharedShadowMerge(mine, epoch, thread1, bits);
    const unsigned long long next = static_cast<unsigned long long>(tag) << 32 | now;
    if (next == old) break;
    const unsigned long long seen = atomicCAS(e, old, next);
    if (seen == old) break;
    old = seen;
  }
  if ((now & kShadowRacing) == kShadowRacing) FlagBlock(r, block);
}

// A global word's entry after an access by block `block1` (its index + 1) of `bits`.
__device__ __forceinline__ unsigned long long GlobalShadowMerge(unsigned long long old,
                                                                unsigned long long block1,
                                                                unsigned epoch, unsigned thread1,
                                                                unsigned bits) {
  const unsigned long long owner = old & kGlobalOwner;
  const unsigned long long word_bits =
      (bits & kShadowWritten ? kGlobalWritten : 0ull) | (bits & kShadowPlain ? kGlobalPlain : 0ull);
  const unsigned long long fresh =
      static_cast<unsigned long long>(epoch << kShadowEpochShift | thread1 | bits) << 32;
  if (owner == 0) return block1 | word_bits | fresh;
  if (owner == block1) {
    const unsigned interval = static_cast<unsigned>(old >> 32);
    return (old & 0xffffffffull) | word_bits |
           static_cast<unsigned long long>(SharedShadowMerge(interval, epoch, thread1, bits)) << 32;
  }
  return (old & (kGlobalWritten | kGlobalPlain)) | word_bits | kGlobalOwner;  // several blocks
}

__device__ __forceinline__ void GlobalShadowWord(const RecorderState& r, unsigned long long block,
                                                 unsigned long long at, unsigned epoch,
                                                 unsigned thread1, unsigned bits) {
  unsigned long long* e = r.global_shadow + at;
  const unsigned long long contended = kGlobalOwner | kGlobalWritten | kGlobalPlain;
  if (r.hazard_mode == kHazardsIdentify) {
    if ((__ldcg(e) & contended) == contended) FlagBlock(r, block);
    return;
  }
  const unsigned long long block1 = block + 1 < kGlobalOwner ? block + 1 : kGlobalOwner;
  // A store guesses the word fresh (SharedShadowWord). `old` ends as the word before this access
  // (read, or returned by a swap that failed), `now` as the word after it.
  unsigned long long old = bits & kShadowWritten ? 0ull : __ldcg(e), now = 0;
  for (;;) {
    now = GlobalShadowMerge(old, block1, epoch, thread1, bits);
    if (now == old) break;
    const unsigned long long seen = atomicCAS(e, old, now);
    if (seen == old) break;
    old = seen;
  }
  if ((now & contended) == contended) {
    FlagBlock(r, block);
    if ((old & contended) != contended && *r.hazard_counts == 0) *r.hazard_counts = 1;
  } else if ((now & kGlobalOwner) == block1 &&
             (static_cast<unsigned>(now >> 32) & kShadowRacing) == kShadowRacing) {
    FlagBlock(r, block);
  }
}

// Whether an access of `key` needs no check, tested inline before the call to HazardAccess: a
// space that is read only (constant, texture), a thread's own local array, or a buffer no store
// of the launch reaches (Nsight Compute on a 2^24-float copy's pass, H200: a read-only buffer's
// access took about 60 instructions of the call's before HazardAccess found it so).
// Only loads skip: a store that reached a buffer said to be read only goes on to HazardAccess,
// which flags its block and counts it as unshadowed (the report then says what was not checked).
__device__ __forceinline__ bool HazardSkips(const RecorderState& r, std::uint64_t key) {
  const std::uint32_t space = KeySpaceOf(key);
  if (space == kKeyShared) return false;
  if (space != kKeyGlobal) return true;
  const std::uint32_t array = KeyArray(key);
  return array == kKeyLocalArray ||
         (array < 64 && KeyOpOf(key) == kKeyLoad && (r.hazard_read_only >> array & 1ull) != 0);
}

// One lane's access of `key` at `offset`, on a kHazards pass.
static __device__ __noinline__ void HazardAccess(const RecorderState& r, std::uint64_t key,
                                                 std::uint32_t offset) {
  const std::uint32_t space = KeySpaceOf(key);
  if (space != kKeyShared && space != kKeyGlobal) return;  // constant, texture: read only
  const std::uint32_t array = KeyArray(key);
  if (space == kKeyGlobal && array == kKeyLocalArray) return;  // a thread's own
  // An asynchronous copy's shared write: recorded where it was issued, and the pipeline's waits
  // that order it against the reads are not seen here (the host's check leaves it out too).
  if (KeyIsAsyncCopy(key)) return;
  const std::uint32_t op = KeyOpOf(key);
  const unsigned bits =
      (op != kKeyLoad ? kShadowWritten : 0u) | (op != kKeyAtomic ? kShadowPlain : 0u);
  const unsigned long long block = LinearBlock();
  const unsigned thread = LinearThread();
  const unsigned epoch = r.thread_epoch[block * r.threads_per_block + thread];
  const unsigned thread1 = thread + 1u;  // a block has at most 1,024 threads
  const std::uint32_t size = KeySize(key) == 0 ? 1u : KeySize(key);
  const std::uint32_t first = offset / 4, last = (offset + size - 1) / 4;
  if (space == kKeyShared) {
    if (r.hazard_mode == kHazardsIdentify) return;
    if (last < first || last >= r.shared_shadow_words) {
      FlagBlock(r, block);  // outside the window the host sized: its records decide
      return;
    }
    if (r.hazard_shared_bytes != 0) {
      const unsigned tag = HazardBlockTag(r);
      for (std::uint32_t w = first; w <= last; ++w)
        SharedShadowWordHere(r, block, w, tag, epoch, thread1, bits);
      return;
    }
    for (std::uint32_t w = first; w <= last; ++w)
      SharedShadowWord(r, block, w, epoch, thread1, bits);
    return;
  }
  const unsigned long long base = array < r.buffer_shadow_count ? r.buffer_shadow[2 * array] : 0;
  if (base == kReadOnlyBuffer && op == kKeyLoad) return;  // no store of the launch reaches it
  if (base == 0 || base == kReadOnlyBuffer || last < first ||
      last >= r.buffer_shadow[2 * array + 1]) {
    // A buffer with no shadow (several buffers' site, past the shadow's bytes, or a store that
    // reached a buffer said to be read only): the block is flagged (its pairs within it are then
    // counted on the host) and the access counted, since its pairs across blocks may be missed (the
    // report says so).
    FlagBlock(r, block);
    const unsigned active = __activemask();
    if (static_cast<int>(LaneId()) == __ffs(active) - 1)
      atomicAdd(r.hazard_counts + 1, static_cast<unsigned long long>(__popc(active)));
    return;
  }
  for (std::uint32_t w = first; w <= last; ++w)
    GlobalShadowWord(r, block, base - 1 + w, epoch, thread1, bits);
}

// After a block-wide barrier on a kHazards pass: the thread's next interval.
__device__ __forceinline__ void HazardBarrierPassed(const RecorderState& r) {
  unsigned short* e = r.thread_epoch + LinearBlock() * r.threads_per_block + LinearThread();
  *e = static_cast<unsigned short>(*e + 1u);
}

}  // namespace ws::dev

// The GPU road's device heap allocator (ws_program_cuda_groups.h's HeapMalloc and HeapFree): blocks
// of one registered "device heap" buffer, under one lock. Each block is a 16-byte header unit
// (its size in units, and its next free block's unit + 1, or kUsed while it is handed out) and
// its payload. A freed block goes onto the free list of its size (one list a size up to 1 KiB of
// payload; one first-fit list of larger blocks, each taken whole), from which the next request of
// that size is served; else blocks are cut upwards from the heap's top; when the top is full, a
// larger free block is taken whole. When every block is free
// the heap starts again from empty. A request that fits nowhere gives null, as CUDA's heap does.
//
// Written once for both compilers: the includer defines WS_HEAP_FN (`__device__ inline` on a GPU,
// `inline` in the host test, heap_blocks_test.cpp) and WS_HEAP_LOCK(s) / WS_HEAP_UNLOCK(s), and
// the state and the heap are volatile (each thread reads what the last holder of the lock wrote,
// not its L1's copy).
#pragma once

#include <cstddef>

namespace ws::prog::heap {

inline constexpr unsigned long long kClasses = 64;  // sizes of 2 to 65 units, then "larger"
inline constexpr unsigned long long kUsed = ~0ull;

// In device memory, zeroed with the heap; restored with it between a launch's passes.
struct State {
  unsigned int lock, unused;
  unsigned long long top;                  // units cut from the heap so far
  unsigned long long live;                 // blocks handed out and not freed
  unsigned long long heads[kClasses + 1];  // each list's first block: its unit + 1 (0: none)
};

WS_HEAP_FN unsigned long long ListOf(unsigned long long units) {
  return units - 2 < kClasses ? units - 2 : kClasses;
}

// `bytes` from the heap of `heap_units` 16-byte units at `heap` (2 words a unit); null when none
// is free and the top has no room.
WS_HEAP_FN void* Allocate(volatile State* s, volatile unsigned long long* heap,
                          unsigned long long heap_units, std::size_t bytes) {
  if (bytes == 0 || bytes > heap_units * 16) return nullptr;  // malloc(0): null, as the emulator's
  const unsigned long long units = 1 + (bytes + 15) / 16;
  const unsigned long long list = ListOf(units);
  unsigned long long at = 0;  // the header's unit + 1
  WS_HEAP_LOCK(s);
  if (list < kClasses) {
    at = s->heads[list];
    if (at != 0) s->heads[list] = heap[2 * (at - 1) + 1];
  } else {  // the first larger block that is large enough, taken whole
    volatile unsigned long long* link = &s->heads[kClasses];
    for (at = *link; at != 0 && heap[2 * (at - 1)] < units; at = *link)
      link = &heap[2 * (at - 1) + 1];
    if (at != 0) *link = heap[2 * (at - 1) + 1];
  }
  if (at == 0 && s->top + units <= heap_units) {
    at = s->top + 1;
    s->top = s->top + units;
    heap[2 * (at - 1)] = units;
  }
  // The top is full: a larger free block, taken whole (the first of the next sizes up).
  for (unsigned long long k = list + 1; at == 0 && k < kClasses; ++k) {
    at = s->heads[k];
    if (at != 0) s->heads[k] = heap[2 * (at - 1) + 1];
  }
  if (at == 0 && list < kClasses) {
    volatile unsigned long long* link = &s->heads[kClasses];
    at = *link;
    if (at != 0) *link = heap[2 * (at - 1) + 1];
  }
  if (at != 0) {
    heap[2 * (at - 1) + 1] = kUsed;
    s->live = s->live + 1;
  }
  WS_HEAP_UNLOCK(s);
  return at == 0 ? nullptr : const_cast<unsigned long long*>(heap + 2 * at);
}

// Frees the block whose payload begins at `p`; anything else (null, outside the heap, not a
// block's start, a block already free) is left alone: CUDA's behaviour there is undefined.
WS_HEAP_FN void Free(volatile State* s, volatile unsigned long long* heap,
                     unsigned long long heap_units, void* p) {
  if (p == nullptr) return;
  const auto at = reinterpret_cast<unsigned long long>(p) -
                  reinterpret_cast<unsigned long long>(const_cast<unsigned long long*>(heap));
  if (at < 16 || at >= heap_units * 16 || at % 16 != 0) return;
  const unsigned long long unit = at / 16;  // the payload's; its header is unit - 1
  WS_HEAP_LOCK(s);
  const unsigned long long size = unit - 1 < s->top ? heap[2 * (unit - 1)] : 0;
  if (size >= 2 && size <= s->top - (unit - 1) && heap[2 * (unit - 1) + 1] == kUsed) {
    const unsigned long long list = ListOf(size);
    heap[2 * (unit - 1) + 1] = s->heads[list];
    s->heads[list] = unit;
    s->live = s->live - 1;
    if (s->live == 0) {  // every block free: the heap starts again from empty
      s->top = 0;
      for (unsigned long long k = 0; k <= kClasses; ++k) s->heads[k] = 0;
    }
  }
  WS_HEAP_UNLOCK(s);
}

}  // namespace ws::prog::heap

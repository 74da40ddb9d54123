// The device heap as a program sees it, on both roads (part of ws_program.h, libws_program_emu:
// emu_device_heap.cpp; and of ws_program_cuda.h, whose HeapMalloc and HeapFree are device code in
// ws_program_cuda_groups.h). The rewriter turns device code's `new T(args)`, `new T[n]`, `delete
// p`, `delete[] p`, `malloc(n)` and `free(p)` into these calls (collector_heap.cpp): blocks of one
// buffer named "device heap", cudaLimitMallocHeapSize bytes (8 MB unless the program sets it
// before its first launch), registered before the first launch of a program that uses it, so
// every access to a block is recorded against it and an access outside the heap says so. As on a
// GPU, an allocation that does not fit gives a null pointer; an object lives until it is deleted,
// across launches.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#if defined(WS_PROGRAM_GPU)
#define WS_HEAP_FN __device__ inline
#else
#define WS_HEAP_FN inline
#endif

namespace ws::prog {
#if !defined(WS_PROGRAM_GPU)
// 16-byte aligned bytes of the heap (null when it is full); HeapFree of null does nothing.
void* HeapMalloc(std::size_t bytes);
void HeapFree(void* p);
// Marks the program as one that uses the device heap (a static of each rewritten unit that does).
int UseDeviceHeap();
#endif

template <typename T, typename... A>
WS_HEAP_FN T* HeapNew(A&&... args) {
  void* p = HeapMalloc(sizeof(T));
  return p == nullptr ? nullptr : ::new (p) T(std::forward<A>(args)...);
}
// An array keeps its length in the 16 bytes before its first element (for delete[]).
template <typename T>
WS_HEAP_FN T* HeapNewArray(std::size_t n) {
  static_assert(alignof(T) <= 16, "new T[n] in device code: T aligned to at most 16 bytes");
  auto* block = static_cast<unsigned char*>(HeapMalloc(16 + n * sizeof(T)));
  if (block == nullptr) return nullptr;
  *reinterpret_cast<std::size_t*>(block) = n;
  T* first = reinterpret_cast<T*>(block + 16);
  for (std::size_t i = 0; i < n; ++i) ::new (static_cast<void*>(first + i)) T;
  return first;
}
template <typename T>
WS_HEAP_FN void HeapDelete(T* p) {
  if (p == nullptr) return;
  // The whole object's first byte (a base class's pointer to a derived object: its own).
  // (No RTTI in device code on a GPU, whose heap frees a block by any address inside it.)
  void* whole = static_cast<void*>(p);
#if !defined(WS_PROGRAM_GPU)
  if constexpr (std::is_polymorphic_v<T>) whole = dynamic_cast<void*>(p);
#endif
  p->~T();
  HeapFree(whole);
}
template <typename T>
WS_HEAP_FN void HeapDeleteArray(T* p) {
  if (p == nullptr) return;
  unsigned char* block = reinterpret_cast<unsigned char*>(p) - 16;
  const std::size_t n = *reinterpret_cast<std::size_t*>(block);
  for (std::size_t i = n; i > 0; --i) p[i - 1].~T();
  HeapFree(block);
}
}  // namespace ws::prog
#undef WS_HEAP_FN

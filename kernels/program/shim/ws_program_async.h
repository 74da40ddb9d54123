// Asynchronous copies from global to shared memory on the emulator: CUDA's primitives
// (cuda_pipeline_primitives.h) __pipeline_memcpy_async, __pipeline_commit and
// __pipeline_wait_prior (runtime: emu_async.cpp). A copy is recorded as a global read where it
// is issued and, at the wait that covers it, lands in shared memory as a shared write recorded
// at its site. Until then its destination holds what it held before. The rewriter gives each
// __pipeline_memcpy_async its site as a last argument (a number of at least 65,536).
#pragma once

#include <cstddef>

#include "ws_program.h"  // WS_PD

namespace ws::prog {
void AsyncCopy(void* dst, const void* src, std::size_t bytes, std::size_t zfill,
               unsigned int place);
void AsyncCommit();
// `place`: a __pipeline_wait_prior's call, whose N must be 0 to 8 (~0u: a pipeline's, unchecked).
void AsyncWaitPrior(std::size_t prior, unsigned int place = ~0u);
// What the emulator does not copy yet (cuda/pipeline, cuda/barrier, cooperative_groups/
// memcpy_async.h): stops the launch at `place`, naming it.
[[noreturn]] void AsyncNotYet(const char* what, unsigned int place);
// Whether a copy of `bytes` from `src` into `dst` is from global into shared memory (a group's
// copy, cooperative_groups/memcpy_async.h).
bool AsyncGlobalToShared(const void* dst, const void* src, std::size_t bytes, unsigned int place);
}  // namespace ws::prog

#if defined(WS_PROGRAM_PARSE)
// The rewriter reads the program as written, CUDA's signature.
WS_PD void __pipeline_memcpy_async(void* dst, const void* src, std::size_t size_and_align,
                                   std::size_t zfill = 0);
#else
WS_PD inline void __pipeline_memcpy_async(void* dst, const void* src, std::size_t size_and_align,
                                          std::size_t zfill, unsigned int place) {
  ::ws::prog::AsyncCopy(dst, src, size_and_align, zfill, place);
}
// Written with three arguments, the site is the fourth; a call the rewriter left alone (inside
// a macro) with four has its zero-fill there, under 65,536.
WS_PD inline void __pipeline_memcpy_async(void* dst, const void* src, std::size_t size_and_align,
                                          unsigned int place) {
  if (place < 65536u)
    ::ws::prog::AsyncCopy(dst, src, size_and_align, place, 0);
  else
    ::ws::prog::AsyncCopy(dst, src, size_and_align, 0, place);
}
WS_PD inline void __pipeline_memcpy_async(void* dst, const void* src, std::size_t size_and_align) {
  ::ws::prog::AsyncCopy(dst, src, size_and_align, 0, 0);  // (left alone: no site)
}
#endif
WS_PD inline void __pipeline_commit() {
  ::ws::prog::AsyncCommit();
}
WS_PD inline void __pipeline_wait_prior(std::size_t prior, unsigned int line = __builtin_LINE(),
                                        const char* file = __builtin_FILE()) {
  ::ws::prog::AsyncWaitPrior(prior, ::ws::prog::PlaceOf(file, line));
}

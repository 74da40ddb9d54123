// A lesson kernel on the SIMT path (docs/ENGINE.md, "Lessons on the SIMT path"). The build
// (warpscope-rewrite --lesson-form) appends to each plain-CUDA lesson file, after the recording
// API's kernels, the program rewrite's warp function of each kernel: in namespace ws_simt, named
// as the kernel, taking plain pointers, each access keyed by the lessons' own place (the file's
// tag and the line), so that its sites are the recording API's. A kernel the SIMT rewrite cannot
// express is a NoWarp there, which names why. The emulator's WS_LAUNCH (emu_backend.h) runs the
// warp function where there is one (LessonWarp), the recording API's kernel once per thread
// otherwise. Host build only: included by emu_backend.h.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>

#include "warpscope/kernels/emu_runtime.h"
#include "warpscope/kernels/ws_cuda.h"
#include "warpscope/kernels/ws_program_simt.h"
#include "warpscope/trace/ws_cuda_keys.h"

#define WS_SIMT 1         // the warp functions' own guard (as in a program's build)
#define WS_LESSON_SIMT 1  // the lesson files' block of warp functions

namespace ws::prog {
// What a warp function names of the program shim: a barrier's place, (file tag, line); the
// launch's dynamic shared memory (extern __shared__ T s[]).
constexpr unsigned int PlaceOf(const char* file, unsigned int line) {
  return MakePlace(FileTag(file), line);
}
template <typename T>
T* Dyn() {
  std::uint32_t bytes = 0, offset = 0;
  return reinterpret_cast<T*>(emu::DynamicSharedMemory(&bytes, &offset));
}
}  // namespace ws::prog

namespace ws_simt {
// atomicAdd on a plain pointer, as a warp function calls it (the recording API's takes &a[i]).
template <typename T, typename U>
T atomicAdd(T* p, U v) {
  return std::atomic_ref<T>(*p).fetch_add(static_cast<T>(v));
}
// A lesson's texture as its warp functions take a cudaTextureObject_t parameter: the driver's
// Texture2D<T> (ws::simt::Raw), and tex2D<T>(t, x, y) on it (the rewriter puts the fetch's place
// last): texel (floor(x), floor(y)), clamped, recorded at the layout's address (as
// Texture2D::Fetch records it) and read at its own.
using cudaTextureObject_t = const void*;
template <typename T>
T tex2D(cudaTextureObject_t object, float fx, float fy, unsigned int place) {
  const auto& t = *static_cast<const ::ws::Texture2D<T>*>(object);
  int x = static_cast<int>(std::floor(fx)), y = static_cast<int>(std::floor(fy));
  const T* texel = t.data() + t.Clamp(&x, &y, place);
  const char* at = reinterpret_cast<const char*>(t.data()) + t.layout().Index(x, y) * sizeof(T);
  ::ws::simt::TakeTexelAt(at, texel, sizeof(T), place);
  return *texel;
}
}  // namespace ws_simt

namespace ws::simt {

// A lesson kernel without a warp function, and why (the rewriter's reason).
struct NoWarp {
  const char* why;
};

// A lesson's arrays (its backend's buffers, the block's __shared__ arrays) for the SIMT runtime.
extern const Classifier kLessonClassifier;
// A warp function's __shared__ array (WS_PROGRAM_SHARED): placed in the block's shared memory as
// the recording API places its SharedArray, on the array's first use in the launch.
struct LessonSharedSlot {
  std::uint32_t tag = 0, base = 0;
};
void LessonShared(void* p, std::uint32_t bytes, LessonSharedSlot* slot);

// A lesson kernel's argument as its warp function takes it: a buffer's pointer, else as it is.
template <typename T>
T* Raw(const Global<T>& g) {
  return g.data();
}
template <typename T>
const void* Raw(const Texture2D<T>& t) {  // (ws_simt::cudaTextureObject_t)
  return &t;
}
template <typename T>
const T& Raw(const T& v) {
  return v;
}

// A lesson's __constant__ array as its warp functions index it (WS_LESSON_CONSTANT_VIEW): element i
// of the buffer the running launch binds it to (ws::emu::ConstantSymbol).
template <typename A>
struct LessonConstant {
  const A* symbol;
  const typename A::value_type& operator[](long long i) const {
    std::uint32_t buffer = 0;
    return static_cast<const typename A::value_type*>(
        ::ws::emu::ConstantSymbol(symbol, &buffer, 0))[i];
  }
};

// WS_LAUNCH's warp call: null after running the warp function `f` for `*w` (with `w` null: only
// says that there is one), or why the kernel has none.
template <typename... P, typename... A>
const char* LessonWarp(void (*f)(Warp&, P...), Warp* w, const A&... a) {
  if (w != nullptr) f(*w, Raw(a)...);
  return nullptr;
}
template <typename... A>
const char* LessonWarp(const NoWarp& none, Warp*, const A&...) {
  return none.why;
}

}  // namespace ws::simt

// A lesson's constant array (ws_cuda_arrays.h's ConstantArray) as its warp functions index it:
// its buffer's elements (lesson_simt.cpp keys their loads in the constant space).
#undef WS_LESSON_CONSTANT_VIEW
#define WS_LESSON_CONSTANT_VIEW(name)                                                           \
  namespace ws_simt {                                                                           \
  static const ::ws::simt::LessonConstant<std::remove_cvref_t<decltype(::name)>> name{&::name}; \
  }                                                                                             \
  static_assert(true)

#define WS_PROGRAM_SHARED(name, slot)                                                      \
  {                                                                                        \
    static thread_local ::ws::simt::LessonSharedSlot ws_slot;                              \
    ::ws::simt::LessonShared(&(name), static_cast<std::uint32_t>(sizeof(name)), &ws_slot); \
  }

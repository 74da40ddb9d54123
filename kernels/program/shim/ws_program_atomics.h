// The texture fetches and atomics device code calls in a program on the emulator (part of
// ws_program_device.h, which includes it at its end).
#pragma once

// ------------------------------------------------------------------------------------------------
// Texture fetches: the rewriter passes each call's site (`place`), and the runtime records a
// texture read of the texel fetched (for linear filtering: the texel at the lower corner).
// ------------------------------------------------------------------------------------------------
namespace ws::prog {
// `dims`: 0 tex1Dfetch (an integer index), 1 tex1D, 2 tex2D. `floating`: T's components are
// floats (normalized reads and filtering give floats).
void TexFetch(unsigned long long object, int dims, float x, float y, unsigned int place, void* out,
              unsigned int bytes, bool floating);
}  // namespace ws::prog
template <typename T>
WS_PD inline T tex1Dfetch(cudaTextureObject_t t, int x, unsigned int place = 0) {
  T v{};
  ::ws::prog::TexFetch(t, 0, static_cast<float>(x), 0.0f, place, &v, sizeof(T),
                       ::ws::prog::Channel<T>::kind == 2);
  return v;
}
template <typename T>
WS_PD inline T tex1D(cudaTextureObject_t t, float x, unsigned int place = 0) {
  T v{};
  ::ws::prog::TexFetch(t, 1, x, 0.0f, place, &v, sizeof(T), ::ws::prog::Channel<T>::kind == 2);
  return v;
}
template <typename T>
WS_PD inline T tex2D(cudaTextureObject_t t, float x, float y, unsigned int place = 0) {
  T v{};
  ::ws::prog::TexFetch(t, 2, x, y, place, &v, sizeof(T), ::ws::prog::Channel<T>::kind == 2);
  return v;
}
// A layered, cubemap or 3D array's fetch (TexFetchIn's `kind`).
namespace ws::prog {
enum TexKind { kTex3D = 3, kTex1DLayered, kTex2DLayered, kTexCubemap, kTexCubemapLayered };
void TexFetchIn(unsigned long long object, int kind, float x, float y, float z, int layer,
                unsigned int place, void* out, unsigned int bytes, bool floating);
template <typename T>
WS_PD inline T TexIn(cudaTextureObject_t t, int kind, float x, float y, float z, int layer,
                     unsigned int place) {
  T v{};
  TexFetchIn(t, kind, x, y, z, layer, place, &v, sizeof(T), Channel<T>::kind == 2);
  return v;
}
}  // namespace ws::prog
template <typename T>
WS_PD inline T tex3D(cudaTextureObject_t t, float x, float y, float z, unsigned int place = 0) {
  return ::ws::prog::TexIn<T>(t, ::ws::prog::kTex3D, x, y, z, 0, place);
}
template <typename T>
WS_PD inline T tex1DLayered(cudaTextureObject_t t, float x, int layer, unsigned int place = 0) {
  return ::ws::prog::TexIn<T>(t, ::ws::prog::kTex1DLayered, x, 0.5f, 0, layer, place);
}
template <typename T>
WS_PD inline T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer,
                            unsigned int place = 0) {
  return ::ws::prog::TexIn<T>(t, ::ws::prog::kTex2DLayered, x, y, 0, layer, place);
}
template <typename T>
WS_PD inline T texCubemap(cudaTextureObject_t t, float x, float y, float z,
                          unsigned int place = 0) {
  return ::ws::prog::TexIn<T>(t, ::ws::prog::kTexCubemap, x, y, z, 0, place);
}
template <typename T>
WS_PD inline T texCubemapLayered(cudaTextureObject_t t, float x, float y, float z, int layer,
                                 unsigned int place = 0) {
  return ::ws::prog::TexIn<T>(t, ::ws::prog::kTexCubemapLayered, x, y, z, layer, place);
}

// ------------------------------------------------------------------------------------------------
// Atomics: the rewriter wraps their address argument (ws::prog::At) so that each is recorded.
// ------------------------------------------------------------------------------------------------
namespace ws::prog {
template <typename T>
WS_PD inline T AtomicRmw(T* p, T v, int op) {
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  for (;;) {
    T next = old;
    switch (op) {
      case 0:
        next = old + v;
        break;
      case 1:
        next = old - v;
        break;
      case 2:
        next = v < old ? v : old;
        break;
      case 3:
        next = v > old ? v : old;
        break;
      case 4:
        next = v;
        break;
    }
    if (__atomic_compare_exchange(p, &old, &next, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
      return old;
  }
}
template <typename T>
WS_PD inline T AtomicBits(T* p, T v, int op) {
  switch (op) {
    case 0:
      return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
    case 1:
      return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
    default:
      return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
  }
}
}  // namespace ws::prog
#define WS_ATOMIC_RMW(NAME, OP, T)             \
  WS_PD inline T NAME(T* p, T v) {             \
    return ::ws::prog::AtomicRmw<T>(p, v, OP); \
  }
#define WS_ATOMIC_BITS(NAME, OP, T)             \
  WS_PD inline T NAME(T* p, T v) {              \
    return ::ws::prog::AtomicBits<T>(p, v, OP); \
  }
WS_ATOMIC_RMW(atomicAdd, 0, int)
WS_ATOMIC_RMW(atomicAdd, 0, unsigned int)
WS_ATOMIC_RMW(atomicAdd, 0, unsigned long long)
WS_ATOMIC_RMW(atomicAdd, 0, float)
WS_ATOMIC_RMW(atomicAdd, 0, double)
WS_ATOMIC_RMW(atomicSub, 1, int)
WS_ATOMIC_RMW(atomicSub, 1, unsigned int)
WS_ATOMIC_RMW(atomicMin, 2, int)
WS_ATOMIC_RMW(atomicMin, 2, unsigned int)
WS_ATOMIC_RMW(atomicMin, 2, long long)
WS_ATOMIC_RMW(atomicMin, 2, unsigned long long)
WS_ATOMIC_RMW(atomicMax, 3, int)
WS_ATOMIC_RMW(atomicMax, 3, unsigned int)
WS_ATOMIC_RMW(atomicMax, 3, long long)
WS_ATOMIC_RMW(atomicMax, 3, unsigned long long)
WS_ATOMIC_RMW(atomicExch, 4, int)
WS_ATOMIC_RMW(atomicExch, 4, unsigned int)
WS_ATOMIC_RMW(atomicExch, 4, unsigned long long)
WS_ATOMIC_RMW(atomicExch, 4, float)
WS_ATOMIC_BITS(atomicAnd, 0, int)
WS_ATOMIC_BITS(atomicAnd, 0, unsigned int)
WS_ATOMIC_BITS(atomicAnd, 0, unsigned long long)
WS_ATOMIC_BITS(atomicOr, 1, int)
WS_ATOMIC_BITS(atomicOr, 1, unsigned int)
WS_ATOMIC_BITS(atomicOr, 1, unsigned long long)
WS_ATOMIC_BITS(atomicXor, 2, int)
WS_ATOMIC_BITS(atomicXor, 2, unsigned int)
WS_ATOMIC_BITS(atomicXor, 2, unsigned long long)
#undef WS_ATOMIC_RMW
#undef WS_ATOMIC_BITS
#define WS_ATOMIC_CAS(T)                                                                        \
  WS_PD inline T atomicCAS(T* p, T compare, T value) {                                          \
    __atomic_compare_exchange_n(p, &compare, value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    return compare;                                                                             \
  }
WS_ATOMIC_CAS(int)
WS_ATOMIC_CAS(unsigned int)
WS_ATOMIC_CAS(unsigned long long)
#undef WS_ATOMIC_CAS
WS_PD inline unsigned int atomicInc(unsigned int* p, unsigned int limit) {
  unsigned int old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, old >= limit ? 0u : old + 1u, false,
                                      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
  }
  return old;
}
WS_PD inline unsigned int atomicDec(unsigned int* p, unsigned int limit) {
  unsigned int old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &old, (old == 0u || old > limit) ? limit : old - 1u, false,
                                      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
  }
  return old;
}

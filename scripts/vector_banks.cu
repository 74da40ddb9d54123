// Standalone probe: how many shared-memory wavefronts (and bank conflicts) one warp-level shared
// load/store costs at access widths 4, 8 and 16 bytes, for a set of address patterns, plus
// global requests/sectors for 4/8/16-byte loads and stores. Run under Nsight Compute by
// scripts/gpu-vector-banks.sh; no project headers.
//
// Every shared kernel is launched as one block of 1024 threads (32 warps) and each warp executes
// exactly one instance of the tested instruction (forced to its width with inline PTX); there is
// no other shared-memory instruction in the kernel, so kernel-level counters count only it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define SMEM_BYTES 32768

// ---- width-forced shared accesses (a = 32-bit shared-window address) ----
// The load kernels write what they loaded to global memory. Built with -DQUIET_LD they write it
// only when it equals a value the (uninitialised) shared buffer practically never holds, so
// almost no global store runs beside the shared loads (asm volatile keeps the load either way):
// a check on whether the loads' wavefront counts move with concurrent global-store traffic.
#ifdef QUIET_LD
#define KEEP(o, i, v) \
  if ((v) == 0x9e3779b9u) (o)[i] = (v)
#else
#define KEEP(o, i, v) (o)[i] = (v)
#endif
#define LD_W4(a, o)                                                                         \
  do {                                                                                      \
    unsigned x0;                                                                            \
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x0) : "r"(a) : "memory");                 \
    KEEP(o, 0, x0);                                                                         \
  } while (0)
#define LD_W8(a, o)                                                                         \
  do {                                                                                      \
    unsigned x0, x1;                                                                        \
    asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "r"(a) : "memory"); \
    KEEP(o, 0, x0);                                                                         \
    KEEP(o, 1, x1);                                                                         \
  } while (0)
#define LD_W16(a, o)                                                                        \
  do {                                                                                      \
    unsigned x0, x1, x2, x3;                                                                \
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"                                 \
                 : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3)                                   \
                 : "r"(a)                                                                   \
                 : "memory");                                                               \
    KEEP(o, 0, x0);                                                                         \
    KEEP(o, 1, x1);                                                                         \
    KEEP(o, 2, x2);                                                                         \
    KEEP(o, 3, x3);                                                                         \
  } while (0)
#define ST_W4(a, t) asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(t) : "memory")
#define ST_W8(a, t) \
  asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(t), "r"((t) + 1u) : "memory")
#define ST_W16(a, t)                                                                    \
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(t), "r"((t) + 1u), \
               "r"((t) + 2u), "r"((t) + 3u)                                             \
               : "memory")

// OFF: byte offset as an expression of `lane` and `W`; GUARD: which lanes execute.
#define SH_KERNELS(W, NAME, OFF, GUARD)                                                  \
  extern "C" __global__ void __launch_bounds__(1024) sh_ld_w##W##_##NAME(unsigned* out) { \
    __shared__ __align__(16) unsigned char buf[SMEM_BYTES];                              \
    const unsigned lane = threadIdx.x % 32u;                                             \
    (void)lane;                                                                          \
    const unsigned off = (OFF);                                                          \
    const unsigned a = (unsigned)__cvta_generic_to_shared(buf) + off;                    \
    if (GUARD) LD_W##W(a, out + threadIdx.x * 4u);                                       \
  }                                                                                      \
  extern "C" __global__ void __launch_bounds__(1024) sh_st_w##W##_##NAME(unsigned* out) { \
    __shared__ __align__(16) unsigned char buf[SMEM_BYTES];                              \
    (void)out;                                                                           \
    const unsigned lane = threadIdx.x % 32u;                                             \
    (void)lane;                                                                          \
    const unsigned off = (OFF);                                                          \
    const unsigned a = (unsigned)__cvta_generic_to_shared(buf) + off;                    \
    const unsigned t = threadIdx.x * 4u + 1u;                                            \
    if (GUARD) ST_W##W(a, t);                                                            \
  }

#define ALL_PATTERNS(W)                                                                   \
  SH_KERNELS(W, stride1, lane * W, true)                                                  \
  SH_KERNELS(W, broadcast, 0u, true)                                                      \
  SH_KERNELS(W, half_bcast, (lane / 16u) * W, true)                                       \
  SH_KERNELS(W, quarter_bcast, (lane / 8u) * W, true)                                     \
  SH_KERNELS(W, mod16, (lane % 16u) * W, true)                                            \
  SH_KERNELS(W, mod8, (lane % 8u) * W, true)                                              \
  SH_KERNELS(W, stride2, lane * 2u * W, true)                                             \
  SH_KERNELS(W, column, lane * 128u, true)                                                \
  SH_KERNELS(W, padded, lane*(128u + W), true)                                            \
  SH_KERNELS(W, swizzled, lane * 128u + (lane % (128u / W)) * W, true)                    \
  SH_KERNELS(W, pairswap, (lane ^ 1u) * W, true)                                          \
  SH_KERNELS(W, reverse, (31u - lane) * W, true)                                          \
  SH_KERNELS(W, perm, ((lane * 7u) % 32u) * W, true)                                      \
  SH_KERNELS(W, half_active, lane * W, lane < 16u)                                        \
  SH_KERNELS(W, stride2_64B, lane * 64u, true)

ALL_PATTERNS(4)
ALL_PATTERNS(8)
ALL_PATTERNS(16)

// ---- load-only patterns (W = 8 and 16): when do the half/quarter-warp phases of a wide load
// merge? `e` = element index, byte offset = e * W. ----
#define SH_LD_ONLY(W, NAME, ELEM, GUARD)                                                  \
  extern "C" __global__ void __launch_bounds__(1024) sh_ld_w##W##_##NAME(unsigned* out) { \
    __shared__ __align__(16) unsigned char buf[SMEM_BYTES];                              \
    const unsigned lane = threadIdx.x % 32u;                                             \
    (void)lane;                                                                          \
    const unsigned off = (ELEM) * (unsigned)W;                                           \
    const unsigned a = (unsigned)__cvta_generic_to_shared(buf) + off;                    \
    if (GUARD) LD_W##W(a, out + threadIdx.x * 4u);                                       \
  }

#define LD_PATTERNS(W)                                                                    \
  SH_LD_ONLY(W, two_far, ((lane < 16u) ? 0u : 8u), true)                                 \
  SH_LD_ONLY(W, four_far, ((lane / 8u) * 4u), true)                                      \
  SH_LD_ONLY(W, four_near16, (lane / 8u), true)                                          \
  SH_LD_ONLY(W, mod4, (lane % 4u), true)                                                 \
  SH_LD_ONLY(W, mod5, (lane % 5u), true)                                                 \
  SH_LD_ONLY(W, mod6, (lane % 6u), true)                                                 \
  SH_LD_ONLY(W, halves4, ((lane < 16u) ? lane % 4u : 4u + lane % 4u), true)              \
  SH_LD_ONLY(W, two_conflict, ((lane < 16u) ? 0u : 128u / W), true)                      \
  SH_LD_ONLY(W, alt_conflict, ((lane % 2u) ? 128u / W : 0u), true)                       \
  SH_LD_ONLY(W, mod3, (lane % 3u), true)                                                 \
  SH_LD_ONLY(W, four_conflict, ((lane / 8u) * (128u / W)), true)                         \
  SH_LD_ONLY(W, mod2, (lane % 2u), true)                                                 \
  SH_LD_ONLY(W, eighths, (lane / 4u), true)                                              \
  SH_LD_ONLY(W, mod4_far, ((lane % 4u) * 4u), true)                                      \
  SH_LD_ONLY(W, quarter_same, ((lane % 8u < 4u) ? 0u : 1u), true)                        \
  SH_LD_ONLY(W, half_active_bcast, 0u, lane < 16u)                                       \
  SH_LD_ONLY(W, one_lane, 0u, lane == 0u)                                                \
  SH_LD_ONLY(W, mod16_far, ((lane % 16u) * 2u), true)                                   \
  SH_LD_ONLY(W, quad_pairs, ((lane % 8u < 4u) ? lane % 2u : 2u + lane % 2u), true)        \
  SH_LD_ONLY(W, quad_split3, ((lane % 8u < 4u) ? 0u : 1u + lane % 2u), true)              \
  SH_LD_ONLY(W, mod2_far, ((lane % 2u) * 4u), true)                                      \
  SH_LD_ONLY(W, half_mixed, ((lane < 16u) ? 0u : lane - 16u), true)                      \
  SH_LD_ONLY(W, quarter_one_wide, ((lane < 8u) ? lane : 0u), true)                       \
  SH_LD_ONLY(W, q02_active, lane, (lane / 8u) % 2u == 0u)                                \
  SH_LD_ONLY(W, quarter_same_conflict, ((lane % 8u < 4u) ? 0u : 128u / W), true)        \
  SH_LD_ONLY(W, quad_aabb, ((lane % 4u) / 2u), true)                                     \
  SH_LD_ONLY(W, quad_abba, ((lane % 4u == 0u || lane % 4u == 3u) ? 0u : 1u), true)

LD_PATTERNS(8)
LD_PATTERNS(16)

// ---- global loads/stores: each warp its own region; stride S elements of W bytes ----
#define GLD_W4(p, v)                                                               \
  do {                                                                             \
    unsigned x0;                                                                   \
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(x0) : "l"(p) : "memory");        \
    v = x0;                                                                        \
  } while (0)
#define GLD_W8(p, v)                                                                           \
  do {                                                                                         \
    unsigned x0, x1;                                                                           \
    asm volatile("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(x0), "=r"(x1) : "l"(p) : "memory"); \
    v = x0 ^ x1;                                                                               \
  } while (0)
#define GLD_W16(p, v)                                                 \
  do {                                                                \
    unsigned x0, x1, x2, x3;                                          \
    asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];"           \
                 : "=r"(x0), "=r"(x1), "=r"(x2), "=r"(x3)             \
                 : "l"(p)                                             \
                 : "memory");                                         \
    v = x0 ^ x1 ^ x2 ^ x3;                                            \
  } while (0)
#define GST_W4(p, t) asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(t) : "memory")
#define GST_W8(p, t) \
  asm volatile("st.global.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(t), "r"((t) + 1u) : "memory")
#define GST_W16(p, t)                                                                     \
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(t), "r"((t) + 1u), \
               "r"((t) + 2u), "r"((t) + 3u)                                               \
               : "memory")

// The buffer is zeroed by the host, so the load kernels' guarded store never runs: their
// global-store counters stay at zero and the load counters count only the tested load.
#define GL_KERNELS(W, NAME, S)                                                                   \
  extern "C" __global__ void __launch_bounds__(1024) gl_ld_w##W##_##NAME(unsigned char* buf,    \
                                                                         unsigned* out) {       \
    const unsigned lane = threadIdx.x % 32u, warp = threadIdx.x / 32u;                          \
    const unsigned char* p = buf + warp * 32u * S * W + lane * S * W;                           \
    unsigned v;                                                                                 \
    GLD_W##W(p, v);                                                                             \
    if (v == 0x9e3779b9u) out[threadIdx.x] = v;                                                 \
  }                                                                                             \
  extern "C" __global__ void __launch_bounds__(1024) gl_st_w##W##_##NAME(unsigned char* buf,    \
                                                                         unsigned* out) {       \
    (void)out;                                                                                  \
    const unsigned lane = threadIdx.x % 32u, warp = threadIdx.x / 32u;                          \
    unsigned char* p = buf + warp * 32u * S * W + lane * S * W;                                 \
    const unsigned t = threadIdx.x * 4u + 1u;                                                   \
    GST_W##W(p, t);                                                                             \
  }

GL_KERNELS(4, stride1, 1u)
GL_KERNELS(4, stride2, 2u)
GL_KERNELS(8, stride1, 1u)
GL_KERNELS(8, stride2, 2u)
GL_KERNELS(16, stride1, 1u)
GL_KERNELS(16, stride2, 2u)

// ---- host ----
typedef void (*ShKernel)(unsigned*);
typedef void (*GlKernel)(unsigned char*, unsigned*);

#define SH_ENTRY(W, NAME)                                                                \
  {"sh_ld_w" #W "_" #NAME, sh_ld_w##W##_##NAME}, {"sh_st_w" #W "_" #NAME, sh_st_w##W##_##NAME},
#define SH_ENTRIES(W)                                                                        \
  SH_ENTRY(W, stride1) SH_ENTRY(W, broadcast) SH_ENTRY(W, half_bcast) SH_ENTRY(W, quarter_bcast) \
  SH_ENTRY(W, mod16) SH_ENTRY(W, mod8) SH_ENTRY(W, stride2) SH_ENTRY(W, column)                \
  SH_ENTRY(W, padded) SH_ENTRY(W, swizzled) SH_ENTRY(W, pairswap) SH_ENTRY(W, reverse)        \
  SH_ENTRY(W, perm) SH_ENTRY(W, half_active) SH_ENTRY(W, stride2_64B)

struct ShEntry { const char* name; ShKernel fn; };
struct GlEntry { const char* name; GlKernel fn; };

#define LD_ENTRY(W, NAME) {"sh_ld_w" #W "_" #NAME, sh_ld_w##W##_##NAME},
#define LD_ENTRIES(W)                                                                      \
  LD_ENTRY(W, two_far) LD_ENTRY(W, four_far) LD_ENTRY(W, four_near16) LD_ENTRY(W, mod4)      \
  LD_ENTRY(W, mod5) LD_ENTRY(W, mod6) LD_ENTRY(W, halves4) LD_ENTRY(W, two_conflict)        \
  LD_ENTRY(W, alt_conflict) LD_ENTRY(W, mod3) LD_ENTRY(W, four_conflict) LD_ENTRY(W, mod2)  \
  LD_ENTRY(W, eighths) LD_ENTRY(W, mod4_far) LD_ENTRY(W, quarter_same)                      \
  LD_ENTRY(W, half_active_bcast) LD_ENTRY(W, one_lane) LD_ENTRY(W, mod16_far)                \
  LD_ENTRY(W, quad_pairs) LD_ENTRY(W, quad_split3) LD_ENTRY(W, mod2_far) LD_ENTRY(W, half_mixed) \
  LD_ENTRY(W, quarter_one_wide) LD_ENTRY(W, q02_active) LD_ENTRY(W, quarter_same_conflict)  \
  LD_ENTRY(W, quad_aabb) LD_ENTRY(W, quad_abba)

static const ShEntry kShared[] = {SH_ENTRIES(4) SH_ENTRIES(8) SH_ENTRIES(16) LD_ENTRIES(8)
                                      LD_ENTRIES(16)};
#define GL_ENTRY(W, NAME) \
  {"gl_ld_w" #W "_" #NAME, gl_ld_w##W##_##NAME}, {"gl_st_w" #W "_" #NAME, gl_st_w##W##_##NAME},
static const GlEntry kGlobal[] = {GL_ENTRY(4, stride1) GL_ENTRY(4, stride2) GL_ENTRY(8, stride1)
                                      GL_ENTRY(8, stride2) GL_ENTRY(16, stride1)
                                          GL_ENTRY(16, stride2)};

#define CK(x)                                                                          \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
  unsigned* out = nullptr;
  unsigned char* gbuf = nullptr;
  const size_t outBytes = 1024 * 4 * sizeof(unsigned);
  const size_t gBytes = 32u * 32u * 2u * 16u;  // 32 warps x 32 lanes x stride 2 x 16 B
  CK(cudaMalloc(&out, outBytes));
  CK(cudaMalloc(&gbuf, gBytes));
  CK(cudaMemset(out, 0, outBytes));
  CK(cudaMemset(gbuf, 0, gBytes));
  int n = 0;
  for (const ShEntry& k : kShared) {
    k.fn<<<1, 1024>>>(out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    ++n;
  }
  for (const GlEntry& k : kGlobal) {
    k.fn<<<1, 1024>>>(gbuf, out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    ++n;
  }
  printf("launched %d kernels\n", n);
  CK(cudaFree(out));
  CK(cudaFree(gbuf));
  return 0;
}

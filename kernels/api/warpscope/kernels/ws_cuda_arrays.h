// Global<T>, SharedArray<T, ...> and their access proxies (see ws_cuda.h for the recipe).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "warpscope/trace/ws_cuda_layout.h"

#if !WS_DEVICE_CODE
#include <atomic>
#endif

namespace ws {
namespace detail {

// In a .cu file nvcc compiles these helpers twice; kernels only ever run in the device pass, so
// nvcc's host pass gets no-ops (it must still compile them).
// `where`: the element (the emulator reads the value a load sees and a store leaves there);
// `file`: the site's file literal (Index::file), which a GPU notes where the host meets the site.
WS_HD inline void Record(std::uint64_t key, std::uint32_t offset, const void* where = nullptr,
                         const char* file = nullptr) {
#if defined(__CUDA_ARCH__)
  (void)where;
  dev::RecordSiteAccess(key, offset, file);
#elif !WS_DEVICE_CODE
  (void)file;
  emu::RecordAccess(key, offset, where);
#else
  (void)key, (void)offset, (void)where, (void)file;
#endif
}

// A load's record and its value. In the lane unit (WS_LANE_LOG_BUILD) the load comes first: the
// record's stores to global memory after it, ptxas need not hold the load back behind stores it
// cannot tell from the kernel's own, and the record's instructions run while the load is on its
// way. Elsewhere the record comes first, as the emulator needs (it reads the value a load sees).
template <typename V, typename Read>
WS_HD V Loaded(std::uint64_t key, std::uint32_t offset, const void* where, const char* file,
               Read read) {
#if defined(__CUDA_ARCH__) && defined(WS_LANE_LOG_BUILD)
  const V v = read();
  Record(key, offset, where, file);
  return v;
#else
  Record(key, offset, where, file);
  return read();
#endif
}

// A store and its record. In the lean unit (WS_WARP_STATE_BUILD, lessons_cuda_lean.cu) the store
// comes first, so that the value stored dies at its store: held across the record's code under the
// unit's 32 registers it was a spill, and the local store waited for the value (the padded
// transpose's `tile[ty][tx] = idata[i]`: its global load's value stored to the stack and loaded
// back around the shared store's record, ptxas, nvcc 13). The records' order is the source's
// either way; only the store moves, and only in that unit's device code, where the record reads
// no memory. The other builds and the emulator record first, as before.
template <typename Write>
WS_HD void Stored(std::uint64_t key, std::uint32_t offset, const void* where, const char* file,
                  Write write) {
#if defined(__CUDA_ARCH__) && defined(WS_WARP_STATE_BUILD)
  write();
  Record(key, offset, where, file);
#else
  Record(key, offset, where, file);
  write();
#endif
}

WS_HD inline void Check(long long index, unsigned long long count, std::uint32_t place,
                        const char* what) {
#if WS_DEVICE_CODE
  (void)index, (void)count, (void)place, (void)what;  // the GPU itself reports bad addresses
#else
  if (index < 0 || static_cast<unsigned long long>(index) >= count) {
    emu::CheckIndex(index, count, place, what);
  }
#endif
}

// Where a lesson's __constant__ array's elements are in this launch: on a GPU in the array
// itself (`data`, `buffer`: its bank holds the values); on the emulator the buffer its run's
// CopyToSymbol bound to the symbol, which the array does not hold (two runs in one process at
// once each bind their own).
WS_HD inline const void* ConstantData(const void* symbol, const void* data, std::uint32_t* buffer,
                                      std::uint32_t place) {
#if defined(__CUDA_ARCH__) || WS_DEVICE_CODE
  (void)symbol, (void)buffer, (void)place;
  return data;
#else
  (void)data;
  return emu::ConstantSymbol(symbol, buffer, place);
#endif
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Global memory
// ---------------------------------------------------------------------------------------------
template <typename T>
class GlobalAddr;

// What a[i] on a Global<T> returns: reading records a load, assigning records a store.
template <typename T>
class GlobalRef {
 public:
  using Value = std::remove_const_t<T>;
  static_assert(sizeof(Value) <= 16,
                "a thread accesses at most 16 bytes at once (float4, double2)");
  WS_HD GlobalRef(T* p, std::uint32_t offset, std::uint32_t place, std::uint32_t buffer,
                  const char* file = nullptr)
      : p_(p), offset_(offset), place_(place), buffer_(buffer), file_(file) {}

  WS_HD operator Value() const {  // NOLINT: implicit, so a[i] reads like a value
    return detail::Loaded<Value>(Key(kKeyLoad), offset_, p_, file_, [this] { return *p_; });
  }
  WS_HD GlobalRef& operator=(Value v) {
    detail::Stored(Key(kKeyStore), offset_, p_, file_, [this, &v] { *p_ = v; });
    return *this;
  }
  // out[i] = out[j]: load, then store (never the implicit proxy copy).
  WS_HD GlobalRef& operator=(const GlobalRef& other) { return *this = static_cast<Value>(other); }
  WS_HD GlobalRef& operator+=(Value v) { return *this = static_cast<Value>(*this) + v; }
  WS_HD GlobalRef& operator-=(Value v) { return *this = static_cast<Value>(*this) - v; }
  WS_HD GlobalRef& operator*=(Value v) { return *this = static_cast<Value>(*this) * v; }
  WS_HD GlobalAddr<T> operator&() const {
    return GlobalAddr<T>(p_, offset_, place_, buffer_, file_);
  }

  WS_HD std::uint64_t Key(std::uint32_t op) const {
    return MakeSiteKey(place_, kKeyGlobal, op, sizeof(Value), buffer_);
  }
  WS_HD std::uint32_t offset() const { return offset_; }
  // The element itself, read or written with no record (Unrecorded, below).
  WS_HD T& Plain() const { return *p_; }

 private:
  T* p_;
  std::uint32_t offset_, place_, buffer_;
  const char* file_;
};

// &a[i]: the address an atomic works on.
template <typename T>
class GlobalAddr {
 public:
  WS_HD GlobalAddr(T* p, std::uint32_t offset, std::uint32_t place, std::uint32_t buffer,
                   const char* file = nullptr)
      : p_(p), offset_(offset), place_(place), buffer_(buffer), file_(file) {}
  WS_HD T* get() const { return p_; }
  WS_HD void RecordAtomic() const {
    detail::Record(MakeSiteKey(place_, kKeyGlobal, kKeyAtomic, sizeof(T), buffer_), offset_, p_,
                   file_);
  }

 private:
  T* p_;
  std::uint32_t offset_, place_, buffer_;
  const char* file_;
};

// A kernel's array parameter: a buffer that the backend allocated (cudaMalloc or host memory).
template <typename T>
class Global {
 public:
  WS_HD Global() : data_(nullptr), count_(0), buffer_(0) {}
  WS_HD Global(T* data, unsigned long long count, std::uint32_t buffer)
      : data_(data), count_(count), buffer_(buffer) {}
  // Global<float> converts to Global<const float>, like float* to const float*.
  template <typename U, typename = std::enable_if_t<std::is_same_v<const U, T>>>
  WS_HD Global(const Global<U>& other)  // NOLINT: implicit on purpose
      : data_(other.data()), count_(other.size()), buffer_(other.buffer()) {}

  WS_HD GlobalRef<T> operator[](Index i) const {
    detail::Check(i.value, count_, i.place, "global array");
    return GlobalRef<T>(data_ + i.value, static_cast<std::uint32_t>(i.value * sizeof(T)), i.place,
                        buffer_, FileOf(i));
  }
  WS_HD T* data() const { return data_; }
  WS_HD unsigned long long size() const { return count_; }
  WS_HD std::uint32_t buffer() const { return buffer_; }

 private:
  T* data_;
  unsigned long long count_;
  std::uint32_t buffer_;
};

// atomicAdd(&a[i], v) on a Global array: records an atomic, then adds.
template <typename T>
WS_HD T atomicAdd(GlobalAddr<T> a, T v) {
  a.RecordAtomic();
#if defined(__CUDA_ARCH__)
  return ::atomicAdd(a.get(), v);
#elif !WS_DEVICE_CODE
  return std::atomic_ref<T>(*a.get()).fetch_add(v);
#else
  (void)v;
  return T{};
#endif
}

// ---------------------------------------------------------------------------------------------
// Constant and texture memory (read-only)
// ---------------------------------------------------------------------------------------------
#if defined(__CUDACC__)
// The GPU's home for lessons' Constant<T> arrays: real __constant__ memory, read through the
// constant cache (one address a warp: one read, broadcast; n addresses: n reads in turn). The
// CUDA runner fills it with cudaMemcpyToSymbol (MakeConstant in cuda_backend.h). Static: one per
// translation unit, as the recorded and the plain build each have their own kernels.
// (Relocatable device code would merge the two builds' banks: the CUDA build compiles without.)
#if defined(__CUDACC_RDC__)
#error "ws_constant_bank is one per translation unit: compile without -rdc"
#endif
inline constexpr unsigned kConstantBankBytes = 8 * 1024;
static __constant__ __align__(16) unsigned char ws_constant_bank[kConstantBankBytes];
#endif

// What c[i] on a Constant<T> (or a texel fetch) returns: reading records a load in its space.
// `bank` (GPU): the element's byte offset in ws_constant_bank, or -1 to read through `p`.
template <typename T, std::uint32_t kSpace>
class ReadOnlyRef {
 public:
  WS_HD ReadOnlyRef(const T* p, std::uint32_t offset, std::uint32_t place, std::uint32_t buffer,
                    long long bank = -1, const char* file = nullptr)
      : p_(p), offset_(offset), place_(place), buffer_(buffer), bank_(bank), file_(file) {}
  WS_HD operator T() const {  // NOLINT: implicit, so c[i] reads like a value
    return detail::Loaded<T>(MakeSiteKey(place_, kSpace, kKeyLoad, sizeof(T), buffer_), offset_, p_,
                             file_, [this]() -> T {
#if defined(__CUDA_ARCH__)
                               // Indexing the __constant__ symbol itself: ld.const (LDC).
                               if (bank_ >= 0)
                                 return *reinterpret_cast<const T*>(ws_constant_bank + bank_);
#endif
                               return *p_;
                             });
  }

 private:
  const T* p_;
  std::uint32_t offset_, place_, buffer_;
  long long bank_;
  const char* file_;
};

// A read-only kernel parameter that lessons treat as __constant__ data: every access is recorded
// in the constant space. On a GPU MakeConstant copies it into ws_constant_bank, so the kernel
// reads real constant memory (a warp's different addresses served one after another); the
// emulator reads the buffer and counts the distinct addresses a request names.
template <typename T>
class Constant {
 public:
  WS_HD Constant() : data_(nullptr), count_(0), buffer_(0), bank_(-1) {}
  WS_HD Constant(const Global<const T>& g)  // NOLINT
      : data_(g.data()), count_(g.size()), buffer_(g.buffer()), bank_(-1) {}
  WS_HD ReadOnlyRef<T, kKeyConstant> operator[](Index i) const {
    detail::Check(i.value, count_, i.place, "constant array");
    const auto offset = static_cast<std::uint32_t>(i.value * sizeof(T));
    return ReadOnlyRef<T, kKeyConstant>(data_ + i.value, offset, i.place, buffer_,
                                        bank_ < 0 ? -1 : bank_ + offset, FileOf(i));
  }
  // Where the CUDA runner put the array in ws_constant_bank (bytes; -1: not there).
  WS_HD void set_bank(long long offset) { bank_ = offset; }
  WS_HD long long bank() const { return bank_; }
  WS_HD const T* data() const { return data_; }
  WS_HD std::uint32_t buffer() const { return buffer_; }

 private:
  const T* data_;
  unsigned long long count_;
  std::uint32_t buffer_;
  long long bank_;
};

// A __constant__ array of N elements at file scope, as a lesson's plain CUDA declares it
// (`__constant__ float coeffs[64];`, which the lesson form turns into `static __constant__
// ::ws::ConstantArray<float, 64> coeffs;`): the host fills it with CopyToSymbol (the backends',
// as cudaMemcpyToSymbol), and c[i] reads as a Constant<T>'s does. An aggregate, so that it may
// be a __constant__ variable on a GPU (no dynamic initialization): on a GPU `data` and `buffer`
// are the buffer the values came from and `bank` where they lie in ws_constant_bank (read there
// with ld.const); on the emulator the array holds nothing and its run's binding says where the
// values are (detail::ConstantData).
template <typename T, unsigned long long N>
struct ConstantArray {
  using value_type = T;
  const T* data;
  std::uint32_t buffer;
  long long bank;
  WS_HD ReadOnlyRef<T, kKeyConstant> operator[](Index i) const {
    detail::Check(i.value, N, i.place, "constant array");
    const auto offset = static_cast<std::uint32_t>(i.value * sizeof(T));
    std::uint32_t id = buffer;
    const T* values = static_cast<const T*>(detail::ConstantData(this, data, &id, i.place));
    return ReadOnlyRef<T, kKeyConstant>(values + i.value, offset, i.place, id,
                                        bank < 0 ? -1 : bank + offset, FileOf(i));
  }
};

// After a constant array's declaration (the lesson form puts it there): on the emulator's SIMT
// build (lesson_simt.h), the name as the warp functions see it in namespace ws_simt, the
// array's elements; elsewhere nothing.
#if !defined(WS_LESSON_CONSTANT_VIEW)
#define WS_LESSON_CONSTANT_VIEW(name) static_assert(true)
#endif

// A loop's accesses as a pattern (the lesson form's: lesson_patterns.cpp; the lane log's rows,
// ws_cuda_lane_log.h, LanePatternHead). Before a loop whose body has no branch, barrier or call
// and whose accesses' offsets are each affine in the loop's counter, the lane unit's build alone
// writes the loop's count of passes and the lanes that reached it (PatternHead) and, for each
// access a pass makes, its offsets in the first two passes (PatternSite of PatternLoad or
// PatternStore of the access's proxy at each); the body's accesses are then Unrecorded(a[i]): there
// the element itself, elsewhere the proxy as it was, which records. A proxy made and not read or
// assigned records nothing.
struct PatternAt {
  std::uint64_t key;
  std::uint32_t offset;
};
template <typename Ref>
WS_HD PatternAt PatternLoad(const Ref& r) {
  return {r.Key(kKeyLoad), r.offset()};
}
template <typename Ref>
WS_HD PatternAt PatternStore(const Ref& r) {
  return {r.Key(kKeyStore), r.offset()};
}
// The proxy is the argument's temporary, which lasts to the end of the access's expression.
template <typename Ref>
WS_HD decltype(auto) Unrecorded(Ref&& r) {
#if defined(__CUDA_ARCH__) && defined(WS_LANE_LOG_BUILD)
  return r.Plain();
#else
  return static_cast<Ref&&>(r);
#endif
}
#if defined(__CUDA_ARCH__) && defined(WS_LANE_LOG_BUILD)
__device__ __forceinline__ void PatternHead(unsigned trips, unsigned sites, unsigned lanes) {
  dev::LanePatternHead(ws_recorder_state, trips, sites, lanes);
}
__device__ __forceinline__ void PatternSite(PatternAt first, PatternAt second) {
  dev::LanePatternSite(ws_recorder_state, first.key, first.offset, second.offset);
}
#endif

// First in every lesson kernel's body (the lesson form puts it there): in the lane unit, where the
// kernel's lane log starts (ws_cuda_lane_log.h); elsewhere nothing.
#if !defined(WS_KERNEL_ENTRY)
#define WS_KERNEL_ENTRY
#endif

// A 2D texture of width x height texels. tex2D(t, x, y) fetches texel (x, y) with coordinates
// clamped to the edge (cudaAddressModeClamp) and records a texture load at the address the
// texture's layout gives that texel (row-major, Morton or tiled; see ws_cuda_layout.h), so the
// views can count the sectors a warp's 2D footprint touches under each layout. The values come
// from a row-major buffer on the emulator and from a real CUDA texture object on a GPU (whose
// own layout the hardware keeps to itself).
template <typename T>
class Texture2D {
 public:
  WS_HD Texture2D() : data_(nullptr), count_(0), buffer_(0), texture_(0) {}
  WS_HD Texture2D(const Global<const T>& g, int width, int height, Layout2D layout = Layout2D{})
      : data_(g.data()), count_(g.size()), buffer_(g.buffer()), texture_(0), layout_(layout) {
    layout_.width = width;
    layout_.height = height;
  }
  WS_HD int width() const { return layout_.width; }
  WS_HD int height() const { return layout_.height; }
  WS_HD const Layout2D& layout() const { return layout_; }
  // The CUDA texture object to fetch through (the CUDA runner sets it).
  WS_HD void set_texture_object(unsigned long long object) { texture_ = object; }
  WS_HD const T* data() const { return data_; }
  // The bytes the layout's addresses span: past the last texel's (a tiled layout's last tiles
  // whole).
  WS_HD std::uint64_t SpanBytes() const {
    const Layout2D& l = layout_;
    std::uint64_t n = static_cast<std::uint64_t>(l.width) * static_cast<std::uint64_t>(l.height);
    if (l.kind == LayoutKind::kMorton && l.width > 0 && l.height > 0)
      n = l.Index(l.width - 1, l.height - 1) + 1;  // (the code grows with x and with y)
    if (l.kind == LayoutKind::kTiled && l.tile_w > 0 && l.tile_h > 0)
      n = static_cast<std::uint64_t>((l.width + l.tile_w - 1) / l.tile_w) * l.tile_w *
          static_cast<std::uint64_t>((l.height + l.tile_h - 1) / l.tile_h) * l.tile_h;
    return n * sizeof(T);
  }

  // Texel (x, y), each coordinate clamped to the edge (cudaAddressModeClamp).
  // Texel (x, y) clamped to the edge, in place; its index in the row-major buffer (checked).
  WS_HD long long Clamp(int* x, int* y, std::uint32_t place) const {
    const int w = layout_.width, h = layout_.height;
    *x = *x < 0 ? 0 : (*x >= w ? w - 1 : *x);
    *y = *y < 0 ? 0 : (*y >= h ? h - 1 : *y);
    const long long i = static_cast<long long>(*y) * w + *x;
    detail::Check(i, count_, place, "texture");
    return i;
  }
  WS_HD T Fetch(int x, int y, std::uint32_t place, const char* file = nullptr) const {
    const long long i = Clamp(&x, &y, place);
    detail::Record(MakeSiteKey(place, kKeyTexture, kKeyLoad, sizeof(T), buffer_),
                   static_cast<std::uint32_t>(layout_.Index(x, y) * sizeof(T)), data_ + i, file);
#if defined(__CUDA_ARCH__)
    if (texture_ != 0) return ::tex2D<T>(texture_, x + 0.5f, y + 0.5f);
#endif
    return data_[i];
  }

 private:
  const T* data_;
  unsigned long long count_;
  std::uint32_t buffer_;
  unsigned long long texture_;
  Layout2D layout_;
};

// A texture coordinate as tex2D<T>(t, x, y) takes it (a float; its place, as Index keeps one).
struct TexCoord {
  float value;
  std::uint32_t place;
  const char* file;  // the literal where a GPU's recorder wants it (FileOf), else null
  template <typename I>
  WS_HD TexCoord(I i, std::uint32_t line = __builtin_LINE(),  // NOLINT: implicit on purpose
                 const char* source = __builtin_FILE())
      : value(static_cast<float>(i)),
        place(Index(0, line, source).place),
        file(FileOf(Index(0, line, source))) {}
};

// tex2D<T>(t, x, y) as CUDA's on a texture object of unnormalized coordinates and point
// sampling: texel (floor(x), floor(y)).
template <typename T>
WS_HD T tex2D(const Texture2D<T>& t, TexCoord x, float y) {
  return t.Fetch(static_cast<int>(floorf(x.value)), static_cast<int>(floorf(y)), x.place, x.file);
}

// ---------------------------------------------------------------------------------------------
// Shared memory
// ---------------------------------------------------------------------------------------------
template <typename T>
class SharedRef {
  static_assert(sizeof(T) <= 16, "a thread accesses at most 16 bytes at once (float4, double2)");

 public:
  WS_HD SharedRef(T* p, std::uint32_t offset, std::uint32_t place, std::uint32_t array,
                  const char* file = nullptr)
      : p_(p), offset_(offset), place_(place), array_(array), file_(file) {}
  WS_HD operator T() const {  // NOLINT: implicit, so tile[y][x] reads like a value
    return detail::Loaded<T>(MakeSiteKey(place_, kKeyShared, kKeyLoad, sizeof(T), array_), offset_,
                             p_, file_, [this] { return *p_; });
  }
  WS_HD SharedRef& operator=(T v) {
    detail::Stored(MakeSiteKey(place_, kKeyShared, kKeyStore, sizeof(T), array_), offset_, p_,
                   file_, [this, &v] { *p_ = v; });
    return *this;
  }
  WS_HD SharedRef& operator=(const SharedRef& other) { return *this = static_cast<T>(other); }
  WS_HD SharedRef& operator+=(T v) { return *this = static_cast<T>(*this) + v; }
  WS_HD SharedRef& operator-=(T v) { return *this = static_cast<T>(*this) - v; }
  WS_HD SharedRef& operator*=(T v) { return *this = static_cast<T>(*this) * v; }
  WS_HD std::uint64_t Key(std::uint32_t op) const {
    return MakeSiteKey(place_, kKeyShared, op, sizeof(T), array_);
  }
  WS_HD std::uint32_t offset() const { return offset_; }
  WS_HD T& Plain() const { return *p_; }

 private:
  T* p_;
  std::uint32_t offset_, place_, array_;
  const char* file_;
};

// A __shared__ array of D0 elements, or D0 rows of D1. Trivially constructible, as CUDA
// requires of __shared__ variables; the emulator's bookkeeping fields start at zero.
template <typename T, int D0, int D1 = 0>
class SharedArray {
  static constexpr int kCols = D1 > 0 ? D1 : 1;

 public:
  class Row {
   public:
    WS_HD Row(SharedArray* a, long long row) : a_(a), row_(row) {}
    WS_HD SharedRef<T> operator[](Index col) const {
      detail::Check(col.value, static_cast<unsigned long long>(D1), col.place,
                    "shared array column");
      return a_->Element(&a_->data_[row_][col.value], col.place, FileOf(col));
    }

   private:
    SharedArray* a_;
    long long row_;
  };

  // tile[y] for a 2D array (then [x] gives the element); a[i] for a 1D array.
  WS_HD auto operator[](Index i) {
    detail::Check(i.value, static_cast<unsigned long long>(D0), i.place, "shared array index");
    if constexpr (D1 > 0) {
      return Row(this, i.value);
    } else {
      return Element(&data_[i.value][0], i.place, FileOf(i));
    }
  }

  static constexpr std::uint32_t kBytes = sizeof(T) * D0 * kCols;

 private:
  WS_HD SharedRef<T> Element(T* p, std::uint32_t place, const char* file) {
    const std::uint32_t byte = static_cast<std::uint32_t>(reinterpret_cast<char*>(p) -
                                                          reinterpret_cast<char*>(&data_[0][0]));
#if defined(__CUDA_ARCH__)
    const std::uint32_t base = static_cast<std::uint32_t>(__cvta_generic_to_shared(&data_[0][0]));
#elif WS_DEVICE_CODE
    const std::uint32_t base = 0;
#else
    const std::uint32_t base = emu::SharedArrayBase(kBytes, &emu_tag_, &emu_base_, &data_[0][0]);
#endif
    return SharedRef<T>(p, base + byte, place, base / 4, file);
  }

  T data_[D0][kCols];
#if !WS_DEVICE_CODE
  std::uint32_t emu_tag_;   // the launch that placed this array (0: none yet)
  std::uint32_t emu_base_;  // its offset in the block's shared memory in that launch
#endif
};

// ---------------------------------------------------------------------------------------------
// Dynamic shared memory: extern __shared__ T s[]; sized by the launch's third parameter
// ---------------------------------------------------------------------------------------------
template <typename T>
class DynamicShared {
  static_assert(sizeof(T) <= 16, "a thread accesses at most 16 bytes at once (float4, double2)");

 public:
  WS_HD SharedRef<T> operator[](Index i) const {
#if defined(__CUDA_ARCH__)
    T* base = reinterpret_cast<T*>(ws_dynamic_shared);
    const auto offset = static_cast<std::uint32_t>(__cvta_generic_to_shared(base + i.value));
    const auto start = static_cast<std::uint32_t>(__cvta_generic_to_shared(base));
    return SharedRef<T>(base + i.value, offset, i.place, start / 4, FileOf(i));
#elif !WS_DEVICE_CODE
    std::uint32_t bytes = 0, start = 0;
    T* base = reinterpret_cast<T*>(emu::DynamicSharedMemory(&bytes, &start));
    detail::Check(i.value, bytes / sizeof(T), i.place, "dynamic shared array");
    return SharedRef<T>(base + i.value, start + static_cast<std::uint32_t>(i.value * sizeof(T)),
                        i.place, start / 4, FileOf(i));
#else
    return SharedRef<T>(nullptr, 0, i.place, 0);
#endif
  }
};

// Models `units` of uneven work (the barrier lesson): the emulator adds them to the thread's
// logical clock; a GPU spins for units x 64 clock cycles.
WS_HD inline void work(long long units) {
#if defined(__CUDA_ARCH__)
  const long long start = clock64();
  while (clock64() - start < units * 64) {
  }
#elif !WS_DEVICE_CODE
  emu::AddWork(static_cast<std::uint32_t>(units));
#else
  (void)units;
#endif
}

// The multiprocessor the calling thread's block runs on (PTX %smid). The emulator: the SM its
// block-scheduler model placed the block on (block_schedule.h), or 0 when no model is set.
WS_HD inline unsigned int smid() {
#if defined(__CUDA_ARCH__)
  unsigned int sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  return sm;
#elif !WS_DEVICE_CODE
  return emu::SmId();
#else
  return 0;
#endif
}

// A clock the whole GPU shares (PTX %globaltimer, nanoseconds). The emulator: the block's start
// in its scheduler model plus the thread's logical clock, in work units ("modeled").
WS_HD inline unsigned long long globaltimer() {
#if defined(__CUDA_ARCH__)
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) : : "memory");
  return t;
#elif !WS_DEVICE_CODE
  return emu::GlobalTimer();
#else
  return 0;
#endif
}

}  // namespace ws

// Site keys and places: how both recorders name an access site (see ws_cuda.h). Self-contained,
// C++17, no macros but WS_HD and WS_DEVICE_CODE, so that host code (the site table, trace files)
// can use it too.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define WS_HD __host__ __device__
#define WS_DEVICE_CODE 1
#else
#define WS_HD
#define WS_DEVICE_CODE 0
#endif

namespace ws {

// A place in the source: the file's tag (bits 16..31) and the line (bits 0..15; lines past 65535
// read as 65535). The tag is a 16-bit hash of the file's base name, so the host finds the file
// among the lesson's sources whatever path the compiler was given; with it a helper in a header
// cannot share a site with the kernel's own line of the same number. Index's default arguments
// are evaluated where an index is written, so they name the caller's file and line.
WS_HD constexpr std::uint32_t FileTag(const char* path) {
  const char* base = path;
  for (const char* c = path; *c != '\0'; ++c) {
    if (*c == '/' || *c == '\\') base = c + 1;
  }
  std::uint32_t h = 2166136261u;  // FNV-1a
  for (const char* c = base; *c != '\0'; ++c) {
    h ^= static_cast<unsigned char>(*c);
    h *= 16777619u;
  }
  return ((h >> 16) ^ h) & 0xffffu;
}
WS_HD constexpr std::uint32_t MakePlace(std::uint32_t file_tag, std::uint32_t line) {
  return (file_tag << 16) | (line > 0xffffu ? 0xffffu : line);
}
WS_HD constexpr std::uint32_t PlaceLine(std::uint32_t place) {
  return place & 0xffffu;
}
WS_HD constexpr std::uint32_t PlaceFile(std::uint32_t place) {
  return place >> 16;
}

// Site key: which place, memory space, operation, size and array an access belongs to.
// Both backends record it; the host turns keys into the launch's site table.
//   bits 48..63 file tag | 32..47 line | 16..31 array (global: buffer id; shared: array base / 4)
//   | 14..15 space | 12..13 op (3: an asynchronous copy's shared write, kKeyAsyncCopy) | 8..11
//   zero (a GPU event's flags there: ws_cuda_record_format.h) | 0..7 size in bytes
enum KeySpace : std::uint32_t { kKeyGlobal = 0, kKeyShared = 1, kKeyConstant = 2, kKeyTexture = 3 };
enum KeyOp : std::uint32_t { kKeyLoad = 0, kKeyStore = 1, kKeyAtomic = 2 };
// Op 3: the shared write of an asynchronous copy (cp.async, LDGSTS), where it lands: a store (a
// store's key | kKeyAsyncCopy), a site of its own (SiteInfo::async_copy), apart from the line's
// plain stores. It was bit 8 once, where a GPU event's word 0 carries kEventAffine: the GPU's
// events lost it (kept blocks' writes became plain stores, apart from the tally's).
inline constexpr std::uint64_t kKeyAsyncCopy = std::uint64_t{3} << 12;

WS_HD constexpr std::uint64_t MakeSiteKey(std::uint32_t place, std::uint32_t space,
                                          std::uint32_t op, std::uint32_t size,
                                          std::uint32_t array) {
  return (std::uint64_t{place} << 32) | (std::uint64_t{array & 0xffffu} << 16) |
         (std::uint64_t{space & 3u} << 14) | (std::uint64_t{op & 3u} << 12) | (size & 0xffu);
}
WS_HD constexpr std::uint32_t KeyPlace(std::uint64_t k) {
  return static_cast<std::uint32_t>(k >> 32);
}
WS_HD constexpr std::uint32_t KeyLine(std::uint64_t k) {
  return PlaceLine(KeyPlace(k));
}
WS_HD constexpr std::uint32_t KeyFile(std::uint64_t k) {
  return PlaceFile(KeyPlace(k));
}
WS_HD constexpr std::uint32_t KeyArray(std::uint64_t k) {
  return static_cast<std::uint32_t>(k >> 16) & 0xffffu;
}
// A bulk copy through the TMA (cp.async.bulk, compute 9.0; libcu++ makes one of a
// cuda::memcpy_async bound to a block's cuda::barrier in shared memory, aligned to 16 bytes): its
// global read and its shared write take op 3, as an asynchronous copy's write does, in a space no
// other op-3 key has: the read constant memory's (2), the write texture's (3). KeySpaceOf and
// KeyOpOf give them back as a global load and a shared store; KeyIsBulkCopy says which they are.
inline constexpr std::uint32_t kKeyBulkReadSpace = 2u, kKeyBulkWriteSpace = 3u;
WS_HD constexpr std::uint32_t KeyRawSpace(std::uint64_t k) {
  return static_cast<std::uint32_t>(k >> 14) & 3u;
}
WS_HD constexpr std::uint32_t KeySpaceOf(std::uint64_t k) {
  const std::uint32_t raw = KeyRawSpace(k);
  if (((k >> 12) & 3u) != 3u) return raw;
  return raw == kKeyBulkReadSpace    ? std::uint32_t{kKeyGlobal}
         : raw == kKeyBulkWriteSpace ? std::uint32_t{kKeyShared}
                                     : raw;
}
// The key of a bulk copy's side from a plain key of its global read or its shared write.
WS_HD constexpr std::uint64_t BulkCopyKey(std::uint64_t plain) {
  const std::uint64_t space =
      KeyRawSpace(plain) == kKeyShared ? kKeyBulkWriteSpace : kKeyBulkReadSpace;
  return (plain & ~(std::uint64_t{15} << 12)) | (space << 14) | (std::uint64_t{3} << 12);
}
// A thread's local array (a kernel's own array indexed at run time, which the compiler puts in
// local memory): keyed as global memory with this array id; the site table makes it
// MemorySpace::kLocal (trace/records.h's kLocalArray).
inline constexpr std::uint32_t kKeyLocalArray = 0xfffeu;
// Where local memory puts byte `at` of a thread's local array of `array_bytes` bytes, read
// `size` bytes at a time: interleaved, as the CUDA Programming Guide describes local memory
// ("consecutive 32-bit words are accessed by consecutive thread IDs"), at the access's size, so
// a warp whose lanes read the same element reads 32 x size contiguous bytes. The thread is
// `thread` (linear) of block `block` (linear) of `threads` threads; its warp's arrays follow the
// grid's earlier warps'. Modulo 2^32, as every recorded offset. Both recorders call it.
WS_HD constexpr std::uint32_t LocalOffset(std::uint64_t block, std::uint64_t threads,
                                          std::uint64_t thread, std::uint32_t at,
                                          std::uint32_t size, std::uint32_t array_bytes) {
  const std::uint64_t warp = block * ((threads + 31) / 32) + thread / 32;
  const std::uint64_t lane = thread % 32, s = size == 0 ? 1u : size;
  const std::uint64_t elements = (std::uint64_t{array_bytes} + s - 1) / s;
  return static_cast<std::uint32_t>(warp * elements * 32u * s + (at / s * 32u + lane) * s + at % s);
}
// Distributed shared memory (a thread-block cluster, compute capability 9.0): an access of
// another block's shared memory is recorded at its offset in that block's window plus
// RemoteSharedOffset(that block's rank in the cluster). A window is at most 228 KB, below 2^18,
// so the banks are the window's and the block's own accesses keep offsets below it.
inline constexpr std::uint32_t kRemoteSharedShift = 18;
WS_HD constexpr std::uint32_t RemoteSharedOffset(std::uint32_t rank) {
  return (rank + 1u) << kRemoteSharedShift;
}
// The rank whose shared memory a shared access at `offset` reached: -1 for the block's own.
WS_HD constexpr int RemoteSharedRank(std::uint32_t offset) {
  return static_cast<int>(offset >> kRemoteSharedShift) - 1;
}

// The operation: an asynchronous copy's write is a store, a bulk copy's read a load.
WS_HD constexpr std::uint32_t KeyOpOf(std::uint64_t k) {
  const std::uint32_t op = static_cast<std::uint32_t>(k >> 12) & 3u;
  if (op != 3u) return op;
  return KeyRawSpace(k) == kKeyBulkReadSpace ? std::uint32_t{kKeyLoad} : std::uint32_t{kKeyStore};
}
// An asynchronous copy's shared write (cp.async's or a bulk copy's).
WS_HD constexpr bool KeyIsAsyncCopy(std::uint64_t k) {
  return ((k >> 12) & 3u) == 3u && KeyRawSpace(k) != kKeyBulkReadSpace;
}
// Either side of a bulk copy through the TMA.
WS_HD constexpr bool KeyIsBulkCopy(std::uint64_t k) {
  return ((k >> 12) & 3u) == 3u && KeyRawSpace(k) >= kKeyBulkReadSpace;
}
WS_HD constexpr std::uint32_t KeySize(std::uint64_t k) {
  return static_cast<std::uint32_t>(k) & 0xffu;
}

// The tag a recorder gives the file called `file` (a string literal from __builtin_FILE()). On
// the host it is FileTag(file). nvcc does not fold FileTag() of a
// literal (it would hash the name at every access), so a GPU tags a file by the literal's address
// instead, with no loads, notes which literal each tag stands for (ws_cuda_device.h), and the
// runner reads the names back and gives the sites their FileTag() (DecodeGpuCapture).
WS_HD inline std::uint32_t RecorderFileTag(const char* file) {
#if defined(__CUDA_ARCH__)
  // The address's low 16 bits: a module's literals lie within a few KB of each other, so two
  // files share a tag only if their literals are a multiple of 64 KB apart.
  return static_cast<std::uint32_t>(reinterpret_cast<unsigned long long>(file)) & 0xffffu;
#else
  // GCC does not fold FileTag() of a literal everywhere it is inlined into a kernel (the
  // emulator then hashed the path at every access, 20 % of matmul's run), so the tags of the
  // last literals seen are kept: a kernel's accesses and its barriers may name two files (the
  // kernel's and a header's), which a cache of one literal hashed once per thread.
  static thread_local const char* last[4] = {};
  static thread_local std::uint32_t tag[4] = {};
  static thread_local unsigned next = 0;
  for (unsigned i = 0; i < 4; ++i) {
    if (last[i] == file) return tag[i];
  }
  const unsigned i = next++ & 3u;
  last[i] = file;
  tag[i] = FileTag(file);
  return tag[i];
#endif
}

// The lane a shuffle's lane `lane` reads, by CUDA's rules: `kind` 0 __shfl_sync (arg: the source
// lane within the width segment), 1 __shfl_up_sync and 2 __shfl_down_sync (arg: the delta),
// 3 __shfl_xor_sync (arg: the lane mask); a source outside the lane's segment of `width` lanes
// leaves the lane its own value (the lane itself). Other kinds: the lane itself. Both recorders
// use it: the emulator to move the values, the GPU to record where they came from.
WS_HD constexpr std::uint32_t ShuffleSourceLane(std::uint32_t kind, std::uint32_t lane, int arg,
                                                int width) {
  const std::uint32_t w = static_cast<std::uint32_t>(width);
  const std::uint32_t base = lane & ~(w - 1u);
  const std::uint32_t a = static_cast<std::uint32_t>(arg);
  switch (kind) {
    case 0:
      return base + (a & (w - 1u));
    case 1:
      return arg >= 0 && lane - base >= a ? lane - a : lane;
    case 2:
      return arg >= 0 && lane - base + a < w ? lane + a : lane;
    case 3:
      return (lane ^ a) >= base && (lane ^ a) < base + w ? lane ^ a : lane;
    default:
      return lane;
  }
}

// An array index that remembers the place (file and line) where it was written.
// (FileTag is constexpr, not consteval: GCC and nvcc evaluate a consteval call in a default
// argument where the function is declared, which would name this header instead of the caller.)
// `file` (CUDA builds only, FileOf): the literal, which a GPU's recorder notes where the host
// will meet the site (an event written, a shape new to the tally), not at every access
// (ws_cuda_device.h). The emulator names files by their tags and keeps the index at 16 bytes.
struct Index {
  long long value;
  std::uint32_t place;
#if WS_DEVICE_CODE
  const char* file;
#endif
  template <typename I>
  WS_HD Index(I i, std::uint32_t line = __builtin_LINE(),  // NOLINT: implicit on purpose
              const char* source = __builtin_FILE())
      : value(static_cast<long long>(i)),
        place(MakePlace(RecorderFileTag(source), line))
#if WS_DEVICE_CODE
        ,
        file(source)
#endif
  {
  }
};

// The file literal index `i` was written in, where the build keeps it (a CUDA build's); null
// elsewhere.
WS_HD inline const char* FileOf(const Index& i) {
#if WS_DEVICE_CODE
  return i.file;
#else
  (void)i;
  return nullptr;
#endif
}

}  // namespace ws

// The lessons' side of the SIMT path (warpscope/kernels/lesson_simt.h): which array a lesson
// warp function's address is in, keyed and offset as the recording API keys it (ws_cuda_arrays.h:
// a buffer by its id, a __shared__ array by its base / 4), and an address in none named as the
// API names an index outside its array.
#include <sstream>
#include <vector>

#include "warpscope/kernels/lesson_simt.h"
#include "warpscope/kernels/ws_cuda_emu.h"

namespace ws::simt {
namespace {

struct SharedRange {
  std::uintptr_t begin;
  std::uint32_t bytes, base;
};
thread_local std::uint32_t t_shared_tag = 0;
thread_local std::vector<SharedRange> t_shared;  // this launch's arrays on this worker

// An array [begin, begin + bytes) as Classified, for an access at `a`.
Classified In(std::uintptr_t begin, std::uint64_t bytes, std::uintptr_t a, bool shared,
              std::uint32_t offset_at_begin, std::uint64_t key) {
  Classified c;
  c.where = Where::kRecorded;
  c.shared = shared;
  c.lo = begin;
  c.hi = begin + bytes;
  c.offset = offset_at_begin + static_cast<std::uint32_t>(a - begin);
  c.key = key;
  return c;
}

Classified Classify(const void* p, unsigned int bytes, unsigned int place, unsigned int op) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const emu::LaunchConfig& cfg = emu::CurrentLaunchConfig();
  if ((op & kTexture) != 0) {  // a texel, at its layout's offset (ws_simt::tex2D)
    for (std::size_t i = 0; i < cfg.buffer_data.size() && i < cfg.buffer_texture_bytes.size();
         ++i) {
      const auto d = reinterpret_cast<std::uintptr_t>(cfg.buffer_data[i]);
      if (a - d < cfg.buffer_texture_bytes[i])
        return In(d, cfg.buffer_texture_bytes[i], a, false, 0,
                  MakeSiteKey(place, kKeyTexture, kKeyLoad, bytes, static_cast<std::uint32_t>(i)));
    }
    return {};
  }
  if (t_shared_tag == emu::CurrentLaunchTag()) {
    for (const SharedRange& r : t_shared)
      if (a - r.begin < r.bytes)
        return In(r.begin, r.bytes, a, true, r.base,
                  MakeSiteKey(place, kKeyShared, op, bytes, r.base / 4));
  }
  if (cfg.dynamic_shared_bytes > 0) {
    std::uint32_t n = 0, start = 0;
    const auto d = reinterpret_cast<std::uintptr_t>(emu::DynamicSharedMemory(&n, &start));
    if (a - d < n)
      return In(d, n, a, true, start, MakeSiteKey(place, kKeyShared, op, bytes, start / 4));
  }
  for (std::size_t i = 0; i < cfg.buffer_data.size() && i < cfg.buffers.size(); ++i) {
    const auto d = reinterpret_cast<std::uintptr_t>(cfg.buffer_data[i]);
    if (a - d < cfg.buffers[i].bytes) {
      // A __constant__ array's buffer (CopyToSymbol), as its ConstantArray keys it.
      const bool constant = i < cfg.buffer_constant.size() && cfg.buffer_constant[i] != 0;
      return In(d, cfg.buffers[i].bytes, a, false, 0,
                MakeSiteKey(place, constant ? kKeyConstant : kKeyGlobal, op, bytes,
                            static_cast<std::uint32_t>(i)));
    }
  }
  Classified c;
  if (emu::OnFiberStack(p) == 1) c.where = Where::kOwnVariable;  // a lane's own variable
  return c;
}

// Outside every array: named by the nearest one, as the recording API's check names an index
// outside its array ("index 1024 is outside the global array of 1024 elements").
void Fail(const void* p, unsigned int bytes, unsigned int place, unsigned int) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const char* what = nullptr;
  std::uintptr_t begin = 0, size = 0, gap = ~std::uintptr_t{0};
  auto consider = [&](std::uintptr_t b, std::uintptr_t n, const char* name) {
    const std::uintptr_t g = a < b ? b - a : a >= b + n ? a - (b + n) : 0;
    if (g < gap) {
      gap = g;
      begin = b;
      size = n;
      what = name;
    }
  };
  if (t_shared_tag == emu::CurrentLaunchTag())
    for (const SharedRange& r : t_shared) consider(r.begin, r.bytes, "shared array");
  const emu::LaunchConfig& cfg = emu::CurrentLaunchConfig();
  if (cfg.dynamic_shared_bytes > 0) {
    std::uint32_t n = 0, start = 0;
    consider(reinterpret_cast<std::uintptr_t>(emu::DynamicSharedMemory(&n, &start)), n,
             "dynamic shared array");
  }
  for (std::size_t i = 0; i < cfg.buffer_data.size() && i < cfg.buffers.size(); ++i)
    consider(reinterpret_cast<std::uintptr_t>(cfg.buffer_data[i]), cfg.buffers[i].bytes,
             "global array");
  if (what != nullptr && bytes > 0) {
    const auto d = static_cast<long long>(a - begin);  // negative before the array
    const long long index = d >= 0 ? d / bytes : -((-d + bytes - 1) / bytes);
    emu::CheckIndex(index, size / bytes, place, what);
  }
  std::ostringstream m;
  m << "an access of " << bytes << " bytes at " << p << " is in no array of the launch";
  emu::FailThread(place, m.str());
}

// The buffer an address is in: its index among the lesson backend's buffers.
std::uint32_t Buffer(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const emu::LaunchConfig& cfg = emu::CurrentLaunchConfig();
  for (std::size_t i = 0; i < cfg.buffer_data.size() && i < cfg.buffers.size(); ++i)
    if (a - reinterpret_cast<std::uintptr_t>(cfg.buffer_data[i]) < cfg.buffers[i].bytes)
      return static_cast<std::uint32_t>(i);
  return ~0u;
}

}  // namespace

const Classifier kLessonClassifier = {&Classify, &Fail, &Buffer};

void LessonShared(void* p, std::uint32_t bytes, LessonSharedSlot* slot) {
  const std::uint32_t base = emu::SharedArrayBase(bytes, &slot->tag, &slot->base, p);
  const std::uint32_t tag = emu::CurrentLaunchTag();
  if (t_shared_tag != tag) {
    t_shared.clear();
    t_shared_tag = tag;
  }
  const auto begin = reinterpret_cast<std::uintptr_t>(p);
  for (const SharedRange& r : t_shared)
    if (r.begin == begin) return;
  t_shared.push_back({begin, bytes, base});
}

}  // namespace ws::simt

// libws_program_emu's device heap (ws_program_heap.h): one buffer named "device heap" of
// cudaLimitMallocHeapSize bytes (CUDA's default, 8 MB, unless the program sets another before
// its first launch), registered before the first launch of a program whose device code
// allocates, and handed out in 16-byte aligned blocks, first fit, freed blocks merged with their
// neighbours. A block that does not fit gives a null pointer, as device malloc and new give on a
// GPU.
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "emu_program_state.h"

namespace ws::prog {
namespace {

struct Heap {
  std::mutex mutex;
  bool wanted = false;  // a rewritten unit allocates in device code
  std::size_t limit = std::size_t{8} << 20;
  unsigned char* base = nullptr;            // registered: null before
  std::map<std::size_t, std::size_t> free;  // offset -> bytes
  std::map<std::size_t, std::size_t> used;  // offset -> bytes
};
Heap& H() {
  static auto* h = new Heap();  // never destroyed: a program's exit may still use it
  return *h;
}

}  // namespace

int UseDeviceHeap() {
  std::lock_guard lock(H().mutex);
  H().wanted = true;
  return 0;
}

namespace detail {

std::size_t DeviceHeapLimit() {
  std::lock_guard lock(H().mutex);
  return H().limit;
}

cudaError_t SetDeviceHeapLimit(std::size_t bytes) {
  Heap& h = H();
  std::lock_guard lock(h.mutex);
  if (h.base != nullptr)
    return Fail(cudaErrorInvalidValue,
                "cudaDeviceSetLimit(cudaLimitMallocHeapSize): the device heap is in use since "
                "the first launch; set its size before any launch, as CUDA requires");
  h.limit = bytes;
  return cudaSuccess;
}

void RegisterDeviceHeap() {
  Heap& h = H();
  {
    std::lock_guard lock(h.mutex);
    if (!h.wanted || h.base != nullptr) return;
    h.base = static_cast<unsigned char*>(std::aligned_alloc(256, (h.limit + 255) / 256 * 256));
    if (h.base == nullptr) return;
    std::memset(h.base, 0, h.limit);
    h.free[0] = h.limit;
  }
  AddRegion(h.base, h.limit, "device heap", kKeyGlobal, false, nullptr);
}

}  // namespace detail

void* HeapMalloc(std::size_t bytes) {
  Heap& h = H();
  std::lock_guard lock(h.mutex);
  if (h.base == nullptr || bytes == 0) return nullptr;
  const std::size_t need = (bytes + 15) / 16 * 16;
  for (auto it = h.free.begin(); it != h.free.end(); ++it) {
    if (it->second < need) continue;
    const std::size_t at = it->first, left = it->second - need;
    h.free.erase(it);
    if (left > 0) h.free[at + need] = left;
    h.used[at] = need;
    return h.base + at;
  }
  return nullptr;
}

void HeapFree(void* p) {
  if (p == nullptr) return;
  Heap& h = H();
  std::lock_guard lock(h.mutex);
  const auto* b = static_cast<unsigned char*>(p);
  if (h.base == nullptr || b < h.base || b >= h.base + h.limit) return;
  auto it = h.used.find(static_cast<std::size_t>(b - h.base));
  if (it == h.used.end()) return;  // not a block's start: CUDA's behaviour is undefined
  std::size_t at = it->first, size = it->second;
  h.used.erase(it);
  auto next = h.free.find(at + size);
  if (next != h.free.end()) {
    size += next->second;
    h.free.erase(next);
  }
  auto after = h.free.lower_bound(at);
  if (after != h.free.begin()) {
    auto before = std::prev(after);
    if (before->first + before->second == at) {
      at = before->first;
      size += before->second;
      h.free.erase(before);
    }
  }
  h.free[at] = size;
}

}  // namespace ws::prog

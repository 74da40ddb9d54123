// libws_program_emu's memory pools (ws_program_pools.h): stream-ordered allocation. Every
// stream's work runs in program order on the emulator, so cudaMallocAsync allocates at once, as
// cudaMalloc does (the buffer named the same way), and cudaFreeAsync frees at once. A pool keeps
// its attributes and counts its bytes: in use (allocated and not yet freed), reserved (in use, or
// freed and kept up to the release threshold, as a GPU's pool keeps them at a synchronization
// point), and the high marks of both.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "emu_program_state.h"

struct WsMemPool {
  std::uint64_t threshold = 0;  // cudaMemPoolAttrReleaseThreshold
  std::uint64_t used = 0, used_high = 0, reserved = 0, reserved_high = 0;
  int reuse[3] = {1, 1, 1};  // cudaMemPoolReuse*: 1 (the default)
};

namespace {

using ws::prog::detail::Fail;

struct Pools {
  std::mutex mutex;
  WsMemPool default_pool;
  WsMemPool* current = &default_pool;  // cudaDeviceSetMemPool's
  std::vector<std::unique_ptr<WsMemPool>> created;
  std::map<const void*, std::pair<WsMemPool*, std::uint64_t>> allocations;  // from a pool
};
Pools& G() {
  static Pools pools;
  return pools;
}

// The bytes a pool keeps reserved once `used` are in use: those, and what was freed up to its
// release threshold.
void Release(WsMemPool& p, std::uint64_t keep) {
  p.reserved = std::max(p.used, std::min(p.reserved, keep));
}

bool Known(cudaMemPool_t pool) {
  Pools& g = G();
  if (pool == &g.default_pool) return true;
  return std::any_of(g.created.begin(), g.created.end(),
                     [&](const auto& p) { return p.get() == pool; });
}

}  // namespace

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  if (pool == nullptr) return Fail(cudaErrorInvalidValue, "cudaDeviceGetDefaultMemPool: null");
  if (device != 0)
    return Fail(cudaErrorInvalidDevice, "cudaDeviceGetDefaultMemPool(" + std::to_string(device) +
                                            "): the emulator has one device, 0");
  *pool = &G().default_pool;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
  if (pool == nullptr) return Fail(cudaErrorInvalidValue, "cudaDeviceGetMemPool: null");
  if (device != 0) return Fail(cudaErrorInvalidDevice, "cudaDeviceGetMemPool: device 0 only");
  std::lock_guard lock(G().mutex);
  *pool = G().current;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
  if (device != 0) return Fail(cudaErrorInvalidDevice, "cudaDeviceSetMemPool: device 0 only");
  std::lock_guard lock(G().mutex);
  if (!Known(pool)) return Fail(cudaErrorInvalidValue, "cudaDeviceSetMemPool: not a pool");
  G().current = pool;
  return cudaSuccess;
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props) {
  if (pool == nullptr || props == nullptr)
    return Fail(cudaErrorInvalidValue, "cudaMemPoolCreate: null");
  if (props->allocType != cudaMemAllocationTypePinned ||
      props->location.type != cudaMemLocationTypeDevice || props->location.id != 0)
    return Fail(cudaErrorInvalidValue,
                "cudaMemPoolCreate: a pool of pinned memory on device 0 is what the emulator has");
  std::lock_guard lock(G().mutex);
  G().created.push_back(std::make_unique<WsMemPool>());
  *pool = G().created.back().get();
  return cudaSuccess;
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  std::lock_guard lock(G().mutex);
  Pools& g = G();
  auto it = std::find_if(g.created.begin(), g.created.end(),
                         [&](const auto& p) { return p.get() == pool; });
  if (it == g.created.end())
    return Fail(cudaErrorInvalidValue, "cudaMemPoolDestroy: not a pool cudaMemPoolCreate made");
  if (g.current == pool) g.current = &g.default_pool;
  // Its buffers still in use stay valid until they are freed (as CUDA defers the destruction).
  for (auto& [ptr, from] : g.allocations)
    if (from.first == pool) from.first = nullptr;
  g.created.erase(it);
  return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  std::lock_guard lock(G().mutex);
  if (!Known(pool) || value == nullptr)
    return Fail(cudaErrorInvalidValue, "cudaMemPoolSetAttribute: not a pool, or a null value");
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
      pool->reuse[attr - 1] = *static_cast<const int*>(value) != 0 ? 1 : 0;
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
      pool->threshold = *static_cast<const std::uint64_t*>(value);
      Release(*pool, pool->threshold);
      return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:  // only 0: the mark set back to the current bytes
    case cudaMemPoolAttrUsedMemHigh:
      if (*static_cast<const std::uint64_t*>(value) != 0)
        return Fail(cudaErrorInvalidValue, "cudaMemPoolSetAttribute: a high mark is reset to 0");
      (attr == cudaMemPoolAttrUsedMemHigh ? pool->used_high : pool->reserved_high) =
          attr == cudaMemPoolAttrUsedMemHigh ? pool->used : pool->reserved;
      return cudaSuccess;
    default:
      return Fail(cudaErrorInvalidValue,
                  "cudaMemPoolSetAttribute: attribute " + std::to_string(attr) + " is read-only");
  }
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  std::lock_guard lock(G().mutex);
  if (!Known(pool) || value == nullptr)
    return Fail(cudaErrorInvalidValue, "cudaMemPoolGetAttribute: not a pool, or a null value");
  auto put = [&](std::uint64_t v) { *static_cast<std::uint64_t*>(value) = v; };
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
      *static_cast<int*>(value) = pool->reuse[attr - 1];
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
      put(pool->threshold);
      return cudaSuccess;
    case cudaMemPoolAttrReservedMemCurrent:
      put(pool->reserved);
      return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
      put(pool->reserved_high);
      return cudaSuccess;
    case cudaMemPoolAttrUsedMemCurrent:
      put(pool->used);
      return cudaSuccess;
    case cudaMemPoolAttrUsedMemHigh:
      put(pool->used_high);
      return cudaSuccess;
  }
  return Fail(cudaErrorInvalidValue,
              "cudaMemPoolGetAttribute: no attribute " + std::to_string(attr));
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, std::size_t min_bytes_to_keep) {
  std::lock_guard lock(G().mutex);
  if (!Known(pool)) return Fail(cudaErrorInvalidValue, "cudaMemPoolTrimTo: not a pool");
  Release(*pool, min_bytes_to_keep);
  return cudaSuccess;
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descs,
                                 std::size_t count) {
  std::lock_guard lock(G().mutex);
  if (!Known(pool) || (descs == nullptr && count > 0))
    return Fail(cudaErrorInvalidValue, "cudaMemPoolSetAccess: not a pool, or no descriptors");
  for (std::size_t i = 0; i < count; ++i)
    if (descs[i].location.type != cudaMemLocationTypeDevice || descs[i].location.id != 0)
      return Fail(cudaErrorInvalidDevice, "cudaMemPoolSetAccess: the emulator has device 0 only");
  return cudaSuccess;
}

cudaError_t cudaMallocFromPoolAsync(void** ptr, std::size_t bytes, cudaMemPool_t pool,
                                    cudaStream_t stream) {
  // In a capture CUDA makes the allocation a node of the graph; here it would happen at once.
  if (ws::prog::Capturing(stream))
    return Fail(cudaErrorStreamCaptureUnsupported,
                "cudaMallocAsync in a stream capture (a graph's allocation node) is not "
                "supported (yet)");
  {
    std::lock_guard lock(G().mutex);
    if (!Known(pool)) return Fail(cudaErrorInvalidValue, "cudaMallocFromPoolAsync: not a pool");
  }
  const cudaError_t e = ws::prog::detail::Allocate(ptr, bytes, "cudaMallocAsync");
  if (e != cudaSuccess || bytes == 0) return e;
  std::lock_guard lock(G().mutex);
  pool->used += bytes;
  pool->used_high = std::max(pool->used_high, pool->used);
  pool->reserved = std::max(pool->reserved, pool->used);
  pool->reserved_high = std::max(pool->reserved_high, pool->reserved);
  G().allocations[*ptr] = {pool, bytes};
  return cudaSuccess;
}

cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream) {
  cudaMemPool_t pool = nullptr;
  {
    std::lock_guard lock(G().mutex);
    pool = G().current;
  }
  return cudaMallocFromPoolAsync(ptr, bytes, pool, stream);
}

cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream) {
  if (ws::prog::Capturing(stream))
    return Fail(cudaErrorStreamCaptureUnsupported,
                "cudaFreeAsync in a stream capture (a graph's free node) is not supported (yet)");
  {
    std::lock_guard lock(G().mutex);
    auto it = G().allocations.find(ptr);
    if (it != G().allocations.end()) {
      if (WsMemPool* pool = it->second.first) {
        pool->used -= it->second.second;
        Release(*pool, pool->threshold);
      }
      G().allocations.erase(it);
    }
  }
  return cudaFree(ptr);
}

#include "warpscope/kernels/site_table.h"

#include <algorithm>
#include <atomic>
#include <tuple>

#include "warpscope/trace/ws_cuda_keys.h"

namespace ws {

static_assert(kKeyLocalArray == kLocalArray, "one id for local arrays in keys and sites");

namespace {
std::atomic<CompiledWidthFn> compiled_width_fn{nullptr};
}  // namespace

void SetCompiledWidthFn(CompiledWidthFn fn) {
  compiled_width_fn.store(fn, std::memory_order_release);
}

SiteInfo SiteFromKey(std::uint64_t key) {
  SiteInfo info;
  info.line = KeyLine(key);
  info.file_tag = static_cast<std::uint16_t>(KeyFile(key));
  info.space = static_cast<MemorySpace>(KeySpaceOf(key));
  info.op = static_cast<AccessOp>(KeyOpOf(key));
  info.size = static_cast<std::uint8_t>(KeySize(key));
  info.buffer = static_cast<std::uint16_t>(KeyArray(key));
  info.async_copy = KeyIsAsyncCopy(key);
  info.bulk_copy = KeyIsBulkCopy(key);
  if (info.space == MemorySpace::kGlobal && info.buffer == kKeyLocalArray)
    info.space = MemorySpace::kLocal;
  if (const CompiledWidthFn fn = compiled_width_fn.load(std::memory_order_acquire);
      fn != nullptr && info.space == MemorySpace::kShared)
    info.compiled_width = fn(info);
  return info;
}

SiteTable BuildSiteTable(std::vector<std::uint64_t> keys) {
  auto order = [](std::uint64_t k) {
    // The whole key last: keys that differ only where the tuple does not look lie together, so
    // that std::unique below sees their repeats.
    return std::make_tuple(KeyFile(k), KeyLine(k), KeySpaceOf(k), KeyOpOf(k), KeyArray(k),
                           KeySize(k), k);
  };
  std::sort(keys.begin(), keys.end(),
            [&](std::uint64_t a, std::uint64_t b) { return order(a) < order(b); });
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  // Shared arrays are named by their rank among the launch's shared array offsets: the two
  // backends may place arrays at different offsets, but in the same order.
  std::vector<std::uint32_t> shared_bases;
  for (std::uint64_t k : keys) {
    if (KeySpaceOf(k) == kKeyShared) shared_bases.push_back(KeyArray(k));
  }
  std::sort(shared_bases.begin(), shared_bases.end());
  shared_bases.erase(std::unique(shared_bases.begin(), shared_bases.end()), shared_bases.end());
  SiteTable t;
  for (std::uint64_t k : keys) {
    SiteInfo s = SiteFromKey(k);
    if (s.space == MemorySpace::kShared) {
      s.buffer = static_cast<std::uint16_t>(
          std::lower_bound(shared_bases.begin(), shared_bases.end(), KeyArray(k)) -
          shared_bases.begin());
    }
    t.id_of_key[k] = static_cast<std::uint16_t>(t.sites.size());
    t.sites.push_back(s);
  }
  return t;
}

}  // namespace ws

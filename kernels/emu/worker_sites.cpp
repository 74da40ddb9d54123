// The worker's ids and errors (worker.h): provisional ids of access, barrier and warp-op sites
// (first come, made canonical when the launch ends), the placement of static shared arrays, and
// the error that ends a launch.
#include <sstream>

#include "emu/worker.h"

namespace ws::emu::detail {

// A slot missed: the key may still be this worker's (two keys can share a slot), else the
// launch's table is asked under its lock.
std::uint16_t Worker::SlowSiteId(std::uint64_t key) {
  for (const auto& [k, id] : site_cache_) {
    if (k == key) return id;
  }
  std::uint16_t id = 0;
  bool too_many = false;
  {
    std::lock_guard lock(launch_->mutex);
    auto it = launch_->site_ids.find(key);
    if (it != launch_->site_ids.end()) {
      id = it->second;
    } else if (launch_->site_ids.size() >= kMaxSites) {
      too_many = true;
    } else {
      id = static_cast<std::uint16_t>(launch_->site_ids.size());
      launch_->site_ids.emplace(key, id);
      launch_->sites_by_id.push_back(SiteFromKey(key));
    }
    if (local_sites_.size() < launch_->sites_by_id.size()) {
      local_sites_.assign(launch_->sites_by_id.begin(), launch_->sites_by_id.end());
    }
  }
  // Fail takes the mutex itself: report only after releasing it.
  if (too_many)
    Fail(KeyPlace(key), "the kernel has more than " + std::to_string(kMaxSites) + " access sites");
  site_cache_.emplace_back(key, id);
  return id;
}

std::uint16_t Worker::BarrierId(std::uint32_t place) {
  for (const auto& [p, id] : barrier_cache_) {
    if (p == place) return id;
  }
  std::lock_guard lock(launch_->mutex);
  auto [it, fresh] = launch_->barrier_ids.try_emplace(
      place, static_cast<std::uint16_t>(launch_->barrier_ids.size()));
  (void)fresh;
  barrier_cache_.emplace_back(place, it->second);
  return it->second;
}

std::uint16_t Worker::WarpOpId(std::uint32_t place, std::uint32_t kind) {
  const std::uint64_t key = (std::uint64_t{place} << 8) | kind;
  for (const auto& [k, id] : warp_op_cache_) {
    if (k == key) return id;
  }
  std::unique_lock lock(launch_->mutex);
  if (launch_->warp_op_ids.size() >= kMaxWarpOpSites && !launch_->warp_op_ids.count(key)) {
    lock.unlock();
    Fail(place, "the kernel has more than " + std::to_string(kMaxWarpOpSites) +
                    " warp-level intrinsic sites");
  }
  auto [it, fresh] = launch_->warp_op_ids.try_emplace(
      key, static_cast<std::uint16_t>(launch_->warp_op_ids.size()));
  (void)fresh;
  warp_op_cache_.emplace_back(key, it->second);
  if (warp_op_kinds_.size() <= it->second) warp_op_kinds_.resize(it->second + 1u, 0xff);
  warp_op_kinds_[it->second] = static_cast<std::uint8_t>(kind);
  return it->second;
}

// A static shared array's first use in this launch: it gets its place in the block's shared
// memory.
void Worker::PlaceSharedArray(std::uint32_t bytes, std::uint32_t* tag, std::uint32_t* base,
                              void* data) {
  if (data != nullptr) {  // filled now, and before each later block of this worker
    std::memset(data, kUnwrittenShared, bytes);
    shared_arrays_.emplace_back(data, bytes);
  }
  // Place arrays in the order the kernel first touches them, 16-byte aligned, per launch.
  *base = (shared_cursor_ + 15u) & ~15u;
  shared_cursor_ = *base + bytes;
  *tag = launch_->tag;
  const std::uint32_t limit = launch_->config->preset.shared_per_block;
  if (shared_cursor_ > limit) {
    Fail(0, "the kernel's shared arrays need " + std::to_string(shared_cursor_) +
                " bytes per block, over the limit of " + std::to_string(limit) + " bytes on " +
                launch_->config->preset.name);
  }
}

void Worker::Fail(std::uint32_t place, const std::string& what) {
  const ThreadCtx* c = t_ctx;
  std::ostringstream m;
  if (PlaceLine(place) != 0) m << "line " << PlaceLine(place) << ": ";
  m << what;
  if (c != nullptr) {
    m << " (thread (" << c->state.thread_idx.x << "," << c->state.thread_idx.y << ","
      << c->state.thread_idx.z << ") of block (" << c->state.block_idx.x << ","
      << c->state.block_idx.y << "," << c->state.block_idx.z << "))";
  }
  ReportError(current_.block, m.str());
  throw ThreadAbort{};
}

void Worker::ReportError(std::uint64_t block, const std::string& message) {
  std::lock_guard lock(launch_->mutex);
  if (block < launch_->error_block) {
    launch_->error_block = block;
    launch_->error = message;
  }
  std::uint64_t cur = launch_->stop_after.load();
  while (block < cur && !launch_->stop_after.compare_exchange_weak(cur, block)) {
  }
  launch_->shadow.Abandon();  // the launch fails: nobody waits for a turn
  std::lock_guard shadows(launch_->grid_shadows_mutex);
  for (auto& s : launch_->grid_shadows)
    if (s) s->Abandon();
}

}  // namespace ws::emu::detail

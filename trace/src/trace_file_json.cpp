// A launch's JSON section of a trace file: its configuration, sites, buffers, figures and
// everything else but the records (trace_file.cpp writes and reads those).
#include "trace_file_json.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ws::trace_json {
namespace {

nlohmann::json Dim(const Dim3& d) {
  return {d.x, d.y, d.z};
}

nlohmann::json SiteStatsJson(const SiteStats& s) {
  nlohmann::json j = {{"requests", s.requests},
                      {"accesses", s.accesses},
                      {"bytes", s.bytes},
                      {"sectors", s.sectors},
                      {"ideal_sectors", s.ideal_sectors},
                      {"lines128", s.lines128},
                      {"cc10_transactions", s.cc10_transactions},
                      {"cc12_transactions", s.cc12_transactions},
                      {"cc12_bytes", s.cc12_bytes},
                      {"sectors_histogram", s.sectors_histogram},
                      {"wavefronts", s.wavefronts},
                      {"ideal_wavefronts", s.ideal_wavefronts},
                      {"bank_conflict_sum", s.bank_conflict_sum},
                      {"bank_conflict_max", s.bank_conflict_max},
                      {"halfwarp16_conflict_max", s.halfwarp16_conflict_max},
                      {"halfwarp16_conflict_sum", s.halfwarp16_conflict_sum},
                      {"atomic_conflict_max", s.atomic_conflict_max},
                      {"atomic_conflict_histogram", s.atomic_conflict_histogram},
                      {"constant_addresses_max", s.constant_addresses_max},
                      {"constant_addresses_sum", s.constant_addresses_sum},
                      {"divergent_requests", s.divergent_requests}};
  // What only a site the compiled code serves wider has (SiteInfo::compiled_width).
  if (s.compiled_parts != 0) j["compiled_parts"] = s.compiled_parts;
  if (s.compiled_mixed != 0) j["compiled_mixed"] = s.compiled_mixed;
  return j;
}

}  // namespace

nlohmann::json LaunchJson(const LaunchTrace& t) {
  nlohmann::json j;
  j["kernel"] = t.kernel;
  j["grid"] = Dim(t.grid);
  j["block"] = Dim(t.block);
  j["shared_bytes"] = t.shared_bytes;
  if (t.resources.known()) j["resources"] = ResourcesJson(t.resources);
  j["time_unit"] = t.time_unit;
  j["truncated"] = t.truncated;
  if (t.uncovered_blocks > 0) j["uncovered_blocks"] = t.uncovered_blocks;
  if (t.uncovered_requests_counted) j["uncovered_requests_counted"] = true;
  if (!t.engine.empty()) j["engine"] = t.engine;
  if (!t.engine_reason.empty()) j["engine_reason"] = t.engine_reason;
  if (!t.origin.empty()) j["origin"] = t.origin;
  j["hazards"] = HazardsJson(t.hazards);
  j["buffers"] = nlohmann::json::array();
  for (const BufferInfo& b : t.buffers)
    j["buffers"].push_back({{"name", b.name}, {"bytes", b.bytes}, {"base", b.base}});
  j["sites"] = nlohmann::json::array();
  for (const SiteInfo& s : t.sites) {
    j["sites"].push_back({{"line", s.line},
                          {"column", s.column},
                          {"end_column", s.end_column},
                          {"space", static_cast<int>(s.space)},
                          {"op", static_cast<int>(s.op)},
                          {"size", s.size},
                          {"buffer", s.buffer},
                          {"file", s.file},
                          {"code", s.code},
                          {"async_copy", s.async_copy}});
    if (!s.fragment.empty()) j["sites"].back()["fragment"] = s.fragment;
    if (s.bulk_copy) j["sites"].back()["bulk_copy"] = true;
    if (s.compiled_width != 0) j["sites"].back()["compiled_width"] = s.compiled_width;
  }
  j["barrier_sites"] = nlohmann::json::array();
  for (const BarrierSite& b : t.barrier_sites) {
    j["barrier_sites"].push_back({{"line", b.line}, {"file", b.file}, {"code", b.code}});
    if (b.tile != 0) j["barrier_sites"].back()["tile"] = b.tile;
  }
  j["warp_op_sites"] = nlohmann::json::array();
  for (std::size_t i = 0; i < t.warp_op_sites.size(); ++i) {
    const WarpOpSite& w = t.warp_op_sites[i];
    j["warp_op_sites"].push_back(
        {{"line", w.line},
         {"kind", static_cast<int>(w.kind)},
         {"file", w.file},
         {"code", w.code},
         {"count", i < t.warp_op_counts.size() ? t.warp_op_counts[i] : 0}});
  }
  nlohmann::json& st = j["stats"];
  st["access_records"] = t.stats.access_records;
  st["barrier_records"] = t.stats.barrier_records;
  st["divergent_warps"] = t.stats.divergent_warps;
  if (t.stats.flops_counted) st["flops"] = t.stats.flops;
  if (t.stats.thread_clock > 0) st["thread_clock"] = t.stats.thread_clock;
  if (t.barrier_skew_kept_only) st["barrier_skew_blocks"] = t.barrier_skew_blocks;
  if (t.ClusterBlocks() > 1) {
    j["cluster"] = {t.cluster.x, t.cluster.y, t.cluster.z};
    st["cluster_bytes"] = t.stats.cluster_bytes;
    st["cluster_accesses"] = t.stats.cluster_accesses;
    if (t.cluster_kept_only) st["cluster_blocks_counted"] = t.cluster_blocks_counted;
  }
  st["sites"] = nlohmann::json::array();
  for (const SiteStats& s : t.stats.sites) st["sites"].push_back(SiteStatsJson(s));
  st["barriers"] = nlohmann::json::array();
  for (const BarrierStats& b : t.stats.barriers) {
    st["barriers"].push_back({{"instances", b.instances},
                              {"max_skew", b.max_skew},
                              {"wait_sum", b.wait_sum},
                              {"thread_arrivals", b.thread_arrivals},
                              {"max_wait", b.max_wait}});
  }
  return j;
}

namespace {

Dim3 GetDim(const nlohmann::json& j) {
  const auto v = j.get<std::vector<std::uint32_t>>();
  if (v.size() != 3) throw std::runtime_error("a dimension needs 3 numbers");
  return {v[0], v[1], v[2]};
}

SiteStats SiteStatsFrom(const nlohmann::json& j) {
  SiteStats s;
  s.requests = j.at("requests").get<std::uint64_t>();
  s.accesses = j.at("accesses").get<std::uint64_t>();
  s.bytes = j.at("bytes").get<std::uint64_t>();
  s.sectors = j.at("sectors").get<std::uint64_t>();
  s.ideal_sectors = j.at("ideal_sectors").get<std::uint64_t>();
  s.lines128 = j.at("lines128").get<std::uint64_t>();
  s.cc10_transactions = j.at("cc10_transactions").get<std::uint64_t>();
  s.cc12_transactions = j.at("cc12_transactions").get<std::uint64_t>();
  s.cc12_bytes = j.at("cc12_bytes").get<std::uint64_t>();
  s.sectors_histogram = j.at("sectors_histogram").get<std::vector<std::uint64_t>>();
  s.wavefronts = j.at("wavefronts").get<std::uint64_t>();
  // Files from before vector widths were served by phases: their shared requests were costed as
  // 4-byte ones, one ideal wavefront each.
  s.ideal_wavefronts = j.value("ideal_wavefronts", j.at("requests").get<std::uint64_t>());
  s.bank_conflict_sum = j.at("bank_conflict_sum").get<std::uint64_t>();
  s.bank_conflict_max = j.at("bank_conflict_max").get<std::uint32_t>();
  s.halfwarp16_conflict_max = j.at("halfwarp16_conflict_max").get<std::uint32_t>();
  s.halfwarp16_conflict_sum = j.at("halfwarp16_conflict_sum").get<std::uint64_t>();
  s.atomic_conflict_max = j.at("atomic_conflict_max").get<std::uint32_t>();
  s.atomic_conflict_histogram = j.at("atomic_conflict_histogram").get<std::vector<std::uint64_t>>();
  s.constant_addresses_max = j.at("constant_addresses_max").get<std::uint32_t>();
  s.constant_addresses_sum = j.at("constant_addresses_sum").get<std::uint64_t>();
  s.divergent_requests = j.at("divergent_requests").get<std::uint64_t>();
  s.compiled_parts = j.value("compiled_parts", std::uint64_t{0});  // none before 2026-12-04
  s.compiled_mixed = j.value("compiled_mixed", std::uint64_t{0});
  if (s.sectors_histogram.size() > 4096 || s.atomic_conflict_histogram.size() > 4096)
    throw std::runtime_error("a histogram is too long");
  return s;
}

}  // namespace

LaunchTrace LaunchFrom(const nlohmann::json& j) {
  LaunchTrace t;
  t.kernel = j.at("kernel").get<std::string>();
  t.grid = GetDim(j.at("grid"));
  t.block = GetDim(j.at("block"));
  t.shared_bytes = j.at("shared_bytes").get<std::uint32_t>();
  if (j.contains("resources")) t.resources = ResourcesFromJson(j.at("resources"));  // from issue 19
  t.time_unit = j.at("time_unit").get<std::string>();
  t.truncated = j.at("truncated").get<bool>();
  t.uncovered_blocks = j.value("uncovered_blocks", std::uint64_t{0});
  t.uncovered_requests_counted = j.value("uncovered_requests_counted", false);
  t.engine = j.value("engine", std::string());
  t.engine_reason = j.value("engine_reason", std::string());
  t.origin = j.value("origin", std::string());
  for (const auto& b : j.at("buffers"))
    t.buffers.push_back({b.at("name").get<std::string>(), b.at("bytes").get<std::uint64_t>(),
                         b.at("base").get<std::uint64_t>()});
  for (const auto& s : j.at("sites")) {
    SiteInfo si;
    si.line = s.at("line").get<std::uint32_t>();
    const int space = s.at("space").get<int>(), op = s.at("op").get<int>();
    if (space < 0 || space >= kMemorySpaces || op < 0 || op > 2)
      throw std::runtime_error("a site has an unknown memory space or operation");
    si.space = static_cast<MemorySpace>(space);
    si.op = static_cast<AccessOp>(op);
    si.size = s.at("size").get<std::uint8_t>();
    si.buffer = s.at("buffer").get<std::uint16_t>();
    si.code = s.at("code").get<std::string>();
    si.file = s.value("file", std::string());         // version 1 has none
    si.column = s.value("column", std::uint16_t{0});  // lesson traces before programs: none
    si.end_column = s.value("end_column", std::uint16_t{0});
    si.async_copy = s.value("async_copy", false);      // before format 4: none
    si.bulk_copy = s.value("bulk_copy", false);        // a TMA copy's; none before 2026-12-04
    si.fragment = s.value("fragment", std::string());  // a wmma load or store's; none before
    si.file_tag = FileTagOf(si.file);
    // The compiled code's width at the site's line (none before 2026-12-04): 2, 4, 8 or 16 bytes,
    // more than the source's.
    const int compiled_width = s.value("compiled_width", 0);
    if (compiled_width < 0 || compiled_width > 16)
      throw std::runtime_error("a site's compiled width is not 2, 4, 8 or 16 bytes");
    si.compiled_width = static_cast<std::uint8_t>(compiled_width);
    // A bulk copy's pieces are a source sector's part of it: 16 or 32 bytes.
    if (si.size == 0 || si.size > (si.bulk_copy ? 32 : 16))
      throw std::runtime_error(si.bulk_copy ? "a bulk copy site's piece is not 1-32 bytes"
                                            : "a site's access size is not 1-16");
    if (si.compiled_width != 0 &&
        ((si.compiled_width & (si.compiled_width - 1)) != 0 || si.compiled_width <= si.size ||
         si.compiled_width % si.size != 0 || si.space != MemorySpace::kShared ||
         si.op == AccessOp::kAtomic || si.async_copy))
      throw std::runtime_error(
          "a site's compiled width is not 2, 4, 8 or 16 bytes, a multiple of its access size, at "
          "a shared load or store");
    if (si.space != MemorySpace::kShared && si.buffer >= t.buffers.size() &&
        si.buffer != kSeveralBuffers &&
        !(si.space == MemorySpace::kLocal && si.buffer == kLocalArray))
      throw std::runtime_error("a site names a buffer the launch does not have");
    t.sites.push_back(std::move(si));
  }
  for (const auto& b : j.at("barrier_sites")) {
    BarrierSite site{b.at("line").get<std::uint32_t>(), b.at("code").get<std::string>(), 0,
                     b.value("file", std::string())};
    site.file_tag = FileTagOf(site.file);
    site.tile = b.value("tile", 0u);
    if (site.tile != 0 &&
        (site.tile < 64 || site.tile > 1024 || (site.tile & (site.tile - 1)) != 0))
      throw std::runtime_error("a barrier site's tile of " + std::to_string(site.tile) +
                               " threads: a multi-warp tile is a power of two from 64 to 1024");
    t.barrier_sites.push_back(std::move(site));
  }
  if (j.contains("warp_op_sites")) {  // version 3
    for (const auto& w : j.at("warp_op_sites")) {
      WarpOpSite site;
      site.line = w.at("line").get<std::uint32_t>();
      const int kind = w.at("kind").get<int>();
      if (kind < 0 || kind >= kWarpOpKinds) throw std::runtime_error("an unknown warp-op kind");
      site.kind = static_cast<WarpOpKind>(kind);
      site.file = w.value("file", std::string());
      site.file_tag = FileTagOf(site.file);
      site.code = w.value("code", std::string());
      t.warp_op_counts.push_back(w.value("count", std::uint64_t{0}));
      t.warp_op_sites.push_back(std::move(site));
    }
  }
  const auto& st = j.at("stats");
  t.stats.access_records = st.at("access_records").get<std::uint64_t>();
  t.stats.barrier_records = st.at("barrier_records").get<std::uint64_t>();
  t.stats.divergent_warps = st.at("divergent_warps").get<std::uint64_t>();
  if (j.contains("cluster")) {  // a cluster launch's (absent: none, or an older file)
    const auto& c = j.at("cluster");
    t.cluster = {c.at(0).get<std::uint32_t>(), c.at(1).get<std::uint32_t>(),
                 c.at(2).get<std::uint32_t>()};
    const std::uint64_t n = t.cluster.count();
    if (t.cluster.x == 0 || t.cluster.y == 0 || t.cluster.z == 0 || t.cluster.x > 16 ||
        t.cluster.y > 16 || t.cluster.z > 16 || n > 16 || t.grid.x % t.cluster.x != 0 ||
        t.grid.y % t.cluster.y != 0 || t.grid.z % t.cluster.z != 0)
      throw std::runtime_error("a cluster of " + std::to_string(n) +
                               " blocks: a cluster holds 1 to 16, and the grid whole clusters");
    t.stats.cluster_bytes = st.value("cluster_bytes", std::vector<std::uint64_t>());
    t.stats.cluster_accesses = st.value("cluster_accesses", std::vector<std::uint64_t>());
    t.cluster_kept_only = st.contains("cluster_blocks_counted");
    t.cluster_blocks_counted = st.value("cluster_blocks_counted", std::uint64_t{0});
    if ((!t.stats.cluster_bytes.empty() && t.stats.cluster_bytes.size() != n * n) ||
        t.stats.cluster_accesses.size() != t.stats.cluster_bytes.size())
      throw std::runtime_error("a cluster's traffic is not " + std::to_string(n) + " x " +
                               std::to_string(n) + " figures");
  }
  t.barrier_skew_kept_only = st.contains("barrier_skew_blocks");
  t.barrier_skew_blocks = st.value("barrier_skew_blocks", std::uint64_t{0});
  t.stats.flops_counted = st.contains("flops");  // absent: not counted (or an older file)
  if (t.stats.flops_counted) t.stats.flops = st.at("flops").get<std::uint64_t>();
  t.stats.thread_clock = st.value("thread_clock", std::uint64_t{0});  // absent: an older file
  for (const auto& s : st.at("sites")) t.stats.sites.push_back(SiteStatsFrom(s));
  for (const auto& b : st.at("barriers")) {
    t.stats.barriers.push_back(
        {b.at("instances").get<std::uint64_t>(), b.at("max_skew").get<std::uint64_t>(),
         b.at("wait_sum").get<std::uint64_t>(), b.at("thread_arrivals").get<std::uint64_t>(),
         b.at("max_wait").get<std::uint64_t>()});
  }
  return t;
}

}  // namespace ws::trace_json

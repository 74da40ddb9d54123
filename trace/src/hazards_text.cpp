// The hazard report in words and as JSON (see hazards.h).
#include <cstring>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "warpscope/trace/hazards.h"
#include "warpscope/trace/launch.h"
#include "warpscope/trace/units.h"

namespace ws {
namespace {

// "0-3, 7"
std::string BlockList(const std::vector<std::uint32_t>& ids) {
  std::ostringstream s;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    s << (i > 0 ? ", " : "") << ids[i];
    if (j > i) s << (j == i + 1 ? ", " : "-") << ids[j];
    i = j + 1;
  }
  return s.str();
}

}  // namespace

std::string HazardReport::Checked() const {
  std::ostringstream s;
  auto n = [](std::uint64_t v) { return FormatNumber(static_cast<double>(v)); };
  if (whole_grid && grid_synced) {
    s << (blocks_in_grid == 1 ? "the one block" : "every block of " + n(blocks_in_grid))
      << ": shared memory within each block (" << n(shared_accesses)
      << " accesses), global memory within and across blocks between grid syncs ("
      << n(global_accesses) << " accesses)";
  } else if (whole_grid) {
    s << (blocks_in_grid == 1 ? "the one block" : "every block of " + n(blocks_in_grid))
      << ": shared memory within each block (" << n(shared_accesses)
      << " accesses), global memory within and across blocks (" << n(global_accesses)
      << " accesses)";
    if (device_scanned)
      s << (racing_blocks == 0 ? "; checked on the GPU, where no block's threads shared a "
                                 "written word"
                               : "; on the GPU, " + n(racing_blocks) +
                                     (racing_blocks == 1 ? " block's" : " blocks'") +
                                     " threads shared a written word: the pairs counted from " +
                                     (racing_blocks == 1 ? "its" : "their") +
                                     " records (the other blocks have none)");
  } else {
    s << "shared memory within each of block" << (blocks.size() == 1 ? " " : "s ")
      << BlockList(blocks) << " of " << n(blocks_in_grid) << " (" << n(shared_accesses)
      << " accesses), global memory "
      << (grid_synced          ? "within each of them"
          : blocks.size() == 1 ? "among its threads"
                               : "among them")
      << " (" << n(global_accesses) << " accesses)";
    if (grid_synced)
      s << "; not across blocks, whose grid syncs the check follows on the emulator only (yet)";
    if (device_scanned)
      s << "; on the GPU every block was checked: " << n(racing_blocks) << " of "
        << n(blocks_in_grid) << " had threads sharing a written word; "
        << (device_gap.empty() ? std::string("the pairs counted in the kept blocks only")
                               : device_gap);
  }
  if (truncated)
    s << "; a block's pairs stopped after " << n(kMaxPairChecks) << " pairs of accesses";
  if (cut_intervals > 0)
    s << "; " << n(cut_intervals) << " barrier interval" << (cut_intervals == 1 ? "" : "s")
      << " longer than " << n(kMaxIntervalAccesses) << " accesses checked in pieces that long";
  if (unshadowed_accesses > 0)
    s << "; " << n(unshadowed_accesses) << " global accesses past the shadow's bounds ("
      << n(kMaxShadowBytes >> 20) << " MiB, and 64 MiB of reads waiting) not checked across blocks";
  if (unchecked_async_writes > 0)
    s << "; " << n(unchecked_async_writes)
      << " shared writes of asynchronous copies not checked (on the GPU they are recorded where "
         "each copy was issued, and the waits that order them are not)";
  if (unlogged_reads > 0)
    s << "; " << n(unlogged_reads)
      << " global loads of a buffer the kernel only reads by its text, which a store reached "
         "after all, not checked";
  return s.str();
}

std::string ThreadName(std::uint32_t linear, const Dim3& block) {
  return "(" + std::to_string(linear % block.x) + "," + std::to_string(linear / block.x % block.y) +
         "," + std::to_string(linear / (block.x * block.y)) + ")";
}

namespace {

bool IsWriteSite(const LaunchTrace& t, std::uint16_t site) {
  return site < t.sites.size() && t.sites[site].op != AccessOp::kLoad;
}

// A recorded value as a student reads it: the records keep bits, not types, so a small whole
// number is shown as one and anything else as the float (or double) those bits make. A shared
// read of all-ones bytes is the emulator's fill for shared memory nobody has written.
std::string ValueText(std::uint64_t bits, std::uint8_t size, bool unwritten_read) {
  if (size == 4 || size == 8) {
    const bool ones = size == 4 ? bits == 0xffffffffu : bits == ~0ull;
    if (ones && unwritten_read) return "nothing written yet (all bytes 0xff)";
    const std::int64_t whole = size == 4
                                   ? static_cast<std::int32_t>(static_cast<std::uint32_t>(bits))
                                   : static_cast<std::int64_t>(bits);
    if (whole > -(1 << 24) && whole < (1 << 24)) return std::to_string(whole);
    double value = 0;
    if (size == 4) {
      float f = 0;
      const auto u = static_cast<std::uint32_t>(bits);
      std::memcpy(&f, &u, 4);
      value = f;
    } else {
      std::memcpy(&value, &bits, 8);
    }
    return FormatNumber(value) + (size == 4 ? " (as a float)" : " (as a double)");
  }
  return std::to_string(bits);
}

}  // namespace

std::string DescribeHazard(const HazardGroup& g, const LaunchTrace& launch) {
  std::ostringstream s;
  s << ToString(g.kind) << " in " << ToString(g.space) << " memory, line " << g.first_line
    << " -> line " << g.second_line << ": " << FormatNumber(static_cast<double>(g.count))
    << (g.count == 1 ? " pair" : " pairs");
  if (g.kind == HazardKind::kEarlyRead)
    ;  // one thread's: no warp to say
  else if (g.SameWarpOnly())
    s << " (all within one warp)";
  else if (g.same_warp > 0)
    s << " (" << FormatNumber(static_cast<double>(g.same_warp)) << " within one warp)";
  const HazardAccess& a = g.example_first;
  const HazardAccess& b = g.example_second;
  auto side = [&](const HazardAccess& x) {
    std::ostringstream o;
    const bool write = IsWriteSite(launch, x.site);
    o << "thread " << ThreadName(x.thread, launch.block) << " " << (write ? "writes" : "reads");
    if (x.has_value && x.site < launch.sites.size())
      o << " "
        << ValueText(x.value, launch.sites[x.site].size,
                     !write && launch.sites[x.site].space == MemorySpace::kShared);
    return o.str();
  };
  const bool ns = launch.time_unit == "ns";
  auto when = [&](std::uint32_t t) {
    return ns ? "at " + std::to_string(t) + " ns" : "step " + std::to_string(t);
  };
  if (g.kind == HazardKind::kEarlyRead) {  // one thread: its read, then where its copy lands
    s << ". E.g. block " << a.block << ": " << side(b) << " at byte " << g.example_offset << " ("
      << when(b.time) << ") before its own asynchronous copy on line " << g.first_line
      << " landed there: it may read the old bytes or the copy's. Wait for the copy first "
         "(__pipeline_wait_prior, consumer_wait, arrive_and_wait).";
    return s.str();
  }
  s << ". E.g. block " << a.block << ": " << side(a);
  if (g.space == MemorySpace::kGlobal && g.example_buffer < launch.buffers.size())
    s << " at byte " << g.example_offset << " of " << launch.buffers[g.example_buffer].name;
  else
    s << " at byte " << g.example_offset;
  s << " (" << when(a.time) << ") and ";
  if (b.block != a.block) s << "block " << b.block << "'s ";
  s << side(b) << " there (" << when(b.time) << "), "
    << (b.block != a.block ? "in another block: no barrier orders blocks."
                           : "with no __syncthreads() between them.");
  return s.str();
}

std::string HazardsText(const HazardReport& r, const LaunchTrace& launch) {
  if (r.groups.empty()) return "no hazards found (checked " + r.Checked() + ")\n";
  std::ostringstream s;
  s << FormatNumber(static_cast<double>(r.Total())) << " hazards (checked " << r.Checked()
    << "):\n";
  for (const HazardGroup& g : r.groups) s << "  " << DescribeHazard(g, launch) << "\n";
  return s.str();
}

std::string HazardBadge(const HazardGroup& g) {
  std::string s = std::string(g.kind == HazardKind::kWawSameValue ? "WAW=" : ToString(g.kind)) +
                  " " + FormatNumber(static_cast<double>(g.count));
  if (g.SameWarpOnly() && g.kind != HazardKind::kEarlyRead) s += ", same warp";  // one thread's
  return s;
}

namespace {

nlohmann::json SideJson(const HazardAccess& a) {
  nlohmann::json j = {{"block", a.block},
                      {"thread", a.thread},
                      {"site", a.site},
                      {"time", a.time},
                      {"epoch", a.epoch}};
  if (a.has_value) j["value"] = a.value;
  return j;
}

HazardAccess SideFrom(const nlohmann::json& j) {
  HazardAccess a;
  a.block = j.at("block").get<std::uint32_t>();
  a.thread = j.at("thread").get<std::uint16_t>();
  a.site = j.at("site").get<std::uint16_t>();
  a.time = j.at("time").get<std::uint32_t>();
  a.epoch = j.at("epoch").get<std::uint32_t>();
  a.has_value = j.contains("value");
  if (a.has_value) a.value = j.at("value").get<std::uint64_t>();
  return a;
}

}  // namespace

nlohmann::json HazardsJson(const HazardReport& r) {
  nlohmann::json j;
  j["checked"] = r.Checked();
  j["whole_grid"] = r.whole_grid;
  j["unshadowed_accesses"] = r.unshadowed_accesses;
  j["unlogged_reads"] = r.unlogged_reads;
  if (r.grid_synced) j["grid_synced"] = true;
  if (r.device_scanned) {
    j["device_scanned"] = true;
    j["racing_blocks"] = r.racing_blocks;
    if (!r.device_gap.empty()) j["device_gap"] = r.device_gap;
  }
  j["cut_intervals"] = r.cut_intervals;
  j["blocks"] = r.blocks;
  j["blocks_in_grid"] = r.blocks_in_grid;
  j["shared_accesses"] = r.shared_accesses;
  j["global_accesses"] = r.global_accesses;
  j["values_known"] = r.values_known;
  j["truncated"] = r.truncated;
  j["total"] = r.Total();
  j["groups"] = nlohmann::json::array();
  for (const HazardGroup& g : r.groups) {
    j["groups"].push_back({{"kind", ToString(g.kind)},
                           {"space", ToString(g.space)},
                           {"lines", {g.first_line, g.second_line}},
                           {"sites", {g.first_site, g.second_site}},
                           {"count", g.count},
                           {"same_warp", g.same_warp},
                           {"example",
                            {{"first", SideJson(g.example_first)},
                             {"second", SideJson(g.example_second)},
                             {"offset", g.example_offset},
                             {"address", g.example_address},
                             {"buffer", g.example_buffer}}}});
  }
  return j;
}

Result<HazardReport> HazardsFromJson(const nlohmann::json& j) {
  try {
    HazardReport r;
    r.whole_grid = j.value("whole_grid", false);  // files from before whole-grid checks
    r.unshadowed_accesses = j.value("unshadowed_accesses", std::uint64_t{0});
    r.unlogged_reads = j.value("unlogged_reads", std::uint64_t{0});
    r.grid_synced = j.value("grid_synced", false);
    r.device_scanned = j.value("device_scanned", false);
    r.racing_blocks = j.value("racing_blocks", std::uint64_t{0});
    r.device_gap = j.value("device_gap", std::string());
    r.cut_intervals = j.value("cut_intervals", std::uint64_t{0});
    r.blocks = j.at("blocks").get<std::vector<std::uint32_t>>();
    r.blocks_in_grid = j.at("blocks_in_grid").get<std::uint64_t>();
    r.shared_accesses = j.at("shared_accesses").get<std::uint64_t>();
    r.global_accesses = j.at("global_accesses").get<std::uint64_t>();
    r.values_known = j.at("values_known").get<bool>();
    r.truncated = j.at("truncated").get<bool>();
    for (const auto& x : j.at("groups")) {
      HazardGroup g;
      const std::string kind = x.at("kind").get<std::string>();
      bool known = false;
      for (int k = 0; k < kHazardKinds; ++k) {
        if (kind == ToString(static_cast<HazardKind>(k))) {
          g.kind = static_cast<HazardKind>(k);
          known = true;
        }
      }
      if (!known) return Status::Error("hazards: unknown kind '" + kind + "'");
      const std::string space = x.at("space").get<std::string>();
      if (space != "shared" && space != "global")
        return Status::Error("hazards: a race in " + space + " memory");
      g.space = space == "shared" ? MemorySpace::kShared : MemorySpace::kGlobal;
      const auto lines = x.at("lines").get<std::vector<std::uint32_t>>();
      const auto sites = x.at("sites").get<std::vector<std::uint16_t>>();
      if (lines.size() != 2 || sites.size() != 2)
        return Status::Error("hazards: a group needs two lines and two sites");
      g.first_line = lines[0];
      g.second_line = lines[1];
      g.first_site = sites[0];
      g.second_site = sites[1];
      g.count = x.at("count").get<std::uint64_t>();
      g.same_warp = x.at("same_warp").get<std::uint64_t>();
      if (g.same_warp > g.count) return Status::Error("hazards: more same-warp pairs than pairs");
      const auto& e = x.at("example");
      g.example_first = SideFrom(e.at("first"));
      g.example_second = SideFrom(e.at("second"));
      g.example_offset = e.at("offset").get<std::uint64_t>();
      g.example_address = e.at("address").get<std::uint64_t>();
      g.example_buffer = e.at("buffer").get<std::uint16_t>();
      r.groups.push_back(g);
    }
    return r;
  } catch (const nlohmann::json::exception& e) {
    return Status::Error(std::string("hazards: ") + e.what());
  }
}

}  // namespace ws

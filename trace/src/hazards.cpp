// Hazards from the kept blocks' records (see hazards.h). Every access is cut into the 4-byte
// words it covers, with a mask of the bytes it touches in each; the accesses of one word are
// then paired, a write against every other access, so that a word read by a thousand threads
// and written by none costs nothing.
#include "warpscope/trace/hazards.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "warpscope/trace/launch.h"
#include "warpscope/trace/units.h"

namespace ws {

const char* ToString(HazardKind k) {
  switch (k) {
    case HazardKind::kRaw:
      return "RAW";
    case HazardKind::kWar:
      return "WAR";
    case HazardKind::kWaw:
      return "WAW";
    case HazardKind::kWawSameValue:
      return "WAW (same value)";
  }
  return "?";
}

std::uint64_t HazardReport::Count(HazardKind k) const {
  std::uint64_t n = 0;
  for (const HazardGroup& g : groups) n += g.kind == k ? g.count : 0;
  return n;
}

std::uint64_t HazardReport::Total() const {
  std::uint64_t n = 0;
  for (const HazardGroup& g : groups) n += g.count;
  return n;
}

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

struct Access {
  HazardAccess a;
  AccessOp op = AccessOp::kLoad;
  std::uint32_t first_word = 0;  // the first word the access covers
  std::uint32_t offset = 0;
  std::uint32_t line = 0;
  std::uint16_t buffer = 0;
};

// One word touched by one access.
struct Touch {
  std::uint64_t key = 0;  // (space, buffer or block, word): see WordKey
  std::uint32_t access = 0;
  std::uint8_t mask = 0;  // the bytes of the word it touches
};

std::uint64_t WordKey(MemorySpace space, std::uint32_t block, std::uint16_t buffer,
                      std::uint32_t word) {
  // Shared words are per block; global words per buffer. 30 bits of word: 4 GiB per buffer.
  const std::uint64_t owner =
      space == MemorySpace::kShared ? (std::uint64_t{1} << 31) | block : std::uint64_t{buffer};
  return (owner << 32) | word;
}

bool IsWrite(AccessOp op) {
  return op != AccessOp::kLoad;
}

}  // namespace

HazardReport FindHazards(const LaunchTrace& launch) {
  HazardReport report;
  report.blocks_in_grid = launch.grid.count();
  std::vector<Access> accesses;
  std::vector<Touch> touches;
  bool values = true;
  for (const BlockRecords& b : launch.blocks) {
    report.blocks.push_back(b.block);
    const bool has_values = b.values.size() == b.accesses.size();
    for (std::size_t i = 0; i < b.accesses.size(); ++i) {
      const AccessRecord& r = b.accesses[i];
      if (r.site >= launch.sites.size()) continue;
      const SiteInfo& site = launch.sites[r.site];
      if (site.space != MemorySpace::kShared && site.space != MemorySpace::kGlobal) continue;
      (site.space == MemorySpace::kShared ? report.shared_accesses : report.global_accesses)++;
      values = values && has_values;
      Access x;
      x.a = {b.block, r.thread, r.site, r.time, r.epoch, has_values, has_values ? b.values[i] : 0};
      x.op = site.op;
      x.offset = r.offset;
      x.first_word = r.offset / 4;
      x.line = site.line;
      x.buffer = site.buffer;
      const auto index = static_cast<std::uint32_t>(accesses.size());
      accesses.push_back(x);
      const std::uint32_t end = r.offset + std::max<std::uint32_t>(site.size, 1);
      for (std::uint32_t w = r.offset / 4; w * 4 < end; ++w) {
        std::uint8_t mask = 0;
        for (std::uint32_t byte = 0; byte < 4; ++byte) {
          const std::uint32_t at = w * 4 + byte;
          if (at >= r.offset && at < end) mask |= static_cast<std::uint8_t>(1u << byte);
        }
        touches.push_back({WordKey(site.space, b.block, site.buffer, w), index, mask});
      }
    }
  }
  std::sort(report.blocks.begin(), report.blocks.end());
  report.values_known = values && !accesses.empty();
  // __syncwarp() orders the memory accesses of the lanes it names (as the CUDA programming guide
  // says; cooperative groups' tile.sync() is one): per kept block and warp, its meetings' times
  // and masks. A lane's access before a meeting has an earlier logical time, one after it a later.
  std::map<std::pair<std::uint32_t, std::uint16_t>,
           std::vector<std::pair<std::uint32_t, std::uint32_t>>>
      warp_syncs;
  for (const BlockRecords& b : launch.blocks) {
    for (const WarpOpRecord& w : b.warp_ops) {
      if (w.site < launch.warp_op_sites.size() &&
          launch.warp_op_sites[w.site].kind == WarpOpKind::kSyncWarp)
        warp_syncs[{b.block, w.warp}].push_back({w.time, w.mask});
    }
  }
  for (auto& [key, list] : warp_syncs) std::sort(list.begin(), list.end());
  auto ordered_by_syncwarp = [&](const HazardAccess& x, const HazardAccess& y) {
    if (x.block != y.block || x.thread / 32 != y.thread / 32) return false;
    const auto it = warp_syncs.find({x.block, static_cast<std::uint16_t>(x.thread / 32)});
    if (it == warp_syncs.end()) return false;
    const std::uint32_t lanes = (1u << (x.thread % 32)) | (1u << (y.thread % 32));
    const std::uint32_t lo = std::min(x.time, y.time), hi = std::max(x.time, y.time);
    for (auto m = std::upper_bound(it->second.begin(), it->second.end(),
                                   std::pair<std::uint32_t, std::uint32_t>{lo, ~0u});
         m != it->second.end() && m->first < hi; ++m) {
      if ((m->second & lanes) == lanes) return true;
    }
    return false;
  };
  // Blocks that meet at a global word through atomics (a ticket, a lock, a counter such as
  // threadFenceReduction's retirementCount) order their accesses through it, as the CUDA
  // programming guide's last-block pattern does with __threadfence(): an access before a block's
  // atomic on the word is ordered before an access after another block's atomic on it. (Which
  // block's atomic came first is not recorded, nor are fences: a missing __threadfence() is not
  // found.) Only words at most kMaxSyncWords take part, so that a histogram's bins cost nothing.
  constexpr std::size_t kMaxSyncWords = 64;
  std::map<std::uint64_t, std::map<std::uint32_t, std::vector<std::uint32_t>>> atomics;
  for (const Touch& t : touches) {
    const Access& x = accesses[t.access];
    if (x.op == AccessOp::kAtomic && launch.sites[x.a.site].space == MemorySpace::kGlobal)
      atomics[t.key][x.a.block].push_back(t.access);
  }
  std::vector<const std::map<std::uint32_t, std::vector<std::uint32_t>>*> sync_words;
  for (const auto& [key, blocks] : atomics) {
    if (blocks.size() >= 2) sync_words.push_back(&blocks);
  }
  if (sync_words.size() > kMaxSyncWords) sync_words.clear();
  auto before_atomic = [&](const HazardAccess& x, const std::vector<std::uint32_t>& list) {
    for (std::uint32_t k : list) {
      const HazardAccess& a = accesses[k].a;
      if ((a.thread == x.thread && x.time <= a.time) || x.epoch < a.epoch) return true;
    }
    return false;
  };
  auto after_atomic = [&](const HazardAccess& y, const std::vector<std::uint32_t>& list) {
    for (std::uint32_t k : list) {
      const HazardAccess& a = accesses[k].a;
      if ((a.thread == y.thread && y.time >= a.time) || y.epoch > a.epoch) return true;
    }
    return false;
  };
  auto ordered_by_atomics = [&](const HazardAccess& x, const HazardAccess& y) {
    if (x.block == y.block) return false;
    for (const auto* blocks : sync_words) {
      const auto ax = blocks->find(x.block), ay = blocks->find(y.block);
      if (ax == blocks->end() || ay == blocks->end()) continue;
      if ((before_atomic(x, ax->second) && after_atomic(y, ay->second)) ||
          (before_atomic(y, ay->second) && after_atomic(x, ax->second)))
        return true;
    }
    return false;
  };
  // Words in order; within a word, accesses in record order (blocks ascending, then execution).
  std::stable_sort(touches.begin(), touches.end(),
                   [](const Touch& x, const Touch& y) { return x.key < y.key; });

  using GroupKey = std::tuple<int, int, std::uint16_t, std::uint16_t>;  // kind, space, sites
  std::map<GroupKey, HazardGroup> groups;
  std::uint64_t checks = 0;
  auto pair = [&](const Touch& tx, const Touch& ty) {
    const Access& x = accesses[tx.access];
    const Access& y = accesses[ty.access];
    if (x.a.block == y.a.block && x.a.thread == y.a.thread) return;  // one thread: in order
    if ((tx.mask & ty.mask) == 0) return;                            // different bytes
    if (x.op == AccessOp::kAtomic && y.op == AccessOp::kAtomic) return;
    if (x.a.block == y.a.block && x.a.epoch != y.a.epoch) return;  // a barrier between them
    if (ordered_by_syncwarp(x.a, y.a)) return;                     // a __syncwarp() between
    if (ordered_by_atomics(x.a, y.a)) return;  // blocks that meet through an atomic
    // Count the pair once: at the first word both cover.
    const std::uint32_t word = static_cast<std::uint32_t>(tx.key & 0xffffffffu);
    if (word != std::max(x.first_word, y.first_word)) return;
    const bool x_first = std::tie(x.a.time, x.line, x.a.site, x.a.block, x.a.thread) <=
                         std::tie(y.a.time, y.line, y.a.site, y.a.block, y.a.thread);
    const Access& f = x_first ? x : y;
    const Access& s = x_first ? y : x;
    HazardKind kind = HazardKind::kWaw;
    if (!IsWrite(s.op))
      kind = HazardKind::kRaw;
    else if (!IsWrite(f.op))
      kind = HazardKind::kWar;
    else if (f.op == AccessOp::kStore && s.op == AccessOp::kStore && f.a.has_value &&
             s.a.has_value && f.a.value == s.a.value)
      kind = HazardKind::kWawSameValue;
    const MemorySpace space = launch.sites[f.a.site].space;
    auto [it, fresh] = groups.try_emplace(
        GroupKey{static_cast<int>(kind), static_cast<int>(space), f.a.site, s.a.site});
    HazardGroup& g = it->second;
    if (fresh) {
      g.kind = kind;
      g.space = space;
      g.first_site = f.a.site;
      g.second_site = s.a.site;
      g.first_line = f.line;
      g.second_line = s.line;
      g.example_first = f.a;
      g.example_second = s.a;
      g.example_offset = std::max(f.offset, s.offset);
      g.example_buffer = f.buffer;
      g.example_address = g.example_offset;
      if (space == MemorySpace::kGlobal && f.buffer < launch.buffers.size())
        g.example_address += launch.buffers[f.buffer].base;
    }
    ++g.count;
    if (f.a.block == s.a.block && f.a.thread / 32 == s.a.thread / 32) ++g.same_warp;
  };

  for (std::size_t lo = 0; lo < touches.size() && !report.truncated;) {
    std::size_t hi = lo;
    while (hi < touches.size() && touches[hi].key == touches[lo].key) ++hi;
    // Only atomics (a histogram's bin): no pair races. (Only loads costs one pass below.)
    bool plain = false, loads = false;
    for (std::size_t i = lo; i < hi; ++i) {
      const AccessOp op = accesses[touches[i].access].op;
      plain |= op == AccessOp::kStore;
      loads |= op == AccessOp::kLoad;
    }
    if (!plain && !loads) {
      lo = hi;
      continue;
    }
    // A write against every access after it, and every read before it: each pair once.
    for (std::size_t i = lo; i < hi && !report.truncated; ++i) {
      if (!IsWrite(accesses[touches[i].access].op)) continue;
      for (std::size_t j = lo; j < hi; ++j) {
        if (j == i || (j < i && IsWrite(accesses[touches[j].access].op))) continue;
        pair(touches[i], touches[j]);
        if (++checks > HazardReport::kMaxPairChecks) {
          report.truncated = true;
          break;
        }
      }
    }
    lo = hi;
  }
  for (auto& [key, g] : groups) report.groups.push_back(g);
  std::sort(report.groups.begin(), report.groups.end(),
            [](const HazardGroup& x, const HazardGroup& y) {
              return std::tie(x.kind, x.first_line, x.second_line, x.first_site, x.second_site) <
                     std::tie(y.kind, y.first_line, y.second_line, y.first_site, y.second_site);
            });
  return report;
}

std::string HazardReport::Checked() const {
  std::ostringstream s;
  s << "shared memory within each of block" << (blocks.size() == 1 ? " " : "s ")
    << BlockList(blocks) << " of " << FormatNumber(static_cast<double>(blocks_in_grid)) << " ("
    << FormatNumber(static_cast<double>(shared_accesses)) << " accesses), global memory among "
    << (blocks.size() == 1 ? "its threads" : "them") << " ("
    << FormatNumber(static_cast<double>(global_accesses)) << " accesses)";
  if (truncated)
    s << "; stopped after " << FormatNumber(static_cast<double>(kMaxPairChecks))
      << " pairs of accesses";
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
  if (g.SameWarpOnly())
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
  s << ". E.g. block " << a.block << ": " << side(a);
  if (g.space == MemorySpace::kGlobal && g.example_buffer < launch.buffers.size())
    s << " at byte " << g.example_offset << " of " << launch.buffers[g.example_buffer].name;
  else
    s << " at byte " << g.example_offset;
  const bool ns = launch.time_unit == "ns";
  auto when = [&](std::uint32_t t) {
    return ns ? "at " + std::to_string(t) + " ns" : "step " + std::to_string(t);
  };
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
  if (g.SameWarpOnly()) s += ", same warp";
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
      for (int k = 0; k < 4; ++k) {
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

#include "warpscope/viz/fragment_map.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <sstream>

#include "warpscope/trace/request.h"
#include "warpscope/viz/fragment_table.h"

namespace ws {

std::string FragmentType::Title() const {
  const std::string what = use == "a" ? "matrix_a" : use == "b" ? "matrix_b" : "accumulator";
  return what + ", " + shape + ", " + type + ", " + (layout == "row" ? "row" : "column") + " major";
}

std::uint32_t FragmentType::ElementBytes() const {
  if (type == "half" || type == "bf16") return 2;
  if (type == "s8" || type == "u8") return 1;
  if (type == "double") return 8;
  return 4;  // float, int, tf32 (held in 32 bits)
}

namespace {

// "m16n16k16": m, n and k; the tile of `use` is m x k (a), k x n (b), m x n (c).
bool TileOf(const std::string& shape, const std::string& use, std::uint32_t* rows,
            std::uint32_t* cols) {
  unsigned m = 0, n = 0, k = 0;
  if (std::sscanf(shape.c_str(), "m%un%uk%u", &m, &n, &k) != 3) return false;
  *rows = use == "b" ? k : m;
  *cols = use == "a" ? k : n;
  return *rows > 0 && *cols > 0 && *rows <= 64 && *cols <= 64;
}

}  // namespace

std::vector<FragmentType> ParseFragmentTypes(std::string_view tsv) {
  std::vector<FragmentType> types;
  std::istringstream in{std::string(tsv)};
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    FragmentType t;
    unsigned lane = 0;
    if (!(fields >> t.shape >> t.use >> t.type >> t.layout >> t.elements >> lane) || lane >= 32 ||
        t.elements == 0 || t.elements > 64 || !TileOf(t.shape, t.use, &t.rows, &t.cols))
      continue;
    if (types.empty() || types.back().Name() != t.Name()) {
      t.at.assign(std::size_t{32} * t.elements * 2, 0xff);
      types.push_back(std::move(t));
    }
    FragmentType& into = types.back();
    std::string pair;
    for (std::uint32_t i = 0; i < into.elements && fields >> pair; ++i) {
      unsigned r = 0, c = 0;
      if (std::sscanf(pair.c_str(), "%u,%u", &r, &c) != 2 || r >= into.rows || c >= into.cols)
        continue;
      into.at[(lane * into.elements + i) * 2] = static_cast<std::uint8_t>(r);
      into.at[(lane * into.elements + i) * 2 + 1] = static_cast<std::uint8_t>(c);
    }
  }
  return types;
}

const std::vector<FragmentType>& FragmentTypes() {
  static const std::vector<FragmentType> types =
      ParseFragmentTypes(viz_fragment_table::kFragmentsTsv);
  return types;
}

const FragmentType* FindFragmentType(std::string_view name) {
  for (const FragmentType& t : FragmentTypes())
    if (t.Name() == name) return &t;
  return nullptr;
}

FragmentMap MakeFragmentMap(const FragmentType& t) {
  FragmentMap m;
  m.rows = t.rows;
  m.cols = t.cols;
  m.cells.assign(std::size_t{t.rows} * t.cols, {});
  std::vector<std::uint32_t> held(m.cells.size(), 0);
  for (std::uint32_t lane = 0; lane < 32; ++lane) {
    bool any = false;
    for (std::uint32_t i = 0; i < t.elements; ++i) {
      const std::uint8_t r = t.at[(lane * t.elements + i) * 2];
      const std::uint8_t c = t.at[(lane * t.elements + i) * 2 + 1];
      if (r >= t.rows || c >= t.cols) continue;
      FragmentCell& cell = m.cells[std::size_t{r} * t.cols + c];
      if (cell.lane < 0) cell.lane = static_cast<int>(lane);
      if (cell.lane == static_cast<int>(lane)) cell.x.push_back(i);
      ++held[std::size_t{r} * t.cols + c];
      any = true;
    }
    m.lanes += any ? 1u : 0u;
  }
  const auto [lo, hi] = std::minmax_element(held.begin(), held.end());
  m.copies = held.empty() || *lo != *hi ? 0u : *lo;
  return m;
}

std::optional<FragmentNote> ParseFragmentNote(std::string_view note) {
  const std::size_t space = note.rfind(' ');
  if (space == std::string_view::npos) return std::nullopt;
  FragmentNote n;
  n.type = std::string(note.substr(0, space));
  const std::string_view ldm = note.substr(space + 1);
  const auto [end, ec] = std::from_chars(ldm.data(), ldm.data() + ldm.size(), n.ldm);
  if (ec != std::errc() || end != ldm.data() + ldm.size() || n.ldm == 0) return std::nullopt;
  return n;
}

FragmentAccesses MakeFragmentAccesses(const LaunchTrace& launch, std::uint32_t block,
                                      std::uint16_t site, const FragmentType& t, std::uint32_t ldm,
                                      std::uint32_t request) {
  FragmentAccesses out;
  out.request = request;
  const BlockRecords* b = nullptr;
  for (const BlockRecords& k : launch.blocks)
    if (k.block == block) b = &k;
  if (b == nullptr) {
    out.message = "Block " + std::to_string(block) + "'s records were not kept.";
    return out;
  }
  if (site >= launch.sites.size()) {
    out.message = "No such site.";
    return out;
  }
  const SiteInfo& s = launch.sites[site];
  std::vector<LaneAccess> lanes;
  for (const AccessRecord& a : b->accesses) {
    if (a.site != site || a.thread >= 32) continue;
    out.requests = std::max(out.requests, a.iteration + 1);
    if (a.iteration != request) continue;
    FragmentLaneAccess l;
    l.lane = a.thread;
    l.offset = a.offset;
    l.bytes = s.size;
    out.lanes.push_back(l);
    lanes.push_back({static_cast<std::uint8_t>(a.thread), s.size, a.offset});
  }
  if (out.lanes.empty()) {
    out.message = out.requests == 0 ? "The block's first warp made no request at this site."
                                    : "The block's first warp made " +
                                          std::to_string(out.requests) + " requests at this site.";
    return out;
  }
  std::sort(out.lanes.begin(), out.lanes.end(),
            [](const auto& x, const auto& y) { return x.lane < y.lane; });
  std::uint32_t base = out.lanes.front().offset;
  for (const FragmentLaneAccess& l : out.lanes) base = std::min(base, l.offset);
  const std::uint32_t bytes = t.ElementBytes();
  out.elements_per_access = std::max<std::uint32_t>(1, s.size / bytes);
  const std::uint32_t per_phase = s.size >= 16 ? 8 : s.size == 8 ? 16 : 32;
  for (FragmentLaneAccess& l : out.lanes) {
    const std::uint32_t e = (l.offset - base) / bytes;
    l.row = t.RowMajor() ? e / ldm : e % ldm;
    l.col = t.RowMajor() ? e % ldm : e / ldm;
    l.bank = l.offset / 4 % 32;
    l.phase = l.lane / per_phase;
  }
  if (s.space == MemorySpace::kShared) {
    const SharedCost c = SharedRequestCost(lanes, s.op == AccessOp::kLoad);
    out.wavefronts = c.wavefronts;
    out.ideal = c.ideal;
  }
  return out;
}

std::string NoFragmentText(const std::string& backend) {
  if (backend == "cuda")
    return "A run on the GPU records a wmma load_matrix_sync or store_matrix_sync with the "
           "emulator's requests and figures, but does not note which fragment each site holds "
           "(yet): run the program on the emulator (--backend emu) to see its fragments here.";
  return "This launch has no wmma load_matrix_sync or store_matrix_sync. Open "
         "examples/wmma_tile.cu for one.";
}

}  // namespace ws

// The words a GPU capture holds, from the host's side (gpu_records.h): events encoded as the device
// writes them (the tests' captures), and the tally's table read back into its shapes.
#include <algorithm>
#include <map>
#include <utility>

#include "warpscope/kernels/gpu_records.h"
#include "warpscope/kernels/ws_cuda_record_format.h"

namespace ws {

std::uint32_t EncodeWarpEvent(std::uint64_t key, std::uint32_t lane_mask, std::uint32_t time,
                              const std::vector<std::uint32_t>& lane_offsets,
                              std::vector<std::uint32_t>* words, std::uint64_t instance) {
  const std::uint32_t step = lane_offsets.size() > 1 ? lane_offsets[1] - lane_offsets[0] : 0;
  bool affine = !lane_offsets.empty();
  for (std::uint32_t k = 0; k < lane_offsets.size(); ++k)
    affine = affine && lane_offsets[k] == lane_offsets[0] + k * step;
  const bool instanced = (instance >> 32) != 0;
  words->push_back(static_cast<std::uint32_t>(key) | (affine ? dev::kEventAffine : 0u) |
                   (instanced ? dev::kEventInstance : 0u));
  words->push_back(static_cast<std::uint32_t>(key >> 32));
  words->push_back(lane_mask);
  words->push_back(time);
  if (instanced) words->push_back(static_cast<std::uint32_t>(instance));
  const std::uint32_t header = dev::kEventHeaderWords + (instanced ? 1u : 0u);
  if (affine) {
    words->push_back(lane_offsets[0]);
    words->push_back(step);
    return header + 2;
  }
  words->insert(words->end(), lane_offsets.begin(), lane_offsets.end());
  return header + static_cast<std::uint32_t>(lane_offsets.size());
}

std::uint32_t EncodeWarpOpEvent(std::uint32_t kind, std::uint32_t place, std::uint32_t lane_mask,
                                std::uint32_t time, const std::uint8_t (&source)[32],
                                std::vector<std::uint32_t>* words) {
  words->insert(words->end(), {dev::kEventWarpOp | kind, place, lane_mask, time});
  for (std::uint32_t k = 0; k < 8; ++k) {
    words->push_back(std::uint32_t{source[4 * k]} | std::uint32_t{source[4 * k + 1]} << 8 |
                     std::uint32_t{source[4 * k + 2]} << 16 |
                     std::uint32_t{source[4 * k + 3]} << 24);
  }
  return dev::kWarpOpEventWords;
}

std::uint32_t EncodeAsyncCall(std::uint32_t call, std::uint32_t arg, std::uint32_t lane_mask,
                              std::uint32_t time, std::uint32_t began,
                              std::vector<std::uint32_t>* words) {
  words->insert(words->end(), {dev::kEventWarpOp | (dev::kAsyncCallBase + call), 0, lane_mask, time,
                               arg, began, 0, 0, 0, 0, 0, 0});
  return dev::kWarpOpEventWords;
}

std::uint32_t EncodeBarrierEvent(std::uint32_t place, std::uint32_t lane_mask,
                                 std::uint64_t arrival_ns, std::uint64_t departure_ns,
                                 std::uint32_t sm, std::uint32_t wait_cycles,
                                 std::vector<std::uint32_t>* words, std::uint32_t arrived) {
  words->insert(words->end(),
                {dev::kEventBarrier | (arrived & 0x7ffu) << 16, place, lane_mask,
                 static_cast<std::uint32_t>(departure_ns), static_cast<std::uint32_t>(arrival_ns),
                 static_cast<std::uint32_t>(arrival_ns >> 32), sm, wait_cycles});
  return dev::kBarrierEventWords;
}

TallyShapeCount ShapesTalliedBySteps(const GpuCapture& c) {
  TallyShapeCount n;
  const std::uint32_t rows = dev::TallyRows(c.block.x, c.block.y, c.block.z);
  for (const GpuCapture::TalliedShape& s : c.tallied) {
    if ((s.key & (dev::kTallyBarrier | dev::kTallyWarpOp)) != 0 || s.lines != 0 || s.mask != ~0u)
      continue;
    ++n.shapes;
    const std::uint32_t first = s.offsets[0], step = s.offsets[1] - first;
    // Whether its offsets are first + (lane mod 2^r) x step + (lane / 2^r) x row_step (r = 5: one
    // row, affine), as the host lays a whole warp's rows out (RowOffsets).
    auto fits = [&](std::uint32_t r, std::uint32_t row_step) {
      std::uint32_t laid[32];
      RowOffsets(first, step, row_step, 1u << r, laid);
      return std::equal(laid, laid + 32, s.offsets);
    };
    const std::uint32_t row_step = rows != 0 ? s.offsets[1u << rows] - first : 0;
    std::uint64_t want = 0;
    if (fits(5, 0)) {
      want = dev::AffineShapeHash(first, step, s.key, 32);
    } else if (rows != 0 && fits(rows, row_step)) {
      want = dev::AffineShapeHash(first, step, s.key, 32, rows, row_step);
    } else {
      continue;
    }
    ++n.steps_shaped;
    if (s.hash == want) ++n.by_steps;
  }
  return n;
}

std::vector<GpuCapture::TalliedShape> TalliedShapes(const std::vector<unsigned long long>& keys,
                                                    const std::vector<std::uint32_t>& shapes,
                                                    const std::vector<unsigned long long>& counts) {
  std::vector<GpuCapture::TalliedShape> out;
  // Spread-major: slot i's counters are keys.size() words apart (ws_cuda_record_format.h).
  const std::size_t capacity = keys.size();
  if (counts.size() < capacity * dev::kTallySpread) return out;
  for (std::size_t i = 0; i < capacity; ++i) {
    if (keys[i] == 0 || (i + 1) * dev::kTallyShapeWords > shapes.size()) continue;
    GpuCapture::TalliedShape t;
    const std::uint32_t* w = shapes.data() + i * dev::kTallyShapeWords;
    t.key = std::uint64_t{w[1]} << 32 | w[0];
    t.hash = keys[i];
    t.mask = w[2];
    t.lines = w[3];
    std::copy(w + dev::kTallyHeaderWords, w + dev::kTallyShapeWords, t.offsets);
    for (std::size_t k = 0; k < dev::kTallySpread; ++k) t.count += counts[k * capacity + i];
    if (t.count > 0 && t.mask != 0) out.push_back(t);
  }
  return out;
}

DirectTable DirectTableFor(const std::vector<GpuCapture::TalliedShape>& tallied) {
  // Each site key's counts by its step word (a barrier's: its count of threads) plus one.
  std::map<std::uint64_t, std::map<std::uint32_t, std::uint64_t>> by_key;
  for (const GpuCapture::TalliedShape& t : tallied) {
    if (t.key == 0 || t.mask != ~0u || t.count == 0 || (t.key & dev::kTallyWarpOp) != 0) continue;
    if ((t.key & dev::kTallyBarrier) != 0) {
      if (t.lines != ~0u) by_key[t.key][t.lines + 1u] += t.count;
      continue;
    }
    if (t.lines != 0) continue;  // an asynchronous copy's write
    const std::uint32_t step = t.offsets[1] - t.offsets[0];
    bool affine = step != ~0u;
    for (std::uint32_t l = 0; l < 32 && affine; ++l)
      affine = t.offsets[l] == t.offsets[0] + l * step;
    if (affine) by_key[t.key][step + 1u] += t.count;
  }
  struct Site {
    std::uint64_t key, count;
    std::uint32_t step1;
  };
  std::vector<Site> sites;
  for (const auto& [key, steps] : by_key) {
    Site best{key, 0, 0};
    for (const auto& [step1, count] : steps) {
      if (count > best.count) best.count = count, best.step1 = step1;  // ties: the smaller step
    }
    sites.push_back(best);
  }
  std::sort(sites.begin(), sites.end(), [](const Site& a, const Site& b) {
    return a.count != b.count ? a.count > b.count : a.key < b.key;
  });
  // Each site in order of its count takes its entry where it is free, else is left out.
  DirectTable table;
  if (sites.empty()) return table;
  table.sites.assign(dev::kDirectSites, dev::DirectSite{});
  for (const Site& site : sites) {
    dev::DirectSite& e = table.sites[dev::DirectSiteSlot(site.key)];
    if (e.key != 0) continue;  // a more counted site has it
    e.key = site.key;
    e.step1 = site.step1;
  }
  return table;
}

std::uint64_t AddDirectShapes(const std::vector<dev::DirectSite>& sites,
                              const std::vector<unsigned long long>& counts,
                              const std::vector<unsigned long long>& waits,
                              const std::vector<unsigned long long>& wait_max,
                              std::vector<GpuCapture::TalliedShape>* tallied) {
  std::uint64_t added = 0;
  const std::size_t words = std::size_t{dev::kTallySpread} * dev::kDirectColumn;
  if (sites.size() < dev::kDirectSites || counts.size() < words) return 0;
  const bool timed = waits.size() >= words && wait_max.size() >= words;
  for (std::uint32_t s = 0; s < dev::kDirectSites; ++s) {
    const dev::DirectSite& e = sites[s];
    if (e.key == 0 || e.step1 == 0) continue;
    const bool barrier = (e.key & dev::kTallyBarrier) != 0;
    const std::uint32_t step = e.step1 - 1u;
    for (std::uint32_t p = 0; p < (barrier ? 1u : dev::kDirectPlaces); ++p) {
      GpuCapture::TalliedShape t;
      t.key = e.key;
      t.mask = ~0u;
      for (std::size_t k = 0; k < dev::kTallySpread; ++k) {
        const std::size_t at = k * dev::kDirectColumn + std::size_t{s} * dev::kDirectPlaces + p;
        t.count += counts[at];
        if (barrier && timed) {
          t.wait_sum += waits[at];
          t.wait_max = std::max<std::uint64_t>(t.wait_max, wait_max[at]);
        }
      }
      if (t.count == 0) continue;
      added += t.count;
      if (barrier) {
        t.lines = step;  // the threads that passed each instance
      } else {
        // The place raised by whole 256-byte granules until lane 31 stays at or above 0 where the
        // step is negative (a request downwards: the reverse lesson's), so that no offset wraps
        // (the tally keeps a real first offset; costs depend on the place alone).
        std::uint32_t first = p;
        const auto signed_step = static_cast<std::int32_t>(step);
        if (signed_step < 0) {
          const std::uint64_t span = 31ull * static_cast<std::uint64_t>(-std::int64_t{signed_step});
          if (span > p) first = p + static_cast<std::uint32_t>((span - p + 255) / 256 * 256);
        }
        for (std::uint32_t l = 0; l < 32; ++l) t.offsets[l] = first + l * step;
        t.hash = dev::AffineShapeHash(first, step, e.key, 32);
      }
      // The same shape counted by the tally: a whole warp's, with the same key and lines, whose
      // lanes' offsets less the first are the same and whose first has the same place.
      auto same = [&](const GpuCapture::TalliedShape& u) {
        if (u.key != t.key || u.mask != t.mask || u.lines != t.lines) return false;
        for (std::uint32_t l = 0; l < 32; ++l) {
          if (u.offsets[l] - u.offsets[0] != t.offsets[l] - t.offsets[0]) return false;
        }
        return (u.offsets[0] & 255u) == (t.offsets[0] & 255u);
      };
      const auto found = std::find_if(tallied->begin(), tallied->end(), same);
      if (found == tallied->end()) {
        tallied->push_back(t);
      } else {
        found->count += t.count;
        found->wait_sum += t.wait_sum;
        found->wait_max = std::max(found->wait_max, t.wait_max);
      }
    }
  }
  return added;
}

}  // namespace ws

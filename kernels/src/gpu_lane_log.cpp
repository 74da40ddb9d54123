// The lane log read back (ws_cuda_lane_log.h) turned into each warp's events as the event roads
// write them (ws_cuda_record_format.h), so that the decoder (DecodeGpuCapture) reads both alike.
#include <algorithm>
#include <bit>
#include <map>
#include <string>

#include "warpscope/kernels/gpu_records.h"
#include "warpscope/kernels/ws_cuda_record_format.h"
#include "warpscope/trace/ws_cuda_keys.h"

namespace ws {

namespace {

constexpr std::uint32_t kKindBits = dev::kEventBarrier | dev::kEventWarpOp;

std::uint32_t Lowest(std::uint32_t mask) {
  return static_cast<std::uint32_t>(std::countr_zero(mask));
}

// One warp's columns: lane l's k-th record at rec(l, k), its time at time(l, k).
struct Columns {
  const std::vector<std::uint32_t>& rows;
  const std::vector<std::uint32_t>& times;
  std::uint64_t first_slot;  // the warp's row 0, lane 0
  const std::uint32_t* rec(std::uint32_t l, std::uint32_t k) const {
    return rows.data() + (first_slot + std::uint64_t{k} * 32 + l) * 4;
  }
  std::uint32_t time(std::uint32_t l, std::uint32_t k) const {
    return times[first_slot + std::uint64_t{k} * 32 + l];
  }
};

// The lanes of `mask` at their next records, which must all be of `head`'s kind, name `mask`
// as their lanes, and (a meeting's, a barrier's) its place; a barrier's second row present.
bool Ready(const Columns& c, const std::uint32_t* head, std::uint32_t mask,
           const std::uint32_t (&at)[32], const std::uint32_t (&n)[32]) {
  const bool barrier = (head[0] & kKindBits) == dev::kEventBarrier;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const std::uint32_t l = Lowest(m);
    if (at[l] + (barrier ? 2u : 1u) > n[l]) return false;
    const std::uint32_t* r = c.rec(l, at[l]);
    if (r[3] != mask || (r[0] & kKindBits) != (head[0] & kKindBits)) return false;
    if ((head[0] & kKindBits) != 0 && r[1] != head[1]) return false;
  }
  return true;
}

// A warp's event in the order taken: where its time is in the capture's words (word 3), and for
// a timed one (a meeting, a barrier) its times: a barrier's arrival and departure, a meeting's
// time twice. An access's time is placed afterwards (PlaceAccessTimes); `joined`: a request of
// the same instruction as the point before it, which takes its time.
struct TimePoint {
  std::size_t word;
  bool timed;
  std::uint32_t before, after;
  bool joined = false;
};

// Appends the request(s), meeting or barrier the lanes of `mask` made at their next records, and
// each event's TimePoint to `points`.
void Emit(const Columns& c, std::uint32_t mask, const std::uint32_t (&at)[32],
          std::vector<std::uint32_t>* words, std::vector<TimePoint>* points) {
  const std::uint32_t lead = Lowest(mask);
  const std::uint32_t* head = c.rec(lead, at[lead]);
  if ((head[0] & kKindBits) == dev::kEventBarrier) {
    const std::uint32_t* second = c.rec(lead, at[lead] + 1);
    points->push_back({words->size() + 3, true, second[0], head[2]});
    words->insert(words->end(), {head[0], head[1], mask, head[2], second[0], second[1],
                                 second[3] & 0x7fffffffu, second[2]});
    return;
  }
  if ((head[0] & kKindBits) == dev::kEventWarpOp) {
    const std::uint32_t time = c.time(lead, at[lead]);
    points->push_back({words->size() + 3, true, time, time});
    std::uint8_t source[32];
    for (std::uint32_t l = 0; l < 32; ++l) source[l] = static_cast<std::uint8_t>(l);
    for (std::uint32_t m = mask; m != 0; m &= m - 1)
      source[Lowest(m)] = static_cast<std::uint8_t>(c.rec(Lowest(m), at[Lowest(m)])[2]);
    EncodeWarpOpEvent(head[0] & ~dev::kEventWarpOp, head[1], mask, time, source, words);
    return;
  }
  // An access: one request for each key among the lanes (the event roads' __match_any_sync),
  // in the order of their lowest lanes.
  std::uint32_t left = mask;
  std::vector<std::uint32_t> offsets;
  while (left != 0) {
    const std::uint32_t* first = c.rec(Lowest(left), at[Lowest(left)]);
    std::uint32_t group = 0;
    offsets.clear();
    for (std::uint32_t m = left; m != 0; m &= m - 1) {
      const std::uint32_t* r = c.rec(Lowest(m), at[Lowest(m)]);
      if (r[0] != first[0] || r[1] != first[1]) continue;
      group |= 1u << Lowest(m);
      offsets.push_back(r[2]);
    }
    points->push_back({words->size() + 3, false, 0, 0, left != mask});
    EncodeWarpEvent(std::uint64_t{first[1]} << 32 | first[0], group, 0, offsets, words);
    left &= ~group;
  }
}

// Spaces the accesses (instructions: a joined request takes the time of the one before it) of
// points [begin, end) evenly between times `from` and `to` (%globaltimer's low words), 1 ns apart
// where the two are closer than that allows.
void Spread(const std::vector<TimePoint>& points, std::size_t begin, std::size_t end,
            std::uint32_t from, std::uint32_t to, std::vector<std::uint32_t>* words) {
  std::uint64_t n = 0;
  for (std::size_t i = begin; i < end; ++i) n += points[i].joined ? 0 : 1;
  if (n == 0) return;
  const std::int64_t span = static_cast<std::int32_t>(to - from);
  const std::uint64_t room = span > static_cast<std::int64_t>(n) ? span : n + 1;
  std::uint64_t k = 0;
  for (std::size_t i = begin; i < end; ++i) {
    k += points[i].joined ? 0 : 1;
    (*words)[points[i].word] = from + static_cast<std::uint32_t>(k * room / (n + 1));
  }
}

// Gives a warp's accesses their times: those between two of its timed points (its start, its
// meetings and barriers, `end`) evenly spaced between them.
void PlaceAccessTimes(const std::vector<TimePoint>& points, std::uint32_t start, std::uint32_t end,
                      std::vector<std::uint32_t>* words) {
  std::uint32_t from = start;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].timed) continue;
    Spread(points, begin, i, from, points[i].before, words);
    from = points[i].after;
    begin = i + 1;
  }
  Spread(points, begin, points.size(), from, end, words);
}

}  // namespace

std::string LaneLogUnpackWarpRows(std::vector<std::uint32_t>* rows,
                                  std::vector<std::uint32_t>* times,
                                  const std::vector<std::uint32_t>& heads,
                                  const std::vector<std::uint32_t>& offsets,
                                  std::uint32_t row_count, std::uint32_t threads_per_block,
                                  std::uint64_t warps, std::uint64_t* all_warp_rows,
                                  std::uint64_t* filled) {
  const std::uint32_t wpb = (threads_per_block + 31) / 32;
  if (all_warp_rows != nullptr) *all_warp_rows = 0;
  if (filled != nullptr) *filled = 0;
  if (rows->size() < warps * row_count * 128 || times->size() < warps * row_count * 32 ||
      heads.size() < warps * row_count * 4 || offsets.size() < warps * row_count * 32)
    return "the lane log read back is shorter than " + std::to_string(warps) + " warps of " +
           std::to_string(row_count) + " rows and their warp rows";
  for (std::uint64_t w = 0; w < warps; ++w) {
    const std::uint64_t row0 = w * row_count;  // the warp's row 0
    std::uint32_t warp_rows = 0;
    while (warp_rows < row_count && heads[(row0 + warp_rows) * 4 + 3] != 0) ++warp_rows;
    if (all_warp_rows != nullptr) *all_warp_rows += warp_rows;
    const std::uint32_t first_thread = static_cast<std::uint32_t>(w % wpb) * 32;
    for (std::uint32_t l = 0; l < 32 && first_thread + l < threads_per_block; ++l) {
      std::uint32_t next = 0;  // the lane's next warp row
      for (std::uint32_t k = 0; k < row_count; ++k) {
        const std::uint64_t slot = (row0 + k) * 32 + l;
        std::uint32_t* r = rows->data() + slot * 4;
        if ((r[0] & kKindBits) == dev::kEventBarrier) {
          ++k;  // a barrier's two rows (its second row's word 0 may have any bits)
          continue;
        }
        if ((r[0] & dev::kLaneWarpRow) != 0) {  // a row of its own that took its warp row
          r[0] &= ~dev::kLaneWarpRow;
          ++next;
          continue;
        }
        if (r[0] != 0 || r[3] != 0) continue;
        if (next == warp_rows) break;  // the column's end
        const std::uint32_t* head = heads.data() + (row0 + next) * 4;
        r[0] = head[0];
        r[1] = head[1];
        r[2] = offsets[(row0 + next) * 32 + l];
        r[3] = head[3];
        (*times)[slot] = head[2];
        ++next;
        if (filled != nullptr) ++*filled;
      }
    }
  }
  return {};
}

std::vector<std::uint32_t> LaneLogCounts(const std::vector<std::uint32_t>& rows,
                                         std::uint32_t row_count, std::uint32_t threads_per_block,
                                         std::uint64_t warps) {
  const std::uint32_t wpb = (threads_per_block + 31) / 32;
  std::vector<std::uint32_t> counts(warps / std::max(wpb, 1u) * threads_per_block, 0);
  if (rows.size() < warps * row_count * 128) return counts;
  for (std::uint64_t w = 0; w < warps; ++w) {
    const std::uint32_t first_thread = static_cast<std::uint32_t>(w % wpb) * 32;
    const std::uint64_t block = w / wpb;
    for (std::uint32_t l = 0; l < 32 && first_thread + l < threads_per_block; ++l) {
      std::uint32_t n = 0;
      const std::uint64_t first = (w * row_count * 32 + l) * 4;  // row 0's words
      while (n < row_count && (rows[first + n * 128] != 0 || rows[first + n * 128 + 3] != 0)) ++n;
      counts[block * threads_per_block + first_thread + l] = n;
    }
  }
  return counts;
}

namespace {

// One warp's loop patterns (LaneLogPatterns): lane l's `counts[l]` rows of `c` checked, and where
// `out` is given, the warp's rows expanded into it (32 lanes a row, from row 0) with each lane's
// count in `expanded_counts`. *patterned: whether the warp has a pattern (else its rows are read
// as they are, and nothing is written to `out`); *most: the most rows a lane has expanded (0
// where every lane's rows were patterns of no pass); *made, where given, the access rows its
// patterns make, all lanes'. An error names the warp, lane and row; *uneven where it is only that a
// loop's lanes counted different passes.
std::string ExpandWarp(const Columns& c, std::uint64_t w, const std::uint32_t (&counts)[32],
                       std::uint32_t lanes, bool* patterned, std::uint64_t* most, bool* uneven,
                       std::uint64_t* made = nullptr, std::vector<std::uint32_t>* out = nullptr,
                       std::vector<std::uint32_t>* out_times = nullptr,
                       std::uint32_t (*expanded_counts)[32] = nullptr) {
  auto where = [&](std::uint32_t l, std::uint32_t k) {
    return "warp " + std::to_string(w) + " lane " + std::to_string(l) + " row " + std::to_string(k);
  };
  std::uint64_t grown[32] = {};
  bool any = false;
  *most = 0;
  *patterned = false;
  for (std::uint32_t l = 0; l < lanes; ++l) {
    const std::uint32_t n = counts[l];
    std::uint64_t m = 0;
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t* r = c.rec(l, k);
      if ((r[0] & kKindBits) == dev::kEventBarrier) {
        if (k + 1 >= n) return where(l, k) + ": a barrier's first row with no second";
        m += 2;
        ++k;
        continue;
      }
      if (r[0] != dev::kLanePattern) {
        if ((r[0] & dev::kLanePattern) != 0 && (r[0] & kKindBits) == 0)
          return where(l, k) + ": a loop pattern's site with no head before it";
        ++m;
        continue;
      }
      const std::uint32_t trips = r[1], sites = r[2];
      if (trips == ~0u) {
        *uneven = true;
        return where(l, k) + ": the lanes that entered a loop counted different passes";
      }
      if (sites == 0 || k + sites >= n)
        return where(l, k) + ": a loop pattern of " + std::to_string(sites) +
               " sites past the lane's " + std::to_string(n) + " rows";
      for (std::uint32_t s = 1; s <= sites; ++s) {
        const std::uint32_t w0 = c.rec(l, k + s)[0];
        if ((w0 & dev::kLanePattern) == 0 || (w0 & 0xffu) == 0 || (w0 & kKindBits) != 0)
          return where(l, k + s) + ": not a loop pattern's site";
      }
      m += std::uint64_t{trips} * sites;
      if (made != nullptr) *made += std::uint64_t{trips} * sites;
      k += sites;
      any = true;
    }
    grown[l] = m;
  }
  if (!any) return {};
  *patterned = true;
  for (std::uint32_t l = 0; l < lanes; ++l) *most = std::max(*most, grown[l]);
  if (out == nullptr) return {};
  out->assign(*most * 128, 0);
  out_times->assign(*most * 32, 0);
  for (std::uint32_t l = 0; l < lanes; ++l) {
    std::uint64_t o = 0;  // the lane's next expanded row
    auto put = [&](const std::uint32_t* r, std::uint32_t time) {
      std::copy(r, r + 4, out->begin() + static_cast<std::ptrdiff_t>((o * 32 + l) * 4));
      (*out_times)[o * 32 + l] = time;
      ++o;
    };
    for (std::uint32_t k = 0; k < counts[l]; ++k) {
      const std::uint32_t* r = c.rec(l, k);
      if ((r[0] & kKindBits) == dev::kEventBarrier) {
        put(r, c.time(l, k));
        put(c.rec(l, k + 1), c.time(l, k + 1));
        ++k;
        continue;
      }
      if (r[0] != dev::kLanePattern) {
        put(r, c.time(l, k));
        continue;
      }
      const std::uint32_t trips = r[1], sites = r[2], mask = r[3];
      for (std::uint32_t p = 0; p < trips; ++p) {
        for (std::uint32_t s = 1; s <= sites; ++s) {
          const std::uint32_t* site = c.rec(l, k + s);
          const std::uint32_t row[4] = {site[0] & ~dev::kLanePattern, site[1],
                                        site[2] + p * site[3], mask};
          put(row, 0);
        }
      }
      k += sites;
    }
    (*expanded_counts)[l] = static_cast<std::uint32_t>(o);
  }
  return {};
}

// Each lane's count in warp w (LaneLogToCapture's reading of `counts`); lanes in *lanes.
void WarpCounts(const std::vector<std::uint32_t>& counts, std::uint64_t w, std::uint32_t wpb,
                std::uint32_t threads_per_block, std::uint32_t (&n)[32], std::uint32_t* lanes) {
  const std::uint64_t block = w / wpb;
  const std::uint32_t first_thread = static_cast<std::uint32_t>(w % wpb) * 32;
  *lanes = std::min(32u, threads_per_block - first_thread);
  for (std::uint32_t l = 0; l < 32; ++l) {
    const std::uint64_t thread = block * threads_per_block + first_thread + l;
    n[l] = l < *lanes && thread < counts.size() ? counts[thread] : 0;
  }
}

}  // namespace

std::string LaneLogPatterns(const std::vector<std::uint32_t>& rows,
                            const std::vector<std::uint32_t>& times, std::uint32_t row_count,
                            const std::vector<std::uint32_t>& counts,
                            std::uint32_t threads_per_block, std::uint64_t warps,
                            std::uint64_t max_rows, bool* uneven, std::uint64_t* expanded) {
  *uneven = false;
  if (expanded != nullptr) *expanded = 0;
  const std::uint32_t wpb = (threads_per_block + 31) / 32;
  if (rows.size() < warps * row_count * 128 || times.size() < warps * row_count * 32)
    return "the lane log read back is shorter than " + std::to_string(warps) + " warps of " +
           std::to_string(row_count) + " rows";
  for (std::uint64_t w = 0; w < warps; ++w) {
    std::uint32_t n[32], lanes = 0;
    WarpCounts(counts, w, wpb, threads_per_block, n, &lanes);
    for (std::uint32_t l = 0; l < lanes; ++l) n[l] = std::min(n[l], row_count);
    std::uint64_t most = 0;
    bool patterned = false;
    if (std::string e = ExpandWarp(Columns{rows, times, w * row_count * 32}, w, n, lanes,
                                   &patterned, &most, uneven, expanded);
        !e.empty())
      return e;
    if (most > max_rows) {
      *uneven = true;
      return "warp " + std::to_string(w) + "'s loops expand to " + std::to_string(most) +
             " rows a lane, past " + std::to_string(max_rows);
    }
  }
  return {};
}

std::string LaneLogUnnamedFile(const std::vector<std::uint32_t>& rows, std::uint32_t row_count,
                               const std::vector<std::uint32_t>& counts,
                               std::uint32_t threads_per_block, std::uint64_t warps,
                               const std::map<std::uint16_t, std::string>& files) {
  const std::uint32_t wpb = (threads_per_block + 31) / 32;
  if (rows.size() < warps * row_count * 128)
    return "the lane log read back is shorter than " + std::to_string(warps) + " warps of " +
           std::to_string(row_count) + " rows";
  for (std::uint64_t w = 0; w < warps; ++w) {
    const std::uint64_t block = w / wpb;
    const std::uint32_t first_thread = static_cast<std::uint32_t>(w % wpb) * 32;
    for (std::uint32_t l = 0; l < 32 && first_thread + l < threads_per_block; ++l) {
      const std::uint64_t thread = block * threads_per_block + first_thread + l;
      const std::uint32_t n = thread < counts.size() ? std::min(counts[thread], row_count) : 0;
      for (std::uint32_t k = 0; k < n; ++k) {
        const std::uint32_t* r = rows.data() + ((w * row_count + k) * 32 + l) * 4;
        if (r[0] == dev::kLanePattern) continue;  // a loop pattern's head: its sites name places
        const auto tag = static_cast<std::uint16_t>(PlaceFile(r[1]));
        if (files.count(tag) == 0)
          return "warp " + std::to_string(w) + " lane " + std::to_string(l) + " row " +
                 std::to_string(k) + " names file tag " + std::to_string(tag) +
                 ", which its kernel did not note";
        if ((r[0] & kKindBits) == dev::kEventBarrier) ++k;  // its second row names no place
      }
    }
  }
  return {};
}

std::string LaneLogToCapture(std::vector<std::uint32_t> rows, std::vector<std::uint32_t> times,
                             std::uint32_t row_count, const std::vector<std::uint32_t>& counts,
                             std::uint32_t threads_per_block, std::uint64_t warps,
                             const std::vector<std::uint32_t>& starts, std::uint64_t pass_ns,
                             GpuCapture* capture) {
  const std::uint32_t wpb = (threads_per_block + 31) / 32;
  if (rows.size() < warps * row_count * 128 || times.size() < warps * row_count * 32 ||
      starts.size() < warps)
    return "the lane log read back is shorter than " + std::to_string(warps) + " warps of " +
           std::to_string(row_count) + " rows and their starts";
  // The pass's end: its earliest warp's start (wrapped low words: earliest by difference) plus
  // its time.
  std::uint32_t first_start = warps > 0 ? starts[0] : 0;
  for (std::uint64_t w = 1; w < warps; ++w)
    if (static_cast<std::int32_t>(starts[w] - first_start) < 0) first_start = starts[w];
  const auto end = first_start + static_cast<std::uint32_t>(pass_ns);
  std::vector<TimePoint> points;
  std::vector<std::uint32_t> warp_rows, warp_times;  // a warp's rows, its patterns expanded
  capture->words.clear();
  capture->warp_base.assign(warps + 1, 0);
  capture->warp_used.assign(warps, 0);
  for (std::uint64_t w = 0; w < warps; ++w) {
    const std::uint64_t block = w / wpb;
    const std::uint32_t first_thread = static_cast<std::uint32_t>(w % wpb) * 32;
    const std::uint32_t lanes = std::min(32u, threads_per_block - first_thread);
    std::uint32_t n[32] = {}, at[32] = {};
    std::uint32_t pending = 0;
    for (std::uint32_t l = 0; l < lanes; ++l) {
      const std::uint64_t thread = block * threads_per_block + first_thread + l;
      n[l] = thread < counts.size() ? counts[thread] : 0;
      if (n[l] > row_count)
        return "warp " + std::to_string(w) + " lane " + std::to_string(l) + " wrote " +
               std::to_string(n[l]) + " rows, past the log's " + std::to_string(row_count);
    }
    // The warp's loop patterns made into the rows their bodies would have written, in a buffer
    // of the warp's own (LaneLogPatterns checked them first).
    const Columns logged{rows, times, w * row_count * 32};
    std::uint64_t most = 0;
    bool uneven = false, patterned = false;
    std::uint32_t made[32] = {};
    if (std::string e = ExpandWarp(logged, w, n, lanes, &patterned, &most, &uneven, nullptr,
                                   &warp_rows, &warp_times, &made);
        !e.empty())
      return e;
    if (patterned) std::copy(made, made + 32, n);
    const Columns c = patterned ? Columns{warp_rows, warp_times, 0} : logged;
    for (std::uint32_t l = 0; l < lanes; ++l)
      if (n[l] > 0) pending |= 1u << l;
    const std::size_t start = capture->words.size();
    points.clear();
    while (pending != 0) {
      // The group to take next: one whose lanes are all at its records; where several groups are
      // (lanes that ran apart), one with no time (accesses: a timed group's lanes may have
      // accesses still to come before it, and a group taken later than a timed one would be
      // placed after it), the lowest lane's, else the earliest by its time (meetings, barriers).
      // Groups of accesses, or that read the same tick of %globaltimer, go lowest lane first,
      // which may not be the order they ran in: that can swap a race's kind within one warp (RAW
      // for WAR) and its example, not its pairs or epochs.
      std::uint32_t pick = 0, pick_time = 0;
      bool pick_timed = false;
      for (std::uint32_t m = pending; m != 0; m &= m - 1) {
        const std::uint32_t l = Lowest(m);
        const std::uint32_t* r = c.rec(l, at[l]);
        const std::uint32_t mask = r[3];
        if ((mask >> l & 1u) == 0)
          return "warp " + std::to_string(w) + " lane " + std::to_string(l) + " row " +
                 std::to_string(at[l]) + ": its record does not name its own lane";
        if (Lowest(mask) != l || !Ready(c, r, mask, at, n)) continue;
        const bool barrier = (r[0] & kKindBits) == dev::kEventBarrier;
        const bool timed = (r[0] & kKindBits) != 0;
        const std::uint32_t t = barrier ? c.rec(l, at[l] + 1)[0] : timed ? c.time(l, at[l]) : 0;
        if (pick == 0 || (pick_timed && !timed) ||
            (timed && pick_timed && static_cast<std::int32_t>(t - pick_time) < 0))
          pick = mask, pick_time = t, pick_timed = timed;
        if (mask == pending) break;  // every lane left: nothing else ran beside it
      }
      if (pick == 0)
        return "warp " + std::to_string(w) + ": its lanes' next records make no request (lane " +
               std::to_string(Lowest(pending)) + " row " + std::to_string(at[Lowest(pending)]) +
               ")";
      Emit(c, pick, at, &capture->words, &points);
      const bool barrier =
          (c.rec(Lowest(pick), at[Lowest(pick)])[0] & kKindBits) == dev::kEventBarrier;
      for (std::uint32_t m = pick; m != 0; m &= m - 1) {
        const std::uint32_t l = Lowest(m);
        at[l] += barrier ? 2 : 1;
        if (at[l] == n[l]) pending &= ~(1u << l);
      }
    }
    PlaceAccessTimes(points, starts[w], end, &capture->words);
    capture->warp_used[w] = capture->words.size() - start;
    capture->warp_base[w + 1] = capture->words.size();
  }
  return {};
}

}  // namespace ws

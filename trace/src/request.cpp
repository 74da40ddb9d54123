#include "warpscope/trace/request.h"

#include <algorithm>
#include <array>
#include <vector>

namespace ws {
namespace {

// Distinct values of (byte / granule) over every byte the lanes touch. A request touches at most
// 32 lanes x 16 bytes, so a small sorted array beats a hash set.
std::uint32_t DistinctGranules(std::span<const LaneAccess> lanes, std::uint64_t granule) {
  std::array<std::uint64_t, 32 * 17> ids;
  std::size_t n = 0;
  for (const LaneAccess& a : lanes) {
    const std::uint64_t first = a.address / granule;
    const std::uint64_t last = (a.address + (a.size ? a.size : 1) - 1) / granule;
    for (std::uint64_t g = first; g <= last && n < ids.size(); ++g) ids[n++] = g;
  }
  std::sort(ids.begin(), ids.begin() + n);
  return static_cast<std::uint32_t>(std::unique(ids.begin(), ids.begin() + n) - ids.begin());
}

// Splits lanes into the two half-warps.
template <typename F>
void ForHalfWarps(std::span<const LaneAccess> lanes, F&& f) {
  std::array<LaneAccess, 32> half[2];
  std::size_t n[2] = {0, 0};
  for (const LaneAccess& a : lanes) {
    const int h = a.lane < 16 ? 0 : 1;
    if (n[h] < 32) half[h][n[h]++] = a;
  }
  for (int h = 0; h < 2; ++h) f(std::span<const LaneAccess>(half[h].data(), n[h]));
}

// Most distinct 4-byte words in one bank, for `banks` banks (16 or 32: a power of two, so the bank
// is a mask and not a division, which was most of this function's time). Each bank keeps its
// distinct words in a short list: a warp's words are few to a bank (one, or a lane's broadcast,
// as a rule), so this is a pass over the lanes, where sorting them was a tenth of a byte-wise
// histogram's run.
std::uint32_t MaxWordsPerBank(std::span<const LaneAccess> lanes, std::uint32_t banks) {
  constexpr std::size_t kMaxWords = 32 * 4;  // as many as a request's 32 lanes of 16 bytes touch
  std::array<std::uint64_t, kMaxWords> words;
  std::array<std::uint8_t, kMaxWords> next;  // the bank's next distinct word, + 1 (0: none)
  std::array<std::uint8_t, 32> head{};       // each bank's first distinct word, + 1
  std::array<std::uint32_t, 32> count{};
  std::uint32_t degree = 0;
  std::size_t n = 0, distinct = 0;
  const std::uint64_t bank_mask = banks - 1;
  for (const LaneAccess& a : lanes) {
    const std::uint64_t first = a.address / 4, last = (a.address + (a.size ? a.size : 1) - 1) / 4;
    for (std::uint64_t w = first; w <= last && n < kMaxWords; ++w, ++n) {
      const auto bank = static_cast<std::size_t>(w & bank_mask);
      std::uint8_t* link = &head[bank];
      while (*link != 0 && words[*link - 1u] != w) link = &next[*link - 1u];
      if (*link != 0) continue;  // a word the bank has already
      words[distinct] = w;
      next[distinct] = 0;
      *link = static_cast<std::uint8_t>(++distinct);
      degree = std::max(degree, ++count[bank]);
    }
  }
  return degree;
}

}  // namespace

std::uint32_t Sectors(std::span<const LaneAccess> lanes) {
  return DistinctGranules(lanes, 32);
}

std::uint32_t Lines128(std::span<const LaneAccess> lanes) {
  return DistinctGranules(lanes, 128);
}

std::uint32_t UniqueBytes(std::span<const LaneAccess> lanes) {
  // Union of the [address, address + size) intervals.
  std::array<std::pair<std::uint64_t, std::uint64_t>, 32> iv;
  std::size_t n = 0;
  for (const LaneAccess& a : lanes) {
    if (n < iv.size()) iv[n++] = {a.address, a.address + (a.size ? a.size : 1)};
  }
  std::sort(iv.begin(), iv.begin() + n);
  std::uint64_t total = 0, cur_lo = 0, cur_hi = 0;
  bool open = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (open && iv[i].first <= cur_hi) {
      cur_hi = std::max(cur_hi, iv[i].second);
    } else {
      if (open) total += cur_hi - cur_lo;
      cur_lo = iv[i].first;
      cur_hi = iv[i].second;
      open = true;
    }
  }
  if (open) total += cur_hi - cur_lo;
  return static_cast<std::uint32_t>(total);
}

std::uint32_t IdealSectors(std::span<const LaneAccess> lanes) {
  return (UniqueBytes(lanes) + 31) / 32;
}

std::uint32_t Cc10Transactions(std::span<const LaneAccess> lanes) {
  std::uint32_t total = 0;
  ForHalfWarps(lanes, [&](std::span<const LaneAccess> half) {
    if (half.empty()) return;
    const std::uint32_t w = half.front().size;
    bool coalesced = (w == 4 || w == 8 || w == 16);
    if (coalesced) {
      // The segment is 16 words: 64 B for 4-byte words, 128 B for 8-byte, 2 x 128 B for 16-byte.
      const std::uint64_t segment = 16ull * w;
      const LaneAccess& first = half.front();
      const std::uint64_t k0 = first.lane % 16;
      if (first.address < k0 * w) {
        coalesced = false;
      } else {
        const std::uint64_t base = first.address - k0 * w;
        coalesced = base % segment == 0;
        for (const LaneAccess& a : half) {
          coalesced = coalesced && a.size == w && a.address == base + (a.lane % 16) * w;
        }
      }
    }
    total += coalesced ? (w == 16 ? 2u : 1u) : static_cast<std::uint32_t>(half.size());
  });
  return total;
}

std::vector<Segment> Cc12Segments(std::span<const LaneAccess> lanes) {
  std::vector<Segment> out;
  int h = 0;
  ForHalfWarps(lanes, [&](std::span<const LaneAccess> half) {
    std::array<bool, 32> done{};
    for (std::size_t lead = 0; lead < half.size(); ++lead) {
      if (done[lead]) continue;
      // 1. The segment holding the lowest-numbered pending thread's address: 32 B for 1-byte
      //    words, 64 B for 2-byte words, 128 B for 4-, 8- and 16-byte words.
      const std::uint32_t w = half[lead].size;
      const std::uint64_t size0 = w == 1 ? 32 : w == 2 ? 64 : 128;
      std::uint64_t lo = half[lead].address / size0 * size0, size = size0;
      // 2. Every pending thread whose address lies in that segment is served with it.
      std::uint64_t used_lo = ~0ull, used_hi = 0;
      for (std::size_t i = lead; i < half.size(); ++i) {
        if (!done[i] && half[i].address >= lo && half[i].address < lo + size) {
          done[i] = true;
          used_lo = std::min(used_lo, half[i].address);
          used_hi = std::max(used_hi, half[i].address + half[i].size - 1);
        }
      }
      // 3. Shrink 128 -> 64 -> 32 while only the lower or the upper half is used.
      while (size > 32) {
        const std::uint64_t half_size = size / 2;
        if (used_hi < lo + half_size) {
          size = half_size;
        } else if (used_lo >= lo + half_size) {
          lo += half_size;
          size = half_size;
        } else {
          break;
        }
      }
      out.push_back({lo, static_cast<std::uint32_t>(size), h});
    }
    ++h;
  });
  return out;
}

Cc12Cost Cc12Transactions(std::span<const LaneAccess> lanes) {
  Cc12Cost cost;
  for (const Segment& s : Cc12Segments(lanes)) {
    ++cost.transactions;
    cost.bytes += s.bytes;
  }
  return cost;
}

std::vector<Segment> Cc10Segments(std::span<const LaneAccess> lanes) {
  std::vector<Segment> out;
  int h = 0;
  ForHalfWarps(lanes, [&](std::span<const LaneAccess> half) {
    if (!half.empty()) {
      const std::uint32_t w = half.front().size;
      if (Cc10Transactions(half) == (w == 16 ? 2u : 1u) && (w == 4 || w == 8 || w == 16)) {
        // Coalesced: the half-warp's 16-word segment (two 128-byte ones for 16-byte words).
        const std::uint64_t base = half.front().address - (half.front().lane % 16) * w;
        if (w == 16) {
          out.push_back({base, 128, h});
          out.push_back({base + 128, 128, h});
        } else {
          out.push_back({base, 16 * w, h});
        }
      } else {
        for (const LaneAccess& a : half) out.push_back({a.address, a.size, h});
      }
    }
    ++h;
  });
  return out;
}

std::vector<Segment> GranuleSegments(std::span<const LaneAccess> lanes, std::uint32_t granule) {
  std::vector<std::uint64_t> ids;
  for (const LaneAccess& a : lanes) {
    const std::uint64_t last = (a.address + (a.size ? a.size : 1) - 1) / granule;
    for (std::uint64_t g = a.address / granule; g <= last; ++g) ids.push_back(g);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<Segment> out;
  for (std::uint64_t g : ids) out.push_back({g * granule, granule, -1});
  return out;
}

std::uint32_t BankConflictDegree(std::span<const LaneAccess> lanes) {
  return lanes.empty() ? 0 : MaxWordsPerBank(lanes, 32);
}

SharedCost SharedRequestCost(std::span<const LaneAccess> lanes, bool load) {
  SharedCost c;
  if (lanes.empty()) return c;
  const std::uint32_t size = lanes.front().size;
  std::uint32_t lanes_per_phase = size <= 4 ? 32 : size <= 8 ? 16 : 8;
  if (load && lanes_per_phase < 32) {
    // Every quad of lanes at most 2 distinct addresses: neighbouring phases merge.
    std::array<std::uint64_t, 8 * 2> seen{};  // per quad, up to 2 addresses
    std::array<std::uint8_t, 8> count{};
    bool narrow = true;
    for (const LaneAccess& a : lanes) {
      const std::uint32_t q = a.lane / 4u;
      std::uint64_t* s = &seen[q * 2];
      if ((count[q] > 0 && s[0] == a.address) || (count[q] > 1 && s[1] == a.address)) continue;
      if (count[q] == 2) {
        narrow = false;
        break;
      }
      s[count[q]++] = a.address;
    }
    if (narrow) lanes_per_phase *= 2;
  }
  c.lanes_per_phase = lanes_per_phase;
  std::array<LaneAccess, 32> phase;
  for (std::uint32_t first = 0; first < 32; first += lanes_per_phase) {
    std::size_t n = 0;
    for (const LaneAccess& a : lanes) {
      if (a.lane >= first && a.lane < first + lanes_per_phase) phase[n++] = a;
    }
    if (n == 0) continue;
    const std::uint32_t d = MaxWordsPerBank(std::span<const LaneAccess>(phase.data(), n), 32);
    c.wavefronts += d;
    c.ideal += 1;
    c.degree = std::max(c.degree, d);
  }
  return c;
}

CompiledPlace CompiledPlaceOf(std::uint32_t width, std::span<const LaneAccess> lanes) {
  if (lanes.empty() || width <= lanes.front().size) return CompiledPlace::kSource;
  const std::uint64_t place = lanes.front().address % width;
  for (const LaneAccess& a : lanes) {
    if (a.address % width != place) return CompiledPlace::kMixed;
  }
  return place == 0 ? CompiledPlace::kRun : CompiledPlace::kPart;
}

std::span<const LaneAccess> WidenedLanes(std::uint32_t width, std::span<const LaneAccess> lanes,
                                         std::array<LaneAccess, 32>* out) {
  const std::size_t n = std::min(lanes.size(), out->size());
  for (std::size_t i = 0; i < n; ++i)
    (*out)[i] = {lanes[i].lane, static_cast<std::uint8_t>(width), lanes[i].address};
  return std::span<const LaneAccess>(out->data(), n);
}

std::uint32_t HalfWarp16Degree(std::span<const LaneAccess> lanes) {
  std::uint32_t degree = 0;
  ForHalfWarps(lanes, [&](std::span<const LaneAccess> half) {
    if (!half.empty()) degree = std::max(degree, MaxWordsPerBank(half, 16));
  });
  return degree;
}

std::uint32_t AtomicConflictDegree(std::span<const LaneAccess> lanes) {
  std::array<std::uint64_t, 32> addr;
  std::size_t n = 0;
  for (const LaneAccess& a : lanes) {
    if (n < addr.size()) addr[n++] = a.address;
  }
  std::sort(addr.begin(), addr.begin() + n);
  std::uint32_t best = 0, run = 0;
  for (std::size_t i = 0; i < n; ++i) {
    run = (i > 0 && addr[i] == addr[i - 1]) ? run + 1 : 1;
    best = std::max(best, run);
  }
  return best;
}

}  // namespace ws

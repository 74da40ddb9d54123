// The recording pool read back (gpu_records.h): its super-chunks and chunks, walked through their
// headers and gathered into each warp's stream of words, in the order the warp took them.
#include <algorithm>
#include <bit>
#include <map>
#include <vector>

#include "warpscope/kernels/gpu_records.h"

namespace ws {

std::vector<SuperChunk> SuperChunks(const std::vector<std::uint32_t>& headers,
                                    std::uint64_t first_super, std::uint64_t super_words,
                                    const std::vector<unsigned long long>& sm_state) {
  std::map<std::uint64_t, std::uint32_t> open;  // super-chunk's first word -> used words
  for (const unsigned long long s : sm_state) {
    if (dev::StateChunk(s) != 0 && dev::StateChunk(s) != dev::kDeadChunk)
      open[dev::StateFirstWord(s)] = dev::StateUsed(s);
  }
  std::vector<SuperChunk> supers;
  for (std::uint64_t k = 0; k < headers.size(); ++k) {
    const std::uint64_t first = first_super + k * super_words;
    std::uint64_t used = headers[k];
    if (used == 0) {
      const auto it = open.find(first);
      used = it != open.end() ? it->second : 0;
    }
    supers.push_back({first, std::min(used, super_words)});
  }
  return supers;
}

std::vector<PoolChunk> PoolChunks(const std::vector<std::uint32_t>& words, std::uint64_t base,
                                  const std::vector<SuperChunk>& supers, std::uint64_t warps) {
  std::vector<PoolChunk> chunks;  // `base`: where each super-chunk's words begin in `words`
  for (const SuperChunk& sc : supers) {
    const std::uint64_t end = std::min<std::uint64_t>(base + sc.used, words.size());
    std::uint64_t at = base + dev::kChunkHeaderWords;
    while (at + dev::kChunkHeaderWords <= end) {
      const std::uint64_t warp = std::uint64_t{words[at + 1]} << 32 | words[at];
      const std::uint32_t size = words[at + 3];
      const bool known_size = size >= dev::kFirstChunkWords &&
                              size <= dev::kFirstChunkWords << dev::kMaxChunkClass &&
                              std::has_single_bit(size);
      if (warp >= warps || !known_size || at + size > end) break;
      chunks.push_back({warp, at, size, sc.first + (at - base)});
      at += size;
    }
    base += sc.used;
  }
  return chunks;
}

std::uint32_t SuperChunkWords(std::uint64_t pool_words, std::uint32_t sms) {
  const std::uint64_t share = pool_words / (4 * std::uint64_t{std::max(sms, 1u)});
  return static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(std::bit_floor(std::max<std::uint64_t>(share, 1)), 256, 1u << 18));
}

std::uint32_t MaxChunkClass(std::uint32_t super_words) {
  std::uint32_t k = 0;
  while (k < dev::kMaxChunkClass &&
         (dev::kFirstChunkWords << (k + 1)) * 4 + dev::kChunkHeaderWords <= super_words)
    ++k;
  return k;
}

void GatherChunks(const std::vector<std::uint32_t>& pool, const std::vector<PoolChunk>& chunks,
                  const std::vector<unsigned long long>& state, bool first_chunks, GpuCapture* c) {
  const std::size_t warps = state.size();
  std::vector<std::uint64_t> used(chunks.size());
  c->warp_used.assign(warps, 0);
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    const PoolChunk& ch = chunks[k];
    if (ch.warp >= warps || ch.first + dev::kChunkHeaderWords > pool.size()) continue;
    std::uint64_t u = pool[ch.first + 2];
    const unsigned long long s = state[ch.warp];
    const bool own_first = first_chunks && ch.device_first == ch.warp * dev::kFirstChunkWords;
    if (u == 0 && own_first && dev::StateChunk(s) == 0)  // the warp never left its first chunk
      u = std::uint64_t{dev::StateUsed(s)} + dev::kChunkHeaderWords;
    else if (u == 0 && dev::StateChunk(s) != 0 && dev::StateChunk(s) != dev::kDeadChunk &&
             dev::StateFirstWord(s) == ch.device_first)
      u = dev::StateUsed(s);  // the chunk the warp was still writing
    // Clamped to the chunk and to the words read back (a super-chunk's tail may be cut).
    u = std::min<std::uint64_t>(u, std::min<std::uint64_t>(ch.size, pool.size() - ch.first));
    used[k] = std::max<std::uint64_t>(u, dev::kChunkHeaderWords) - dev::kChunkHeaderWords;
    c->warp_used[ch.warp] += used[k];
  }
  c->warp_base.assign(warps + 1, 0);
  for (std::size_t w = 0; w < warps; ++w) c->warp_base[w + 1] = c->warp_base[w] + c->warp_used[w];
  c->words.assign(c->warp_base.back(), 0);
  std::vector<std::uint64_t> at(c->warp_base.begin(), c->warp_base.end() - 1);
  for (std::size_t k = 0; k < chunks.size(); ++k) {
    if (used[k] == 0) continue;
    const auto from =
        pool.begin() + static_cast<std::ptrdiff_t>(chunks[k].first + dev::kChunkHeaderWords);
    std::copy(from, from + static_cast<std::ptrdiff_t>(used[k]),
              c->words.begin() + static_cast<std::ptrdiff_t>(at[chunks[k].warp]));
    at[chunks[k].warp] += used[k];
  }
}

}  // namespace ws

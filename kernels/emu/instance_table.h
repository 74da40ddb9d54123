// Which request a lane's access joins, for a program on the emulator (docs/ENGINE.md, "Records"):
// the lanes of a warp that reach a site with the same dynamic-instance key (the rewriter's loop
// iterations and calls) make one request, numbered among the warp's requests at that site in the
// order they began. One table per worker, emptied at each block by a generation count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ws::emu {

class InstanceTable {
 public:
  // A block's requests by instance key at most (a table of twice as many 24-byte entries,
  // 384 MB): past them (an endless loop) the caller falls back to each lane's k-th arrival, and
  // memory stays bounded until the time limit ends the run.
  static constexpr std::size_t kMaxInstances = std::size_t{8} << 20;

  // Starts a block of `warps` warps and `sites` sites afresh.
  void Begin(std::uint32_t warps, std::size_t sites) {
    if (table_.empty()) table_.assign(1024, Entry{});
    if (++gen_ == 0) {  // every entry of an older generation is empty
      table_.assign(table_.size(), Entry{});
      gen_ = 1;
    }
    used_ = 0;
    sites_ = sites;
    next_.assign(std::size_t{warps} * sites, 0);
  }
  bool Full() const { return used_ >= kMaxInstances; }

  // The number of the request `thread`'s access at `site` with instance `key` joins. Lanes that
  // skip a step of a loop join no request of it, and the next step's key is the same for all, so
  // a request holds the lanes a GPU runs together. A lane that brings a key twice (a site reached
  // twice in one instance: a goto) starts the key's next request.
  std::uint32_t Ordinal(std::uint16_t site, std::uint32_t thread, std::uint32_t key) {
    const std::uint32_t warp = thread >> 5u, lane_bit = 1u << (thread & 31u);
    for (std::uint32_t salt = 0;; ++salt) {
      const std::uint64_t k =
          (std::uint64_t{warp} << 48) ^ (std::uint64_t{site} << 32) ^ (key + salt * 0x9e3779b9u);
      Entry& e = Find(k);
      if (e.gen != gen_) {
        e = {k, gen_, next_[std::size_t{warp} * sites_ + site]++, lane_bit};
        if (++used_ * 2 > table_.size()) Grow();
        return Find(k).ordinal;
      }
      if ((e.lanes & lane_bit) == 0) {
        e.lanes |= lane_bit;
        return e.ordinal;
      }
    }
  }

 private:
  struct Entry {
    std::uint64_t key = 0;
    std::uint32_t gen = 0, ordinal = 0, lanes = 0;
  };
  // Open addressing, linear probing.
  Entry& Find(std::uint64_t k) {
    const std::size_t mask = table_.size() - 1;
    std::size_t at = (k * 0x9e3779b97f4a7c15ull) >> 40 & mask;
    while (table_[at].gen == gen_ && table_[at].key != k) at = (at + 1) & mask;
    return table_[at];
  }
  void Grow() {
    std::vector<Entry> old = std::move(table_);
    table_.assign(old.size() * 2, Entry{});
    for (const Entry& e : old) {
      if (e.gen == gen_) Find(e.key) = e;
    }
  }

  std::vector<Entry> table_;  // (warp, site, key) -> request ordinal
  std::uint32_t gen_ = 0;     // the current block's entries
  std::size_t used_ = 0, sites_ = 0;
  std::vector<std::uint32_t> next_;  // [warp * sites + site]: requests so far
};

}  // namespace ws::emu

// Turns the site keys that either backend recorded into the launch's site table, in one
// canonical order (file, line, space, op, array, size), so that the emulator's and a GPU's traces
// number their sites the same way.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "warpscope/trace/records.h"

namespace ws {

struct SiteTable {
  std::vector<SiteInfo> sites;
  std::map<std::uint64_t, std::uint16_t> id_of_key;
};

SiteTable BuildSiteTable(std::vector<std::uint64_t> keys);
SiteInfo SiteFromKey(std::uint64_t key);

}  // namespace ws

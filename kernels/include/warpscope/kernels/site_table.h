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
// A key's site. Where a program's runtime set a compiled-width function, its answer for the site
// is its compiled_width (the width the compiled kernel serves its line's shared accesses with).
SiteInfo SiteFromKey(std::uint64_t key);

// Set by a program's runtime from its compiled code (trace/compiled_code.h), for the kernel it
// is launching: the site's SiteInfo::compiled_width, from its file tag and line. None: 0.
using CompiledWidthFn = std::uint8_t (*)(const SiteInfo& site);
void SetCompiledWidthFn(CompiledWidthFn fn);

}  // namespace ws

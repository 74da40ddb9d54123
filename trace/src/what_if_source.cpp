// What-if layouts (what_if.h), part 4: a what-if written into a program's source as a slider, so
// that a real run confirms it: WriteWhatIf.
#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "warpscope/trace/what_if.h"

namespace ws {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// Where the slider's #define goes: after the last #include of the file's head, else line 0.
std::size_t DefineAt(const std::vector<std::string>& lines) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t first = lines[i].find_first_not_of(" \t");
    if (first != std::string::npos && lines[i].compare(first, 8, "#include") == 0) at = i + 1;
    if (lines[i].find("__global__") != std::string::npos) break;
  }
  return at;
}

bool HasWord(const std::string& text, const std::string& word) {
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool left =
        at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
    const std::size_t e = at + word.size();
    const bool right =
        e >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_');
    if (left && right) return true;
  }
  return false;
}

}  // namespace

Result<std::string> WriteWhatIf(const WhatIf& w, const LessonRun& run) {
  if (!run.program)
    return Status::Error("only a program's source can be written; a lesson has variants");
  if (w.kind != WhatIfKind::kPad && w.kind != WhatIfKind::kSwizzle)
    return Status::Error(std::string("a ") + ToString(w.kind) +
                         " what-if is not written as a slider; pad and swizzle are (its code: see "
                         "the what-if's code line)");
  if (w.kind == WhatIfKind::kSwizzle &&
      !(w.array.cols == (1u << w.shift) && w.base_bits + w.bits <= w.shift))
    return Status::Error(
        "this swizzle moves elements between rows; only one that permutes each row "
        "(2^S columns, M + B <= S) is written as a slider");
  if (w.array.space != MemorySpace::kShared)
    return Status::Error("only a __shared__ array's layout is written as a slider");
  const LaunchTrace& t =
      w.launch < run.launches.size() ? run.launches[w.launch] : run.main_launch();
  for (std::uint16_t s : w.array.sites) {
    if (!t.sites[s].file.empty() && t.sites[s].file != run.program->file)
      return Status::Error(
          w.array.name + " is used in " + t.sites[s].file +
          "; write the layout there by hand (its code: see the what-if's code line)");
  }
  const std::string name = w.kind == WhatIfKind::kPad ? "WS_PAD" : "WS_SWIZZLE";
  if (HasWord(run.program->source, name))
    return Status::Error("the program already has " + name + "; its slider selects the layout");
  std::vector<std::string> lines = Lines(run.program->source);
  std::uint32_t first_site = UINT32_MAX;
  for (std::uint16_t s : w.array.sites) first_site = std::min(first_site, t.sites[s].line);
  if (w.kind == WhatIfKind::kPad) {
    // The declaration nearest above the first access: its last bracket gets `+ WS_PAD`.
    int decl = -1;
    for (std::size_t i = 0; i < lines.size() && i + 1 < first_site; ++i) {
      if (lines[i].find("__shared__") != std::string::npos &&
          lines[i].find(w.array.name + "[") != std::string::npos)
        decl = static_cast<int>(i);
    }
    if (decl < 0)
      return Status::Error("no __shared__ declaration of " + w.array.name + " above line " +
                           std::to_string(first_site));
    std::string& l = lines[static_cast<std::size_t>(decl)];
    const std::size_t close =
        l.find(']', l.find('[', l.find(w.array.name + "[") + w.array.name.size() + 1));
    if (close == std::string::npos || w.array.dims.size() != 2)
      return Status::Error("the declaration on line " + std::to_string(decl + 1) +
                           " is not a 2D array");
    l.insert(close, " + " + name);
  } else {
    const std::uint64_t mask = (1ull << w.bits) - 1;
    for (std::uint16_t s : w.array.sites) {
      const SiteInfo& site = t.sites[s];
      const std::string access = AccessText(site, w.array.name);
      if (site.line == 0 || site.line > lines.size() || access.empty()) continue;
      std::string& l = lines[site.line - 1];
      const std::size_t at = l.find(access);
      if (at == std::string::npos) continue;  // written once already (two sites on one line)
      // tile[i][j] -> tile[i][j ^ (WS_SWIZZLE * (((i) & mask) << M))]
      const std::size_t open2 = access.rfind('[');
      const std::string i =
          access.substr(access.find('[') + 1, access.find(']') - access.find('[') - 1);
      const std::string j = access.substr(open2 + 1, access.size() - open2 - 2);
      std::string x = "((" + i + ") & " + std::to_string(mask) + ")";
      if (w.base_bits > 0) x = "(" + x + " << " + std::to_string(w.base_bits) + ")";
      l.replace(at, access.size(),
                access.substr(0, open2 + 1) + "(" + j + ") ^ (" + name + " * " + x + ")]");
    }
  }
  const std::string value = w.kind == WhatIfKind::kPad ? std::to_string(w.pad) : "1";
  const std::string slider =
      "#define " + name + " " + value + "  // warpscope: param " + name + " 0.." +
      (w.kind == WhatIfKind::kPad
           ? "8  (what-if: elements added to each row of " + w.array.name + ")"
           : "1  (what-if: " + Describe(w) + "; 0: as written)");
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(DefineAt(lines)), slider);
  return Join(lines);
}

}  // namespace ws

// What-if layouts (what_if.h), part 2: the arrays a run accesses and their shapes, and the code
// a layout asks for. Applying a what-if is in what_if_apply.cpp.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <string_view>

#include "warpscope/trace/units.h"
#include "warpscope/trace/what_if.h"
#include "warpscope/trace/ws_cuda_keys.h"

namespace ws {
namespace {

//-------------------------------------------------------------------------------------------------
// [SECTION] The arrays and their shapes
//-------------------------------------------------------------------------------------------------

// A `__shared__` declaration of the source: `float tile[TILE_DIM][TILE_DIM + 1]` gives
// {"tile", {"TILE_DIM", "TILE_DIM + 1"}}.
struct Declaration {
  std::string name, type;
  std::vector<std::string> dims;
  std::string file;        // the file it is written in
  std::uint32_t line = 0;  // 1-based
};

bool IsWord(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

std::string Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::vector<Declaration> SharedDeclarations(std::string_view text, const std::string& file) {
  std::vector<Declaration> out;
  for (std::size_t at = text.find("__shared__"); at != std::string_view::npos;
       at = text.find("__shared__", at + 10)) {
    const std::size_t end = text.find(';', at);
    if (end == std::string_view::npos) break;
    const std::string_view decl = text.substr(at + 10, end - at - 10);
    const std::size_t open = decl.find('[');
    if (open == std::string_view::npos) continue;
    std::size_t n = open;
    while (n > 0 && std::isspace(static_cast<unsigned char>(decl[n - 1]))) --n;
    std::size_t b = n;
    while (b > 0 && IsWord(decl[b - 1])) --b;
    Declaration d{
        std::string(decl.substr(b, n - b)),
        Trim(decl.substr(0, b)),
        {},
        file,
        static_cast<std::uint32_t>(
            1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'))};
    for (std::size_t i = open; i < decl.size() && decl[i] == '[';) {
      const std::size_t close = decl.find(']', i);
      if (close == std::string_view::npos) break;
      d.dims.push_back(Trim(decl.substr(i + 1, close - i - 1)));
      i = close + 1;
      while (i < decl.size() && std::isspace(static_cast<unsigned char>(decl[i]))) ++i;
    }
    if (!d.name.empty()) out.push_back(std::move(d));
  }
  return out;
}

// A dimension's value with every name in it set to `v` (TILE_DIM + 1 at v = 32: 33); -1 when it
// is not a sum, difference, product or quotient of numbers and names.
struct Eval {
  std::string_view s;
  std::size_t i = 0;
  long long v = 0;
  bool ok = true;
  void Space() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  long long Atom() {
    Space();
    if (i < s.size() && s[i] == '(') {
      ++i;
      const long long x = Sum();
      Space();
      if (i < s.size() && s[i] == ')')
        ++i;
      else
        ok = false;
      return x;
    }
    if (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      long long x = 0;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && x < (1ll << 40))
        x = x * 10 + (s[i++] - '0');
      while (i < s.size() && (s[i] == 'u' || s[i] == 'U' || s[i] == 'l' || s[i] == 'L')) ++i;
      return x;
    }
    const std::size_t b = i;
    while (i < s.size() && IsWord(s[i])) ++i;
    if (i == b) ok = false;
    return v;
  }
  long long Product() {
    long long x = Atom();
    for (Space(); ok && i < s.size() && (s[i] == '*' || s[i] == '/'); Space()) {
      const char op = s[i++];
      const long long y = Atom();
      if (op == '*')
        x *= y;
      else if (y != 0)
        x /= y;
      else
        ok = false;
    }
    return x;
  }
  long long Sum() {
    long long x = Product();
    for (Space(); ok && i < s.size() && (s[i] == '+' || s[i] == '-'); Space()) {
      const char op = s[i++];
      const long long y = Product();
      x = op == '+' ? x + y : x - y;
    }
    return x;
  }
};
long long DimAt(const std::string& dim, long long v) {
  Eval e{dim, 0, v};
  const long long x = e.Sum();
  return e.ok && e.i == dim.size() && x > 0 ? x : -1;
}

// Rows and columns of a declaration holding at least `least` elements and at most `most`.
bool SolveShape(const Declaration& d, std::uint64_t least, std::uint64_t most, WhatIfArray* a) {
  if (d.dims.size() == 1) {
    if (d.dims[0].empty()) return false;  // extern __shared__ T s[]
    for (long long v = 1; v <= 4096; ++v) {
      const long long n = DimAt(d.dims[0], v);
      if (n < 0) return false;
      if (std::uint64_t(n) >= least && std::uint64_t(n) <= most) {
        a->rows = 1, a->cols = static_cast<std::uint32_t>(n);
        return true;
      }
    }
    return false;
  }
  if (d.dims.size() != 2) return false;
  // The smallest that holds every element the accesses reached (a padded tile's last spare
  // column is never reached).
  for (long long v = 1; v <= 4096; ++v) {
    const long long r = DimAt(d.dims[0], v), c = DimAt(d.dims[1], v);
    if (r < 0 || c < 0) return false;
    const std::uint64_t n = std::uint64_t(r) * std::uint64_t(c);
    if (n > most) break;
    if (n >= least) {
      a->rows = static_cast<std::uint32_t>(r), a->cols = static_cast<std::uint32_t>(c);
      return true;
    }
  }
  return false;
}

// Square when `n` is a square, else one row.
void GuessShape(std::uint64_t n, WhatIfArray* a) {
  const auto r = static_cast<std::uint64_t>(std::llround(std::sqrt(static_cast<double>(n))));
  if (r * r == n && r > 1) {
    a->rows = a->cols = static_cast<std::uint32_t>(r);
  } else {
    a->rows = 1, a->cols = static_cast<std::uint32_t>(std::max<std::uint64_t>(n, 1));
  }
}

bool Mentions(const std::string& code, const std::string& name) {
  for (std::size_t at = code.find(name); at != std::string::npos; at = code.find(name, at + 1)) {
    std::size_t e = at + name.size();
    while (e < code.size() && code[e] == ' ') ++e;
    if ((at == 0 || !IsWord(code[at - 1])) && e < code.size() && code[e] == '[') return true;
  }
  return false;
}

// Every __shared__ declaration of the run's source files (a lesson's kernel file; a program's
// files), each with its file and line.
std::vector<Declaration> AllDeclarations(const LessonRun& run) {
  if (!run.program) return SharedDeclarations(run.source(), std::string(run.source_file()));
  std::vector<Declaration> all = SharedDeclarations(run.program->source, run.program->file);
  for (const auto& [name, text] : run.program->files) {
    std::vector<Declaration> more = SharedDeclarations(text, name);
    all.insert(all.end(), more.begin(), more.end());
  }
  return all;
}

// Whether declaration `d` is the one `site` reaches: its name is written at the site, in the
// same file. Among several (two kernels each with its own `tile`), the nearest above the site.
int DeclarationOf(const std::vector<Declaration>& decls, const SiteInfo& site,
                  const std::string& main_file) {
  int best = -1;
  for (std::size_t k = 0; k < decls.size(); ++k) {
    const Declaration& d = decls[k];
    if (!Mentions(site.code, d.name)) continue;
    const bool same_file =
        main_file.empty() || d.file == (site.file.empty() ? main_file : site.file);
    if (!same_file || d.line > site.line) continue;
    if (best < 0 || d.line > decls[static_cast<std::size_t>(best)].line) best = static_cast<int>(k);
  }
  return best;
}

// The lowest byte offset and the largest offset + size of the kept accesses to the sites marked
// in `mine`.
std::pair<std::uint64_t, std::uint64_t> RecordedSpan(const LaunchTrace& t,
                                                     const std::vector<char>& mine) {
  std::uint64_t lo = UINT64_MAX, end = 0;
  for (const BlockRecords& b : t.blocks) {
    for (const AccessRecord& r : b.accesses) {
      // (Another block's shared memory in a cluster is not this block's array's extent.)
      if (!mine[r.site] ||
          (t.sites[r.site].space == MemorySpace::kShared && RemoteSharedRank(r.offset) >= 0))
        continue;
      lo = std::min<std::uint64_t>(lo, r.offset);
      end = std::max<std::uint64_t>(end, std::uint64_t{r.offset} + t.sites[r.site].size);
    }
  }
  return {lo == UINT64_MAX ? 0 : lo, end};
}

void ShapeShared(const LaunchTrace& t, const std::vector<Declaration>& decls,
                 const std::string& main_file, std::vector<WhatIfArray>& arrays) {
  std::vector<char> named(decls.size(), 0);
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    WhatIfArray& a = arrays[k];
    std::vector<char> mine(t.sites.size(), 0);
    for (std::uint16_t s : a.sites) mine[s] = 1;
    const auto [lo, end] = RecordedSpan(t, mine);
    // The emulator names a static array by its first word (its id); on a GPU the offsets also
    // count the shared memory the driver reserves (1 KiB on an H100) and the id may not: the
    // lowest offset the array's accesses reach, on its 16-byte alignment, is its start then.
    a.base =
        std::max<std::uint32_t>(std::uint32_t{a.id} * 4u, static_cast<std::uint32_t>(lo & ~15ull));
    const std::uint64_t next =
        k + 1 < arrays.size()
            ? std::max<std::uint64_t>(std::uint64_t{arrays[k + 1].id} * 4u, end)
            : std::max<std::uint64_t>(a.base + std::uint64_t{t.shared_bytes}, end);
    const std::uint64_t least = end > a.base ? (end - a.base + a.elem - 1) / a.elem : 1;
    const std::uint64_t most = std::max(least, (next > a.base ? next - a.base : 0) / a.elem);
    // The declaration written at its sites, nearest above them; never one another array took.
    int pick = -1;
    for (std::uint16_t s : a.sites) {
      const int d = DeclarationOf(decls, t.sites[s], main_file);
      if (d >= 0 && !named[static_cast<std::size_t>(d)]) {
        pick = d;
        break;
      }
    }
    if (pick >= 0) {
      named[static_cast<std::size_t>(pick)] = 1;
      a.name = decls[static_cast<std::size_t>(pick)].name;
      a.type = decls[static_cast<std::size_t>(pick)].type;
      a.dims = decls[static_cast<std::size_t>(pick)].dims;
      if (SolveShape(decls[static_cast<std::size_t>(pick)], least, most, &a)) continue;
    } else {
      a.name = "shared@" + std::to_string(a.base);
    }
    GuessShape(least, &a);
  }
}

void ShapeGlobal(const LessonRun& run, const LaunchTrace& t, WhatIfArray* a) {
  const BufferInfo& b = t.buffers[a->id];
  a->name = b.name;
  const std::uint64_t n = b.bytes / a->elem;
  auto p = [&](const char* k) {
    auto it = run.params.find(k);
    return it == run.params.end() ? 0ull
                                  : static_cast<unsigned long long>(std::max(0ll, it->second));
  };
  if (p("width") > 0 && p("height") > 0 && p("width") * p("height") == n) {
    a->rows = static_cast<std::uint32_t>(p("height")),
    a->cols = static_cast<std::uint32_t>(p("width"));
  } else {
    GuessShape(n, a);
  }
}

//-------------------------------------------------------------------------------------------------
// [SECTION] The code to write
//-------------------------------------------------------------------------------------------------

// The subscripts of `name` in `code`: "tile[threadIdx.x][threadIdx.y]" gives {"threadIdx.x",
// "threadIdx.y"}; empty when `name[` is not there.
std::vector<std::string> Subscripts(const std::string& code, const std::string& name) {
  std::vector<std::string> out;
  for (std::size_t at = code.find(name); at != std::string::npos; at = code.find(name, at + 1)) {
    if (at > 0 && IsWord(code[at - 1])) continue;
    std::size_t i = at + name.size();
    while (i < code.size() && code[i] == '[') {
      int depth = 0;
      std::size_t j = i;
      for (; j < code.size(); ++j) {
        if (code[j] == '[') ++depth;
        if (code[j] == ']' && --depth == 0) break;
      }
      if (j >= code.size()) break;
      out.push_back(Trim(std::string_view(code).substr(i + 1, j - i - 1)));
      i = j + 1;
    }
    if (!out.empty()) return out;
  }
  return out;
}

// `e` in parentheses unless it is a name, a number or a member (threadIdx.x).
std::string Paren(const std::string& e) {
  for (char c : e) {
    if (!IsWord(c) && c != '.') return "(" + e + ")";
  }
  return e;
}

}  // namespace

//-------------------------------------------------------------------------------------------------
// [SECTION] The arrays a run accesses (what_if.h)
//-------------------------------------------------------------------------------------------------

std::vector<WhatIfArray> WhatIfArrays(const LessonRun& run) {
  return run.has_launch() ? WhatIfArrays(run, run.main_launch_index()) : std::vector<WhatIfArray>{};
}

std::vector<WhatIfArray> WhatIfArrays(const LessonRun& run, std::size_t launch) {
  std::vector<WhatIfArray> shared, global;
  if (launch >= run.launches.size()) return {};
  const LaunchTrace& t = run.launches[launch];
  std::map<std::pair<int, std::uint16_t>, std::size_t> seen;
  for (std::size_t s = 0; s < t.sites.size(); ++s) {
    const SiteInfo& site = t.sites[s];
    const bool sh = site.space == MemorySpace::kShared;
    if (!sh && (site.space != MemorySpace::kGlobal || site.buffer >= t.buffers.size())) continue;
    auto& list = sh ? shared : global;
    auto [it, fresh] = seen.try_emplace({sh ? 1 : 0, site.buffer}, list.size());
    if (fresh) {
      WhatIfArray a;
      a.space = site.space, a.id = site.buffer, a.elem = site.size;
      list.push_back(a);
    }
    WhatIfArray& a = list[it->second];
    a.elem = std::min<std::uint32_t>(a.elem, site.size);
    a.sites.push_back(static_cast<std::uint16_t>(s));
  }
  std::sort(shared.begin(), shared.end(),
            [](const WhatIfArray& x, const WhatIfArray& y) { return x.id < y.id; });
  ShapeShared(t, AllDeclarations(run), run.program ? run.program->file : std::string(), shared);
  for (WhatIfArray& a : global) ShapeGlobal(run, t, &a);
  shared.insert(shared.end(), global.begin(), global.end());
  return shared;
}

std::string AccessText(const SiteInfo& site, const std::string& name) {
  const std::vector<std::string> sub = Subscripts(site.code, name);
  if (sub.empty()) return "";
  std::string text = name;
  for (const std::string& s : sub) text += "[" + s + "]";
  // As written, spaces and all: the span from the name to the last bracket.
  const std::size_t at = site.code.find(name + "[");
  if (at != std::string::npos) {
    std::size_t end = at + name.size();
    for (std::size_t k = 0; k < sub.size(); ++k) {
      int depth = 0;
      for (; end < site.code.size(); ++end) {
        if (site.code[end] == '[') ++depth;
        if (site.code[end] == ']' && --depth == 0) break;
      }
      ++end;
    }
    text = site.code.substr(at, end - at);
  }
  return text;
}

std::string ProposedCode(const WhatIf& w, const SiteInfo& site) {
  const WhatIfArray& a = w.array;
  const std::vector<std::string> sub = Subscripts(site.code, a.name);
  const bool two = sub.size() == 2;
  const std::string i = two ? sub[0] : "i", j = two ? sub[1] : "j";
  const std::string rows = std::to_string(a.rows), cols = std::to_string(a.cols);
  switch (w.kind) {
    case WhatIfKind::kPad: {
      const bool declared = a.dims.size() == 2 && a.space == MemorySpace::kShared;
      return (declared ? "__shared__ " + a.type + " " + a.name + "[" + a.dims[0] + "][" + a.dims[1]
                       : a.name + "[" + rows + "][" + cols) +
             " + " + std::to_string(w.pad) + "];  // the accesses " + a.name + "[" + i + "][" + j +
             "] stay as they are";
    }
    case WhatIfKind::kSwizzle: {
      const std::uint64_t mask = (1ull << w.bits) - 1;
      if (two && w.array.cols == (1u << w.shift) && w.base_bits + w.bits <= w.shift) {
        std::string x = Paren(i) + " & " + std::to_string(mask);
        x = w.base_bits > 0 ? "((" + x + ") << " + std::to_string(w.base_bits) + ")"
                            : "(" + x + ")";
        return a.name + "[" + i + "][" + Paren(j) + " ^ " + x + "]";
      }
      return "index element e = " + Paren(i) + " * " + cols + " + " + Paren(j) + " of a 1D " +
             a.name + " at e ^ ((e >> " + std::to_string(w.shift) + ") & " +
             std::to_string(mask << w.base_bits) + ")";
    }
    case WhatIfKind::kMorton:
      return "declare " + a.name + " 1D and index it " + a.name + "[morton(" + j + ", " + i +
             ")], morton() interleaving the bits of its two arguments (the first in the even bits)";
    case WhatIfKind::kTiled:
      return "declare " + a.name + " 1D and index it by " + std::to_string(w.tile_w) + "x" +
             std::to_string(w.tile_h) + " tiles: tile (" + Paren(i) + " / " +
             std::to_string(w.tile_h) + ") * " +
             std::to_string((a.cols + w.tile_w - 1) / w.tile_w) + " + " + Paren(j) + " / " +
             std::to_string(w.tile_w) + ", then row-major inside";
    case WhatIfKind::kTranspose:
      return "declare " + a.name + "[" + cols + "][" + rows + "] and index it " + a.name + "[" + j +
             "][" + i + "]";
    case WhatIfKind::kVector: {
      const char* type = w.width == 16 ? (a.elem == 8 ? "double2" : "float4")
                                       : (a.elem == 4 ? "float2" : "double");
      return "read " + std::to_string(w.width / a.elem) +
             " elements at once: " + "reinterpret_cast<" + type + "*>(&" + a.name +
             (two ? "[" + i + "][" + j + "]" : "[" + i + "]") +
             ")[0], with the index stepping by " + std::to_string(w.width / a.elem);
    }
  }
  return "";
}

}  // namespace ws

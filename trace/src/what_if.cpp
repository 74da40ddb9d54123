// What-if layouts (what_if.h): the layouts as maps of (i, j), their parsing and description, and
// their application to a run's records. The arrays a run has, with their shapes, are found in
// what_if_arrays.cpp.
#include "warpscope/trace/what_if.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

#include "warpscope/trace/layout.h"
#include "warpscope/trace/units.h"

namespace ws {
namespace {

// [SECTION] Parsing ---------------------------------------------------------------------------

Status Bad(const std::string& spec, const std::string& what) {
  return Status::Error("what-if '" + spec + "': " + what);
}

// "5,0,5" -> {5, 0, 5}; "8x8" -> {8, 8} (sep 'x'). Empty on anything that is not a number list.
std::vector<long long> Numbers(const std::string& text, char sep) {
  std::vector<long long> out;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, sep)) {
    char* end = nullptr;
    const long long v = std::strtoll(part.c_str(), &end, 10);
    if (part.empty() || end == nullptr || *end != '\0' || v < 0) return {};
    out.push_back(v);
  }
  return out;
}

Result<WhatIfKind> KindOf(const std::string& spec, const std::string& name) {
  for (WhatIfKind k : {WhatIfKind::kPad, WhatIfKind::kSwizzle, WhatIfKind::kMorton,
                       WhatIfKind::kTiled, WhatIfKind::kTranspose, WhatIfKind::kVector}) {
    if (name == ToString(k)) return k;
  }
  return Bad(spec, "no layout '" + name +
                       "'; the layouts are pad=K, swizzle=B,M,S, morton, tiled=WxH, transpose and "
                       "vector=BYTES");
}

// The array named by `what`: a name, or site=N.
Result<WhatIfArray> FindArray(const std::string& spec, const std::string& what,
                              const LessonRun& run, std::size_t launch) {
  const std::vector<WhatIfArray> arrays = WhatIfArrays(run, launch);
  std::string names;
  for (const WhatIfArray& a : arrays) names += (names.empty() ? "" : ", ") + a.name;
  if (what.rfind("site=", 0) == 0) {
    const std::vector<long long> n = Numbers(what.substr(5), ',');
    for (const WhatIfArray& a : arrays) {
      if (n.size() == 1 && std::count(a.sites.begin(), a.sites.end(), n[0]) > 0) return a;
    }
    return Bad(spec, "no array is accessed at " + what + " (its arrays: " + names + ")");
  }
  for (const WhatIfArray& a : arrays) {
    if (a.name == what) return a;
  }
  return Bad(spec, "the kernel has no array '" + what + "'" +
                       (names.empty() ? std::string(" (it accesses none a layout applies to)")
                                      : " (its arrays: " + names + ")"));
}

// The launch a what-if's KERNEL part names (kernel name or launch=N): the kernel's launch the
// views show when it is one, else its first launch that kept block records, else its first.
Result<std::size_t> LaunchNamed(const std::string& spec, const std::string& what,
                                const LessonRun& run) {
  const std::size_t shown = run.main_launch_index();
  if (what.rfind("launch=", 0) == 0) {
    const std::vector<long long> n = Numbers(what.substr(7), ',');
    if (n.size() != 1 || n[0] < 1 || static_cast<std::size_t>(n[0]) > run.launches.size())
      return Bad(spec, what + " is not a launch of the run (1 to " +
                           std::to_string(run.launches.size()) + ")");
    return static_cast<std::size_t>(n[0] - 1);
  }
  if (run.launches[shown].kernel == what) return shown;
  std::size_t first = run.launches.size();
  for (std::size_t i = 0; i < run.launches.size(); ++i) {
    if (run.launches[i].kernel != what) continue;
    if (!run.launches[i].blocks.empty()) return i;
    first = std::min(first, i);
  }
  if (first < run.launches.size()) return first;
  std::string names;
  for (const LaunchTrace& t : run.launches) {
    if (names.find(t.kernel) == std::string::npos) names += (names.empty() ? "" : ", ") + t.kernel;
  }
  return Bad(spec, "the run launched no kernel '" + what + "' (its kernels: " + names + ")");
}

// Reads "KIND[=ARGS]" into w.
Status ReadLayout(const std::string& spec, const std::string& layout, WhatIf* w) {
  const std::size_t eq = layout.find('=');
  const std::string name = layout.substr(0, eq);
  const std::string args = eq == std::string::npos ? "" : layout.substr(eq + 1);
  Result<WhatIfKind> kind = KindOf(spec, name);
  if (!kind.ok()) return kind.status();
  w->kind = *kind;
  const bool wants_args = w->kind == WhatIfKind::kPad || w->kind == WhatIfKind::kSwizzle ||
                          w->kind == WhatIfKind::kTiled || w->kind == WhatIfKind::kVector;
  if (wants_args && args.empty() && w->kind != WhatIfKind::kPad)
    return Bad(spec, std::string(ToString(w->kind)) + " needs its values (" +
                         (w->kind == WhatIfKind::kSwizzle ? "swizzle=B,M,S"
                          : w->kind == WhatIfKind::kTiled ? "tiled=WxH"
                                                          : "vector=BYTES") +
                         ")");
  if (!wants_args && !args.empty())
    return Bad(spec, std::string(ToString(w->kind)) + " takes no values");
  if (args.empty()) return {};
  const std::vector<long long> n = Numbers(args, w->kind == WhatIfKind::kTiled ? 'x' : ',');
  const std::size_t want = w->kind == WhatIfKind::kSwizzle ? 3
                           : w->kind == WhatIfKind::kTiled ? 2
                                                           : 1;
  if (n.size() != want)
    return Bad(spec, "'" + args + "' is not " + std::to_string(want) + " whole number" +
                         (want > 1 ? "s" : "") + " for " + ToString(w->kind));
  auto u = [](long long v) { return static_cast<std::uint32_t>(std::min<long long>(v, 1 << 30)); };
  switch (w->kind) {
    case WhatIfKind::kPad:
      w->pad = u(n[0]);
      break;
    case WhatIfKind::kSwizzle:
      w->bits = u(n[0]), w->base_bits = u(n[1]), w->shift = u(n[2]);
      break;
    case WhatIfKind::kTiled:
      w->tile_w = u(n[0]), w->tile_h = u(n[1]);
      break;
    case WhatIfKind::kVector:
      w->width = u(n[0]);
      break;
    default:
      break;
  }
  return {};
}

std::string Hex(std::uint64_t v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}

bool IsPowerOfTwo(std::uint64_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}
std::uint32_t Log2(std::uint64_t v) {
  std::uint32_t l = 0;
  while ((1ull << (l + 1)) <= v) ++l;
  return l;
}

// Whether a swizzle only permutes within a row: the row is 2^S elements and the bits it XORs
// (M .. M+B-1) lie inside it; then (i, j) -> (i, j ^ ((i & mask) << M)).
bool RowSwizzle(const WhatIf& w) {
  return IsPowerOfTwo(w.array.cols) && Log2(w.array.cols) == w.shift &&
         w.base_bits + w.bits <= w.shift;
}

}  // namespace

const char* ToString(WhatIfKind k) {
  switch (k) {
    case WhatIfKind::kPad:
      return "pad";
    case WhatIfKind::kSwizzle:
      return "swizzle";
    case WhatIfKind::kMorton:
      return "morton";
    case WhatIfKind::kTiled:
      return "tiled";
    case WhatIfKind::kTranspose:
      return "transpose";
    case WhatIfKind::kVector:
      return "vector";
  }
  return "?";
}

Status CheckWhatIf(const WhatIf& w) {
  const std::string spec = SpecOf(w);
  const WhatIfArray& a = w.array;
  if (a.rows == 0 || a.cols == 0 || a.row_pitch() < a.cols)
    return Bad(spec, "the shape " + std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                         " is empty or wider than its rows (" + std::to_string(a.row_pitch()) +
                         " elements)");
  if (std::uint64_t{a.rows} * a.cols > (1u << 24))
    return Bad(spec, "the shape has " + FormatNumber(double(a.rows) * a.cols) +
                         " elements, over the limit of 16,777,216");
  switch (w.kind) {
    case WhatIfKind::kPad:
      if (w.pad < 1 || w.pad > 64)
        return Bad(spec, "pad is " + std::to_string(w.pad) + "; it must be 1 to 64 elements");
      break;
    case WhatIfKind::kSwizzle:
      if (w.bits < 1 || w.bits > 8)
        return Bad(spec, "B is " + std::to_string(w.bits) + "; it must be 1 to 8 bits");
      if (w.base_bits > 8)
        return Bad(spec, "M is " + std::to_string(w.base_bits) + ", over the limit of 8");
      if (w.shift < w.bits || w.shift > 16)
        return Bad(spec, "S is " + std::to_string(w.shift) + "; it must be at least B (" +
                             std::to_string(w.bits) +
                             ") and at most 16, so that the bits it "
                             "moves do not overlap the bits they change");
      break;
    case WhatIfKind::kMorton:
      if (a.rows > 65536 || a.cols > 65536)
        return Bad(spec, "Morton order takes at most 65,536 rows and columns");
      break;
    case WhatIfKind::kTiled:
      if (w.tile_w < 1 || w.tile_h < 1 || w.tile_w > a.cols || w.tile_h > a.rows)
        return Bad(spec, "tiles of " + std::to_string(w.tile_w) + "x" + std::to_string(w.tile_h) +
                             " do not fit the " + std::to_string(a.rows) + "x" +
                             std::to_string(a.cols) + " array");
      break;
    case WhatIfKind::kVector:
      if (w.width != 8 && w.width != 16)
        return Bad(spec, "vector width is " + std::to_string(w.width) +
                             " bytes; a thread reads 8 or 16 bytes at once");
      if (w.width <= a.elem || w.width % a.elem != 0)
        return Bad(spec, "the array's accesses are " + std::to_string(a.elem) + " bytes; a " +
                             std::to_string(w.width) +
                             "-byte access must be a multiple of them, and wider");
      break;
    case WhatIfKind::kTranspose:
      break;
  }
  return {};
}

Status CheckWhatIfForm(const std::string& spec) {
  const std::size_t colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size())
    return Bad(spec,
               "write [KERNEL:]ARRAY:LAYOUT, as in tile:pad=1 or transposeCoalesced:tile:pad=1");
  const std::size_t end = spec.find_first_of("=,", colon);
  Result<WhatIfKind> kind = KindOf(
      spec, spec.substr(colon + 1, end == std::string::npos ? std::string::npos : end - colon - 1));
  return kind.ok() ? Status() : kind.status();
}

Result<WhatIf> ParseWhatIf(const std::string& spec, const LessonRun& run) {
  if (!run.has_launch()) return Bad(spec, "the run has no kernel launch");
  // [KERNEL:]ARRAY:LAYOUT, split from the right (a kernel's name may hold "::").
  const std::size_t colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size())
    return Bad(spec,
               "write [KERNEL:]ARRAY:LAYOUT, as in tile:pad=1 or transposeCoalesced:tile:pad=1");
  const std::size_t before = spec.rfind(':', colon - 1);
  const std::string array_part = before == std::string::npos
                                     ? spec.substr(0, colon)
                                     : spec.substr(before + 1, colon - before - 1);
  std::string kernel = before == std::string::npos ? "" : spec.substr(0, before);
  if (before != std::string::npos && (kernel.empty() || array_part.empty()))
    return Bad(spec, "write KERNEL:ARRAY:LAYOUT with each part named");
  std::size_t launch = run.main_launch_index();
  if (!kernel.empty()) {
    Result<std::size_t> l = LaunchNamed(spec, kernel, run);
    if (!l.ok()) return l.status();
    launch = *l;
    if (!run.program && launch != run.main_launch_index())
      return Bad(spec, "a lesson's what-if applies to the launch its views show (" +
                           run.main_launch().kernel + ")");
    // A kernel named keeps its name; launch=N stays that launch when the spec is written again.
    if (kernel.rfind("launch=", 0) != 0) kernel = run.launches[launch].kernel;
  }
  std::string layout = spec.substr(colon + 1);
  std::string shape;
  if (const std::size_t at = layout.find(",shape="); at != std::string::npos) {
    shape = layout.substr(at + 7);
    layout.erase(at);
  }
  Result<WhatIfArray> array = FindArray(spec, array_part, run, launch);
  if (!array.ok()) return array.status();
  WhatIf w;
  w.launch = launch;
  w.kernel = kernel;
  w.array = *array;
  if (!shape.empty()) {
    const std::vector<long long> rc = Numbers(shape, 'x');
    if (rc.size() != 2 || rc[0] == 0 || rc[1] == 0 || rc[0] > (1 << 24) || rc[1] > (1 << 24))
      return Bad(spec, "shape '" + shape + "' is not ROWSxCOLS (two whole numbers above 0)");
    w.array.rows = static_cast<std::uint32_t>(rc[0]);
    w.array.cols = static_cast<std::uint32_t>(rc[1]);
    if (w.array.pitch < w.array.cols) w.array.pitch = 0;
  }
  if (Status s = ReadLayout(spec, layout, &w); !s.ok()) return s;
  if (Status s = CheckWhatIf(w); !s.ok()) return s;
  return w;
}

std::string SpecOf(const WhatIf& w) {
  std::string s = (w.kernel.empty() ? "" : w.kernel + ":") + w.array.name + ":" + ToString(w.kind);
  switch (w.kind) {
    case WhatIfKind::kPad:
      s += "=" + std::to_string(w.pad);
      break;
    case WhatIfKind::kSwizzle:
      s += "=" + std::to_string(w.bits) + "," + std::to_string(w.base_bits) + "," +
           std::to_string(w.shift);
      break;
    case WhatIfKind::kTiled:
      s += "=" + std::to_string(w.tile_w) + "x" + std::to_string(w.tile_h);
      break;
    case WhatIfKind::kVector:
      s += "=" + std::to_string(w.width);
      break;
    default:
      break;
  }
  return s + ",shape=" + std::to_string(w.array.rows) + "x" + std::to_string(w.array.cols);
}

std::string Describe(const WhatIf& w) {
  const std::string& n = w.array.name;
  switch (w.kind) {
    case WhatIfKind::kPad:
      return "pad +" + std::to_string(w.pad) + " on " + n;
    case WhatIfKind::kSwizzle:
      return "Swizzle<" + std::to_string(w.bits) + "," + std::to_string(w.base_bits) + "," +
             std::to_string(w.shift) + "> on " + n;
    case WhatIfKind::kMorton:
      return "Morton (Z-order) " + n;
    case WhatIfKind::kTiled:
      return std::to_string(w.tile_w) + "x" + std::to_string(w.tile_h) + " tiles of " + n;
    case WhatIfKind::kTranspose:
      return n + " transposed";
    case WhatIfKind::kVector:
      return std::to_string(w.width) + "-byte accesses to " + n;
  }
  return n;
}

std::string FormulaOf(const WhatIf& w) {
  const WhatIfArray& a = w.array;
  const std::string cols = std::to_string(a.cols);
  switch (w.kind) {
    case WhatIfKind::kPad:
      return "(i, j) -> i*" + std::to_string(a.cols + w.pad) + " + j";
    case WhatIfKind::kSwizzle: {
      const std::uint64_t mask = (1ull << w.bits) - 1;
      if (RowSwizzle(w)) {
        std::string x = "(i & " + std::to_string(mask) + ")";
        if (w.base_bits > 0) x = "(" + x + " << " + std::to_string(w.base_bits) + ")";
        return "(i, j) -> i*" + cols + " + (j ^ " + x + ")";
      }
      return "e = i*" + cols + " + j -> e ^ ((e & " + Hex(mask << (w.base_bits + w.shift)) +
             ") >> " + std::to_string(w.shift) + ")";
    }
    case WhatIfKind::kMorton:
      return "(i, j) -> the bits of j and i interleaved (j in the even bits)";
    case WhatIfKind::kTiled:
      return "(i, j) -> tile (i/" + std::to_string(w.tile_h) + ", j/" + std::to_string(w.tile_w) +
             ") in row order, then row-major inside the " + std::to_string(w.tile_w) + "x" +
             std::to_string(w.tile_h) + " tile";
    case WhatIfKind::kTranspose:
      return "(i, j) -> j*" + std::to_string(a.rows) + " + i";
    case WhatIfKind::kVector:
      return "each thread's " + std::to_string(w.width / a.elem) + " consecutive " +
             std::to_string(a.elem) + "-byte accesses as one " + std::to_string(w.width) +
             "-byte access";
  }
  return "";
}

std::uint64_t PlaceOf(const WhatIf& w, std::uint32_t i, std::uint32_t j) {
  const WhatIfArray& a = w.array;
  switch (w.kind) {
    case WhatIfKind::kPad:
      return std::uint64_t{i} * (a.cols + w.pad) + j;
    case WhatIfKind::kSwizzle: {
      const std::uint64_t e = std::uint64_t{i} * a.cols + j;
      const std::uint64_t yyy = ((1ull << w.bits) - 1) << (w.base_bits + w.shift);
      return e ^ ((e & yyy) >> w.shift);
    }
    case WhatIfKind::kMorton: {
      Layout2D l;
      l.kind = LayoutKind::kMorton;
      return l.Index(static_cast<int>(j), static_cast<int>(i));
    }
    case WhatIfKind::kTiled: {
      Layout2D l;
      l.kind = LayoutKind::kTiled;
      l.width = static_cast<int>(a.cols), l.height = static_cast<int>(a.rows);
      l.tile_w = static_cast<int>(w.tile_w), l.tile_h = static_cast<int>(w.tile_h);
      return l.Index(static_cast<int>(j), static_cast<int>(i));
    }
    case WhatIfKind::kTranspose:
      return std::uint64_t{j} * a.rows + i;
    case WhatIfKind::kVector:
      return std::uint64_t{i} * a.row_pitch() + j;
  }
  return 0;
}

}  // namespace ws

#include "warpscope/trace/compiled_code.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <set>

#include "warpscope/trace/kernel_resources.h"

namespace ws {
namespace {

std::string_view Trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

bool Number(std::string_view s, std::uint32_t* v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

// An instruction's width in bytes from its opcode's suffixes ("LDS.U.128" -> 16, "LDS" -> 4).
std::uint32_t WidthOf(std::string_view opcode) {
  std::uint32_t width = 4;
  for (std::size_t at = opcode.find('.'); at != std::string_view::npos;
       at = opcode.find('.', at + 1)) {
    std::string_view part = opcode.substr(at + 1);
    part = part.substr(0, part.find('.'));
    if (part == "128") width = 16;
    if (part == "64") width = 8;
    if (part == "U8" || part == "S8") width = 1;
    if (part == "U16" || part == "S16") width = 2;
  }
  return width;
}

}  // namespace

void CompiledCode::Add(const std::string& kernel, std::uint32_t line, const std::string& file,
                       Line widths) {
  auto& files = lines_[{kernel, line}];
  for (auto& [f, w] : files) {
    if (f == file) {
      w.loads |= widths.loads;
      w.stores |= widths.stores;
      return;
    }
  }
  files.emplace_back(file, widths);
}

CompiledCode CompiledCode::FromDisassembly(std::string_view listing) {
  CompiledCode code;
  std::string kernel, file;
  std::uint32_t line = 0;
  for (std::size_t pos = 0; pos < listing.size();) {
    std::size_t nl = listing.find('\n', pos);
    if (nl == std::string_view::npos) nl = listing.size();
    const std::string_view text = Trimmed(listing.substr(pos, nl - pos));
    pos = nl + 1;
    // A function's section: "//----- .text._Z6kernelPf -----".
    if (text.starts_with("//-") && text.find(".text.") != std::string_view::npos) {
      std::string_view name = text.substr(text.find(".text.") + 6);
      name = name.substr(0, name.find(' '));
      kernel = KernelKeyOfSymbol(std::string(name));
      file.clear();
      line = 0;
      continue;
    }
    // The line its next instructions came from: //## File "/path/x.cu", line 40
    if (text.starts_with("//## File \"")) {
      const std::size_t close = text.find('"', 11);
      const std::size_t at = text.find("line ", close == std::string_view::npos ? 0 : close);
      std::uint32_t n = 0;
      if (close != std::string_view::npos && at != std::string_view::npos) {
        std::string_view digits = text.substr(at + 5);
        digits = digits.substr(0, digits.find_first_not_of("0123456789"));
        if (Number(digits, &n)) {
          file = std::string(text.substr(11, close - 11));
          line = n;
        }
      }
      continue;
    }
    // An instruction: "/*02c0*/ @!P0 LDS.128 R20, [R7] ;".
    if (kernel.empty() || line == 0 || !text.starts_with("/*")) continue;
    const std::size_t addr_end = text.find("*/");
    if (addr_end == std::string_view::npos) continue;
    std::string_view ins = Trimmed(text.substr(addr_end + 2));
    if (ins.starts_with("@")) {
      const std::string_view predicate = ins.substr(0, ins.find(' '));
      if (predicate == "@!PT") continue;  // never runs (the compiler's padding)
      ins = Trimmed(ins.substr(predicate.size()));
    }
    const std::string_view opcode = ins.substr(0, ins.find(' '));
    const bool load = opcode == "LDS" || opcode.starts_with("LDS.");
    const bool store = opcode == "STS" || opcode.starts_with("STS.");
    if (!load && !store) continue;  // LDSM, STSBAR, LDGSTS: not a plain shared access
    const auto bit = static_cast<std::uint8_t>(WidthOf(opcode));  // 2^k bytes: bit k
    code.Add(kernel, line, file, load ? Line{bit, 0} : Line{0, bit});
  }
  return code;
}

Result<CompiledCode> CompiledCode::FromTable(std::string_view table) {
  CompiledCode code;
  std::size_t number = 0;
  for (std::size_t pos = 0; pos < table.size();) {
    std::size_t nl = table.find('\n', pos);
    if (nl == std::string_view::npos) nl = table.size();
    const std::string_view text = table.substr(pos, nl - pos);
    pos = nl + 1;
    ++number;
    if (Trimmed(text).empty()) continue;
    std::vector<std::string_view> fields;
    for (std::size_t at = 0;;) {
      const std::size_t tab = text.find('\t', at);
      fields.push_back(text.substr(at, tab == std::string_view::npos ? tab : tab - at));
      if (tab == std::string_view::npos) break;
      at = tab + 1;
    }
    std::uint32_t line = 0, loads = 0, stores = 0;
    if (fields.size() != 5 || fields[0].empty() || !Number(fields[2], &line) || line == 0 ||
        !Number(fields[3], &loads) || !Number(fields[4], &stores) || loads > 31 || stores > 31)
      return Status::Error("compiled code table, line " + std::to_string(number) +
                           ": not \"kernel<TAB>file<TAB>line<TAB>loads<TAB>stores\" with "
                           "widths as bits 0-31");
    code.Add(std::string(fields[0]), line, std::string(fields[1]),
             {static_cast<std::uint8_t>(loads), static_cast<std::uint8_t>(stores)});
  }
  return code;
}

void CompiledCode::Merge(const CompiledCode& other) {
  for (const auto& [at, files] : other.lines_) {
    for (const auto& [file, w] : files) Add(std::get<0>(at), std::get<1>(at), file, w);
  }
}

std::string CompiledCode::Table(std::uint32_t min_width) const {
  std::string out;
  for (const auto& [at, files] : lines_) {
    for (const auto& [file, w] : files) {
      if (std::max(w.loads, w.stores) < min_width) continue;  // bit k is 2^k bytes
      out += std::get<0>(at) + "\t" + file + "\t" + std::to_string(std::get<1>(at)) + "\t" +
             std::to_string(w.loads) + "\t" + std::to_string(w.stores) + "\n";
    }
  }
  return out;
}

const std::string* CompiledCode::KernelOf(std::string_view kernel) const {
  const std::string key = KernelKey(kernel);
  const auto it = lines_.lower_bound(std::make_tuple(key, std::uint32_t{0}));
  if (it != lines_.end() && std::get<0>(it->first) == key) return &std::get<0>(it->first);
  // By its name without template arguments, where exactly one kernel has it.
  const std::string base = key.substr(0, key.find('<'));
  const std::string* found = nullptr;
  for (const auto& [at, files] : lines_) {
    const std::string& name = std::get<0>(at);
    if (name.substr(0, name.find('<')) != base || (found != nullptr && *found == name)) continue;
    if (found != nullptr) return nullptr;  // two instances: which one is not known
    found = &name;
  }
  return found;
}

std::uint32_t CompiledCode::SharedWidth(std::string_view kernel, std::string_view file,
                                        std::uint32_t line, bool store) const {
  const std::string* key = KernelOf(kernel);
  if (key == nullptr || file.empty()) return 0;
  const auto it = lines_.find(std::make_tuple(*key, line));
  if (it == lines_.end()) return 0;
  for (const auto& [path, w] : it->second) {
    const bool same = path == file || (path.size() > file.size() && path.ends_with(file) &&
                                       path[path.size() - file.size() - 1] == '/');
    const std::uint8_t bits = store ? w.stores : w.loads;
    if (same && bits != 0) return 1u << (std::bit_width(bits) - 1);
  }
  return 0;
}

std::uint8_t CompiledWidthOf(const CompiledCode& code, std::string_view kernel,
                             const SiteInfo& site) {
  if (site.space != MemorySpace::kShared || site.async_copy || site.op == AccessOp::kAtomic)
    return 0;
  const std::uint32_t w =
      code.SharedWidth(kernel, site.file, site.line, site.op == AccessOp::kStore);
  // Runs of whole accesses only (a 12-byte access has no place in a 16-byte run).
  return w > site.size && w <= 16 && w % site.size == 0 ? static_cast<std::uint8_t>(w) : 0;
}

std::string CompiledInstruction(const SiteInfo& site) {
  const std::string op = site.op == AccessOp::kStore ? "STS" : "LDS";
  switch (site.compiled_width) {
    case 16:
      return op + ".128";
    case 8:
      return op + ".64";
    case 4:
      return op;
    case 2:
      return op + ".U16";
    default:
      return op;
  }
}

bool CompiledRunsMet(const SiteInfo& site, const SiteStats& stats) {
  return site.compiled_width != 0 &&
         (stats.requests > stats.compiled_mixed || stats.compiled_parts > 0);
}

std::string CompiledWidthText(const SiteInfo& site, const SiteStats& stats) {
  if (!CompiledRunsMet(site, stats)) return "";
  const std::uint64_t wide = stats.requests - stats.compiled_mixed;
  std::string out = "as compiled, " + CompiledInstruction(site) + ": the source's " +
                    std::to_string(stats.requests + stats.compiled_parts) + " requests are " +
                    std::to_string(wide) + " of " + std::to_string(site.compiled_width) +
                    " bytes a lane";
  if (stats.compiled_mixed != 0)
    out += " and " + std::to_string(stats.compiled_mixed) +
           " as written (their lanes at different places of a run)";
  // Parts with no run's first place: the wide instructions at this line were another access's
  // (a float4 beside this one), and these requests' own cost is not in the figures.
  if (wide == 0)
    out += "; no request of it was a run's first place: its " +
           std::to_string(stats.compiled_parts) +
           " requests were taken as parts of another access's wide instruction and are not "
           "counted (--source-accesses counts them)";
  return out;
}

}  // namespace ws

#include "warpscope/trace/kernel_resources.h"

#include <cxxabi.h>

#include <charconv>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "warpscope/trace/units.h"

namespace ws {
namespace {

std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

bool Number(std::string_view s, std::uint32_t* v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

std::string ResourceSummary(const KernelResources& r) {
  if (!r.known()) return "";
  std::string s = std::to_string(r.registers) +
                  (r.registers == 1 ? " register, " : " registers, ") +
                  FormatNumber(r.local_bytes) + " B local memory per thread, " +
                  FormatNumber(r.shared_bytes) + " B shared memory";
  if (r.spills_known && (r.spill_stores > 0 || r.spill_loads > 0))
    s += ", " + FormatNumber(r.spill_stores) + " B spilled (" + FormatNumber(r.spill_loads) +
         " B loaded back)";
  return s;
}

const KernelResources* ResourceTable::Find(std::string_view kernel) const {
  auto it = kernels_.find(kernel);
  return it == kernels_.end() ? nullptr : &it->second;
}

Status ParseResourceTable(std::string_view text, ResourceTable* out) {
  ResourceTable t;
  int number = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++number;
    constexpr std::string_view kCompiler = "# compiler:";
    if (line.starts_with(kCompiler)) {
      std::string_view c = line.substr(kCompiler.size());
      while (!c.empty() && c.front() == ' ') c.remove_prefix(1);
      t.compiler_ = std::string(c);
      if (const std::size_t sm = c.find("sm_"); sm != std::string_view::npos) {
        int arch = 0;
        const char* first = c.data() + sm + 3;
        if (std::from_chars(first, c.data() + c.size(), arch).ec == std::errc()) t.arch_ = arch;
      }
      continue;
    }
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const std::vector<std::string_view> f = Fields(line);
    if (f.empty()) continue;
    const std::string where = "resource table line " + std::to_string(number) + ": ";
    if (f.size() != 7) {
      return Status::Error(where +
                           "must be a kernel and 6 numbers (registers, stack, spill "
                           "stores, spill loads, shared, barriers), not " +
                           std::to_string(f.size()) + " fields");
    }
    std::uint32_t v[6];
    for (int i = 0; i < 6; ++i) {
      if (!Number(f[static_cast<std::size_t>(i) + 1], &v[i]))
        return Status::Error(where + "'" + std::string(f[static_cast<std::size_t>(i) + 1]) +
                             "' must be a whole number");
    }
    if (v[0] > 255)  // the most registers a thread can have on any CUDA device
      return Status::Error(where + std::to_string(v[0]) +
                           " registers is over the limit of 255 per thread");
    KernelResources r;
    r.registers = static_cast<int>(v[0]);
    r.local_bytes = v[1];
    r.spill_stores = v[2];
    r.spill_loads = v[3];
    r.shared_bytes = v[4];
    r.barriers = v[5];
    r.spills_known = true;
    if (!t.kernels_.emplace(std::string(f[0]), r).second)
      return Status::Error(where + "kernel '" + std::string(f[0]) + "' is named twice");
  }
  const std::string source = "ptxas" +
                             (t.compiler_.empty() ? std::string() : " (" + t.compiler_ + ")") +
                             ", from the build's resource table";
  for (auto& [name, r] : t.kernels_) r.source = source;
  *out = std::move(t);
  return {};
}

nlohmann::json ResourcesJson(const KernelResources& r) {
  nlohmann::json j = {{"registers", r.registers},
                      {"local_bytes", r.local_bytes},
                      {"shared_bytes", r.shared_bytes},
                      {"source", r.source}};
  if (r.spills_known) {
    j["spill_stores"] = r.spill_stores;
    j["spill_loads"] = r.spill_loads;
    j["barriers"] = r.barriers;
  }
  return j;
}

namespace {

// j[key] as a whole number in lo..hi, else an error naming the key, the limits and the value.
std::uint32_t WholeIn(const nlohmann::json& j, const char* key, std::uint32_t hi) {
  const nlohmann::json& v = j.at(key);
  const bool ok =
      v.is_number_unsigned() ? v.get<std::uint64_t>() <= hi
      : v.is_number_integer()
          ? v.get<std::int64_t>() >= 0 && v.get<std::int64_t>() <= static_cast<std::int64_t>(hi)
          : false;
  if (!ok)
    throw std::runtime_error("a kernel's " + std::string(key) + " must be a whole number 0.." +
                             std::to_string(hi) + ", not " + v.dump());
  return static_cast<std::uint32_t>(v.get<std::uint64_t>());
}

}  // namespace

KernelResources ResourcesFromJson(const nlohmann::json& j) {
  constexpr std::uint32_t kBytes = 1u << 30;  // 1 GiB: more than any GPU gives a thread or block
  KernelResources r;
  r.registers = static_cast<int>(WholeIn(j, "registers", 255));
  r.local_bytes = WholeIn(j, "local_bytes", kBytes);
  r.shared_bytes = WholeIn(j, "shared_bytes", kBytes);
  r.source = j.at("source").get<std::string>();
  if (j.contains("spill_stores")) {
    r.spills_known = true;
    r.spill_stores = WholeIn(j, "spill_stores", kBytes);
    r.spill_loads = WholeIn(j, "spill_loads", kBytes);
    r.barriers = WholeIn(j, "barriers", 255);
  }
  return r;
}

std::string KernelKey(std::string_view qualified) {
  // clang and c++filt spell an unnamed namespace "(anonymous namespace)": not a parameter list.
  std::string unnamed(qualified);
  constexpr std::string_view kAnonymous = "(anonymous namespace)::";
  for (std::size_t at; (at = unnamed.find(kAnonymous)) != std::string::npos;)
    unnamed.erase(at, kAnonymous.size());
  std::string_view name = unnamed;
  // Drop the parameter list: the first '(' outside template arguments.
  int depth = 0;
  std::size_t end = name.size();
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (name[i] == '(' && depth == 0) {
      end = i;
      break;
    }
  }
  name = name.substr(0, end);
  // The unqualified name: after the last "::" outside template arguments.
  depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i + 1 < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (depth == 0 && name[i] == ':' && name[i + 1] == ':') start = i + 2;
  }
  std::string key;
  for (char c : name.substr(start)) {
    if (c != ' ' && c != '&') key += c;
  }
  return key;
}

namespace {

// The number just before `word` in `line` ("12 registers" -> 12), or false.
bool NumberBefore(std::string_view line, std::string_view word, std::uint32_t* v) {
  const std::size_t at = line.find(word);
  if (at == std::string_view::npos || at < 2) return false;
  std::size_t end = at;
  while (end > 0 && line[end - 1] == ' ') --end;
  std::size_t start = end;
  while (start > 0 && line[start - 1] >= '0' && line[start - 1] <= '9') --start;
  return start < end && Number(line.substr(start, end - start), v);
}

std::string Demangled(const std::string& mangled) {
  int status = 0;
  char* d = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  if (status != 0 || d == nullptr) return mangled;  // extern "C": the name as written
  std::string out(d);
  std::free(d);
  // A template function's demangled name begins with its return type.
  if (out.rfind("void ", 0) == 0) out.erase(0, 5);
  return out;
}

std::string_view Quoted(std::string_view line, std::size_t from) {
  const std::size_t a = line.find('\'', from);
  const std::size_t b = a == std::string_view::npos ? a : line.find('\'', a + 1);
  return b == std::string_view::npos ? std::string_view() : line.substr(a + 1, b - a - 1);
}

}  // namespace

std::string KernelKeyOfSymbol(const std::string& symbol) {
  return KernelKey(Demangled(symbol));
}

std::map<std::string, KernelResources, std::less<>> ParsePtxasReport(std::string_view text,
                                                                     const std::string& source) {
  std::map<std::string, KernelResources, std::less<>> out;
  std::string entry, key, properties_of;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (const std::size_t at = line.find("Compiling entry function");
        at != std::string_view::npos) {
      entry = std::string(Quoted(line, at));
      key = entry.empty() ? std::string() : KernelKey(Demangled(entry));
      properties_of.clear();
      if (!key.empty()) {
        KernelResources& r = out[key];
        r.source = source;
        r.spills_known = true;
      }
      continue;
    }
    if (key.empty()) continue;
    KernelResources& r = out[key];
    if (const std::size_t at = line.find("Function properties for"); at != std::string_view::npos) {
      std::string_view name = line.substr(at + 23);
      while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
      while (!name.empty() && (name.back() == ' ' || name.back() == '\r')) name.remove_suffix(1);
      properties_of = std::string(name);
    } else if (line.find("bytes stack frame") != std::string_view::npos) {
      if (properties_of != entry) continue;  // a called function's own frame
      std::uint32_t v = 0;
      if (NumberBefore(line, "bytes stack frame", &v)) r.local_bytes = v;
      if (NumberBefore(line, "bytes spill stores", &v)) r.spill_stores = v;
      if (NumberBefore(line, "bytes spill loads", &v)) r.spill_loads = v;
    } else if (line.find("Used ") != std::string_view::npos &&
               line.find(" registers") != std::string_view::npos) {
      std::uint32_t v = 0;
      if (NumberBefore(line, " registers", &v)) r.registers = static_cast<int>(v);
      if (NumberBefore(line, " barriers", &v)) r.barriers = v;
      if (NumberBefore(line, " bytes smem", &v)) r.shared_bytes = v;
    }
  }
  for (auto it = out.begin(); it != out.end();) {
    it = it->second.known() ? std::next(it) : out.erase(it);
  }
  return out;
}

const KernelResources* FindKernelResources(
    const std::map<std::string, KernelResources, std::less<>>& table, std::string_view kernel) {
  const std::string key = KernelKey(kernel);
  if (const auto it = table.find(key); it != table.end()) return &it->second;
  const std::string base = key.substr(0, key.find('<'));
  const KernelResources* found = nullptr;
  for (const auto& [name, r] : table) {
    if (name.substr(0, name.find('<')) != base) continue;
    if (found != nullptr) return nullptr;  // two instances: which one is not known
    found = &r;
  }
  return found;
}

}  // namespace ws

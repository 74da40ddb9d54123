#include "warpscope/trace/kernel_resources.h"

#include <charconv>
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

}  // namespace ws

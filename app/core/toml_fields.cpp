#include "core/toml_fields.h"

#include <algorithm>

namespace ws::toml_fields {

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

Status Where::Error(const toml::node* at, int fallback_line, const std::string& field,
                    const std::string& what) const {
  const int line = at != nullptr && at->source().begin.line > 0
                       ? static_cast<int>(at->source().begin.line)
                       : fallback_line;
  return Status::Error(file_ + ":" + std::to_string(line) + ": " + context_ +
                       (field.empty() ? "" : field + ": ") + what);
}

Status GetString(const toml::table& t, const char* key, const Where& w, int line,
                 std::string* out) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return Status();
  if (!n->is_string()) return w.Error(n, line, key, "must be a string in quotes");
  *out = **n->as_string();
  return Status();
}

Result<toml::table> Parse(std::string_view text, const std::filesystem::path& file,
                          std::size_t limit, const std::string& what) {
  const std::string name = file.filename().string();
  if (text.size() > limit)
    return Status::Error(name + ": " + std::to_string(text.size()) +
                         " bytes is over the limit of " + std::to_string(limit) + " bytes for " +
                         what);
  try {
    return toml::parse(text, file.string());
  } catch (const toml::parse_error& e) {
    return Status::Error(name + ":" + std::to_string(e.source().begin.line) + ": " +
                         std::string(e.description()));
  }
}

Status CheckKeys(const toml::table& t, std::initializer_list<const char*> allowed, const Where& w,
                 int line, const std::string& prefix) {
  for (const auto& [key, node] : t) {
    const std::string k(key.str());
    if (std::find_if(allowed.begin(), allowed.end(), [&](const char* a) { return k == a; }) ==
        allowed.end()) {
      std::vector<std::string> names(allowed.begin(), allowed.end());
      return w.Error(&node, line, prefix + k, "unknown field; fields here are: " + Join(names));
    }
  }
  return Status();
}

}  // namespace ws::toml_fields

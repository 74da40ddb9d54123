// Reading the fields of a TOML file a person wrote (lecture and assignment files), so that every
// error names the file, the line and the field: "class.toml:5: step 1 ("One"): colour: unknown
// field; fields here are: title, ...".
#pragma once

#include <toml++/toml.h>

#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/trace/status.h"

namespace ws::toml_fields {

std::string Join(const std::vector<std::string>& names);

// Errors read "FILE:LINE: CONTEXT FIELD: what is wrong" (CONTEXT: "step 1 ("One"): " or "").
class Where {
 public:
  Where(std::string file, std::string context)
      : file_(std::move(file)), context_(std::move(context)) {}
  Status Error(const toml::node* at, int fallback_line, const std::string& field,
               const std::string& what) const;

 private:
  std::string file_, context_;
};

// A string field: absent is "", anything else than a string is an error.
Status GetString(const toml::table& t, const char* key, const Where& w, int line, std::string* out);
// `text` parsed as TOML, refused past `limit` bytes; errors read "NAME:LINE: what is wrong".
Result<toml::table> Parse(std::string_view text, const std::filesystem::path& file,
                          std::size_t limit, const std::string& what);
// Every key of `t` is one of `allowed` (named `prefix` + key in the error).
Status CheckKeys(const toml::table& t, std::initializer_list<const char*> allowed, const Where& w,
                 int line, const std::string& prefix);

}  // namespace ws::toml_fields

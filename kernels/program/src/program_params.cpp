// Parameters a program declares for sliders, and -D NAME=VALUE applied to its own definitions.
// These read the program's text line by line: a documented comment form and the line of a
// definition, not the program's code (which only clang's front end analyses).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <sstream>

#include "warpscope/program/program.h"

namespace ws {
namespace {

std::string Trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

std::vector<std::string> Words(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool ParseInt(const std::string& s, long long* v) {
  if (s.empty()) return false;
  std::size_t used = 0;
  try {
    *v = std::stoll(s, &used, 0);
  } catch (...) {
    return false;
  }
  return used == s.size();
}

bool IsIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

// Where the value of NAME's definition on `line` starts and ends ([b, e) in the line), if the
// line defines NAME: `#define NAME value`, `... constexpr ... NAME = value;` or
// `... const ... NAME = value;`.
bool FindDefinition(const std::string& line, const std::string& name, std::size_t* b,
                    std::size_t* e) {
  const std::string t = Trim(line);
  if (t.rfind("#", 0) == 0) {
    const std::vector<std::string> w = Words(t.substr(1));
    if (w.size() < 3 || w[0] != "define" || w[1] != name) return false;
    const std::size_t at = line.find(name, line.find("define"));
    std::size_t v = at + name.size();
    while (v < line.size() && std::isspace(static_cast<unsigned char>(line[v]))) ++v;
    std::size_t end = line.find("//", v);
    if (end == std::string::npos) end = line.size();
    while (end > v && std::isspace(static_cast<unsigned char>(line[end - 1]))) --end;
    *b = v;
    *e = end;
    return end > v;
  }
  // A constant of the program's own: `constexpr int N = ...;` or `const int N = 1 << 10;` (the
  // commonest course idiom), at namespace or function scope. Not a __constant__ variable (device
  // memory, not a size).
  const std::vector<std::string> words = Words(t);
  const bool constant = std::find(words.begin(), words.end(), "constexpr") != words.end() ||
                        std::find(words.begin(), words.end(), "const") != words.end();
  if (!constant) return false;
  std::size_t at = 0;
  while ((at = line.find(name, at)) != std::string::npos) {
    const bool left_ok =
        at == 0 || !(std::isalnum(static_cast<unsigned char>(line[at - 1])) || line[at - 1] == '_');
    std::size_t after = at + name.size();
    const bool right_ok =
        after >= line.size() ||
        !(std::isalnum(static_cast<unsigned char>(line[after])) || line[after] == '_');
    // Not a parameter's default (`void f(const float* a, int N = 4)`).
    const bool in_parens =
        line.rfind('(', at) != std::string::npos &&
        (line.rfind(')', at) == std::string::npos || line.rfind(')', at) < line.rfind('(', at));
    if (left_ok && right_ok && !in_parens) {
      while (after < line.size() && line[after] == ' ') ++after;
      if (after < line.size() && line[after] == '=') {
        std::size_t v = after + 1;
        while (v < line.size() && line[v] == ' ') ++v;
        const std::size_t end = line.find(';', v);
        if (end == std::string::npos) return false;
        *b = v;
        *e = end;
        return end > v;
      }
    }
    at = after;
  }
  return false;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// A constant's value as a number: an integer literal (its suffix u, l, ll taken off), or two joined
// by `<<` or `*` (`1 << 20`, `1024 * 1024`), in parentheses or not. False for anything else.
bool ConstantValue(std::string t, long long* v) {
  t.erase(std::remove_if(t.begin(), t.end(), [](unsigned char c) { return std::isspace(c); }),
          t.end());
  while (t.size() >= 2 && t.front() == '(' && t.back() == ')') t = t.substr(1, t.size() - 2);
  auto literal = [](std::string n, long long* out) {
    while (!n.empty() && std::strchr("uUlL", n.back()) != nullptr) n.pop_back();
    return ParseInt(n, out) && *out >= 0;
  };
  long long a = 0, b = 0;
  if (const std::size_t at = t.find("<<"); at != std::string::npos) {
    if (!literal(t.substr(0, at), &a) || !literal(t.substr(at + 2), &b) || b > 40) return false;
    *v = a << b;
    return a <= (std::numeric_limits<long long>::max() >> b);
  }
  if (const std::size_t at = t.find('*'); at != std::string::npos) {
    if (!literal(t.substr(0, at), &a) || !literal(t.substr(at + 1), &b)) return false;
    if (a != 0 && b > std::numeric_limits<long long>::max() / a) return false;
    *v = a * b;
    return true;
  }
  return literal(t, v);
}

// The name a line may define (FindDefinition then says whether it does): `#define NAME`'s, or the
// identifier right before a constant's `=`.
std::string DefinedName(const std::string& line) {
  const std::string t = Trim(line);
  if (t.rfind("#", 0) == 0) {
    const std::vector<std::string> w = Words(t.substr(1));
    return w.size() >= 3 && w[0] == "define" && IsIdentifier(w[1]) ? w[1] : std::string();
  }
  const std::size_t eq = line.find('=');
  if (eq == std::string::npos || (eq + 1 < line.size() && line[eq + 1] == '=')) return {};
  std::size_t end = eq;
  while (end > 0 && line[end - 1] == ' ') --end;
  std::size_t begin = end;
  while (begin > 0 &&
         (std::isalnum(static_cast<unsigned char>(line[begin - 1])) || line[begin - 1] == '_'))
    --begin;
  const std::string name = line.substr(begin, end - begin);
  return IsIdentifier(name) ? name : std::string();
}

// `lines` with their comments blanked (each character a space, so that a definition's place is
// the same in the line as written): `//` to the end of its line and `/* ... */` across lines, not
// inside a string or character literal. A definition in a comment is none (a review: `// const
// int N = 1 << 30;` above the real one was named, and -D changed the comment).
std::vector<std::string> CodeOnly(std::vector<std::string> lines) {
  bool block = false;
  for (std::string& l : lines) {
    char quote = 0;
    for (std::size_t i = 0; i < l.size(); ++i) {
      if (block) {
        const bool end = l.compare(i, 2, "*/") == 0;
        l[i] = ' ';
        if (end) {
          l[i + 1] = ' ';
          ++i;
          block = false;
        }
      } else if (quote != 0) {
        if (l[i] == '\\') {
          ++i;
        } else if (l[i] == quote) {
          quote = 0;
        }
      } else if (l[i] == '"' || l[i] == '\'') {
        quote = l[i];
      } else if (l.compare(i, 2, "//") == 0) {
        std::fill(l.begin() + static_cast<std::ptrdiff_t>(i), l.end(), ' ');
        break;
      } else if (l.compare(i, 2, "/*") == 0) {
        l[i] = l[i + 1] = ' ';
        ++i;
        block = true;
      }
    }
  }
  return lines;
}

}  // namespace

std::vector<ProgramConstant> ProgramConstants(const std::string& text) {
  std::vector<ProgramConstant> out;
  const std::vector<std::string> lines = CodeOnly(Lines(text));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string name = DefinedName(lines[i]);
    const std::vector<std::string> words = Words(lines[i]);
    if (name.empty() || std::find(words.begin(), words.end(), "__constant__") != words.end() ||
        std::any_of(out.begin(), out.end(),
                    [&](const ProgramConstant& c) { return c.name == name; }))
      continue;
    std::size_t b = 0, e = 0;
    long long v = 0;
    if (!FindDefinition(lines[i], name, &b, &e)) continue;
    // The definition ApplyDefines would change is the name's first: a later one is not listed.
    bool earlier = false;
    for (std::size_t j = 0; j < i && !earlier; ++j) {
      std::size_t b2 = 0, e2 = 0;
      earlier = FindDefinition(lines[j], name, &b2, &e2);
    }
    if (earlier || !ConstantValue(lines[i].substr(b, e - b), &v)) continue;
    out.push_back({name, v, static_cast<std::uint32_t>(i + 1)});
  }
  return out;
}

Result<std::vector<ProgramParam>> ProgramParams(const std::string& source) {
  std::vector<ProgramParam> out;
  const std::vector<std::string> lines = Lines(source);
  const std::vector<std::string> code = CodeOnly(lines);  // the definitions outside comments
  const std::string marker = "// warpscope: param ";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t at = lines[i].find(marker);
    if (at == std::string::npos) continue;
    const std::uint32_t line_no = static_cast<std::uint32_t>(i + 1);
    const std::string where = "line " + std::to_string(line_no) + ": ";
    // A description in parentheses may follow the range and step (examples/picture.cu's
    // "(n: pixels in a row)"): it is for the reader.
    std::string spec = lines[i].substr(at + marker.size());
    if (const std::size_t paren = spec.find('('); paren != std::string::npos) spec.resize(paren);
    const std::vector<std::string> w = Words(spec);
    ProgramParam p;
    p.line = line_no;
    if (w.size() < 2 || !IsIdentifier(w[0]))
      return Status::Error(where + "expected `// warpscope: param NAME MIN..MAX [step S]`");
    p.name = w[0];
    const std::size_t dots = w[1].find("..");
    if (dots == std::string::npos || !ParseInt(w[1].substr(0, dots), &p.min) ||
        !ParseInt(w[1].substr(dots + 2), &p.max))
      return Status::Error(where + "the range of " + p.name + " must be MIN..MAX, not " + w[1]);
    if (w.size() >= 4 && w[2] == "step") {
      if (!ParseInt(w[3], &p.step) || p.step <= 0)
        return Status::Error(where + "the step of " + p.name + " must be a positive integer, not " +
                             w[3]);
    } else if (w.size() != 2) {
      return Status::Error(where + "after the range only `step S` may follow");
    }
    if (p.min > p.max)
      return Status::Error(where + "the range of " + p.name + " is empty (" + w[1] + ")");
    bool found = false;
    for (const std::string& l : code) {
      std::size_t b = 0, e = 0;
      if (FindDefinition(l, p.name, &b, &e)) {
        if (!ParseInt(Trim(l.substr(b, e - b)), &p.value))
          return Status::Error(where + p.name + " is defined as `" + Trim(l.substr(b, e - b)) +
                               "`, not a whole number a slider can set");
        found = true;
        break;
      }
    }
    if (!found)
      return Status::Error(where + "the program has no `#define " + p.name + "` or `constexpr " +
                           "... " + p.name + " = ...;` for this slider to set");
    if (p.value < p.min || p.value > p.max)
      return Status::Error(where + p.name + " is " + std::to_string(p.value) +
                           ", outside its range " + w[1]);
    out.push_back(p);
  }
  return out;
}

std::string ApplyDefines(const std::string& text, const std::vector<std::string>& defines,
                         std::vector<std::string>* rest) {
  std::vector<std::string> lines = Lines(text);
  std::vector<std::string> code = CodeOnly(lines);  // where definitions are found
  for (const std::string& d : defines) {
    const std::size_t eq = d.find('=');
    const std::string name = d.substr(0, eq);
    const std::string value = eq == std::string::npos ? "1" : d.substr(eq + 1);
    bool applied = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::size_t b = 0, e = 0;
      if (FindDefinition(code[i], name, &b, &e)) {
        lines[i] = lines[i].substr(0, b) + value + lines[i].substr(e);
        code[i] = code[i].substr(0, b) + value + code[i].substr(e);
        applied = true;
        break;
      }
    }
    if (!applied) rest->push_back(d);
  }
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += lines[i];
    if (i + 1 < lines.size()) out += '\n';
  }
  return out;
}

}  // namespace ws

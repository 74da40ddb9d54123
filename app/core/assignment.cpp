// Assignments (assignment.h): the file, and the goals checked against a run.
//
//   [SECTION] The file
//   [SECTION] The figures of a run
//   [SECTION] Checking
#include "core/assignment.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/toml_fields.h"
#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/run_report.h"
#include "warpscope/trace/units.h"

namespace ws {
namespace {

using toml_fields::CheckKeys;
using toml_fields::GetString;
using toml_fields::Join;
using toml_fields::Where;

constexpr GoalFigure kFigures[] = {GoalFigure::kSectorsPerRequest, GoalFigure::kBankConflictWays,
                                   GoalFigure::kBankConflicts,     GoalFigure::kRequests,
                                   GoalFigure::kHazards,           GoalFigure::kOutput,
                                   GoalFigure::kModeledTime,       GoalFigure::kGpuBandwidth};

//-------------------------------------------------------------------------------------------------
// [SECTION] The file
//-------------------------------------------------------------------------------------------------

Status GetNumber(const toml::table& t, const char* key, const Where& w, int line,
                 std::optional<double>* out) {
  const toml::node* n = t.get(key);
  if (n == nullptr) return Status();
  if (n->is_integer()) {
    *out = static_cast<double>(**n->as_integer());
  } else if (n->is_floating_point()) {
    *out = **n->as_floating_point();
  } else {
    return w.Error(n, line, key, "must be a number");
  }
  if (!std::isfinite(**out) || **out < 0)
    return w.Error(n, line, key, "must be a number of 0 or more");
  return Status();
}

Status ParseGoal(const toml::table& t, const Where& w, Goal* g) {
  const int line = g->line;
  if (Status s = CheckKeys(
          t, {"name", "figure", "site", "op", "at_most", "at_least", "of_start", "contains"}, w,
          line, "");
      !s.ok())
    return s;
  std::string figure;
  for (const auto& [key, out] :
       std::initializer_list<std::pair<const char*, std::string*>>{{"name", &g->name},
                                                                   {"figure", &figure},
                                                                   {"site", &g->site},
                                                                   {"op", &g->op},
                                                                   {"contains", &g->contains}}) {
    if (Status s = GetString(t, key, w, line, out); !s.ok()) return s;
  }
  std::vector<std::string> names;
  bool found = false;
  for (GoalFigure f : kFigures) {
    names.push_back(ToString(f));
    if (figure == ToString(f)) g->figure = f, found = true;
  }
  if (!found)
    return w.Error(
        t.get("figure"), line, "figure",
        (figure.empty() ? std::string("every goal needs one") : "'" + figure + "' is not one of") +
            ": " + Join(names));
  if (!g->op.empty() && g->op != "load" && g->op != "store")
    return w.Error(t.get("op"), line, "op", "'" + g->op + "' is not load or store");
  if (Status s = GetNumber(t, "at_most", w, line, &g->at_most); !s.ok()) return s;
  if (Status s = GetNumber(t, "at_least", w, line, &g->at_least); !s.ok()) return s;
  if (const toml::node* n = t.get("of_start")) {
    if (!n->is_boolean()) return w.Error(n, line, "of_start", "must be true or false");
    g->of_start = **n->as_boolean();
  }
  const bool bounded = g->at_most || g->at_least;
  if (g->figure == GoalFigure::kOutput) {
    if (bounded || g->of_start)
      return w.Error(&t, line, "figure",
                     "output is right or not: it takes no bound, only contains");
  } else if (!bounded) {
    return w.Error(&t, line, "at_most", "a " + figure + " goal needs at_most or at_least");
  } else if (!g->contains.empty()) {
    return w.Error(t.get("contains"), line, "contains", "only an output goal takes contains");
  }
  if (g->name.empty()) g->name = figure + (g->site.empty() ? "" : " at " + g->site);
  return Status();
}

// The starting program's text and that of the headers it includes with `#include "NAME"` (found
// beside the file that includes them, as the compiler finds them first), each at most 1 MiB and
// 64 files in all: where a goal's marker may be (FindMarker looks in the same files of a run).
std::vector<std::string> StartProgramTexts(const std::filesystem::path& start) {
  std::vector<std::string> texts;
  std::vector<std::filesystem::path> todo = {start}, seen;
  constexpr std::size_t kMaxFiles = 64, kMaxBytes = 1 << 20;
  while (!todo.empty() && seen.size() < kMaxFiles) {
    const std::filesystem::path file = todo.back();
    todo.pop_back();
    std::error_code ec;
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(file, ec);
    if (std::find(seen.begin(), seen.end(), canonical) != seen.end()) continue;
    seen.push_back(canonical);
    std::ifstream in(file, std::ios::binary);
    if (!in) continue;  // a system header's name, or a file not there: not the program's own
    std::string text(kMaxBytes, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    std::stringstream lines(text);
    for (std::string l; std::getline(lines, l);) {
      const std::size_t hash = l.find_first_not_of(" \t");
      if (hash == std::string::npos || l[hash] != '#') continue;
      const std::size_t word = l.find_first_not_of(" \t", hash + 1);
      if (word == std::string::npos || l.compare(word, 7, "include") != 0) continue;
      const std::size_t open = l.find_first_not_of(" \t", word + 7);
      if (open == std::string::npos || l[open] != '"') continue;
      const std::size_t close = l.find('"', open + 1);
      if (close != std::string::npos)
        todo.push_back(file.parent_path() / l.substr(open + 1, close - open - 1));
    }
    texts.push_back(std::move(text));
  }
  return texts;
}

// A goal's marker that the starting program lacks is the assignment's mistake (a misspelt site),
// not every student's: said here, naming the marker and the program, before anything runs.
Status CheckMarkerInStart(const toml::table& t, const Where& w, const Goal& g,
                          const std::filesystem::path& start,
                          const std::vector<std::string>& texts) {
  if (g.site.empty()) return Status();
  for (const std::string& text : texts) {
    if (!MarkerLines(text, g.site).empty()) return Status();
  }
  return w.Error(t.get("site"), g.line, "site",
                 "the starting program " + start.filename().string() + " has no marker `// goal: " +
                     g.site + "` (nor has a header it includes): a misspelt site, or a marker " +
                     "missing from the program? Every submission would miss this goal");
}

// The task as paragraphs: a TOML multi-line string's line breaks inside a paragraph become spaces
// (the panel wraps the text itself); a blank line stays a paragraph break.
std::string Paragraphs(const std::string& text) {
  std::string out;
  std::stringstream in(text);
  bool blank = true;
  for (std::string line; std::getline(in, line);) {
    const std::size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) {
      if (!blank) out += "\n\n";
      blank = true;
      continue;
    }
    if (!blank) out += ' ';
    out += line.substr(b);
    blank = false;
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

//-------------------------------------------------------------------------------------------------
// [SECTION] The figures of a run
//-------------------------------------------------------------------------------------------------

bool IsWord(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
}

// One figure over the sites a goal selects, with where it was worst.
struct Figure {
  double value = 0;
  std::string where;
  std::string missing;  // the goal selects no site: why
};

std::string SpaceOf(const Goal& g) {
  std::string op = g.op.empty() ? "access" : g.op;
  switch (g.figure) {
    case GoalFigure::kSectorsPerRequest:
      return "global " + op;
    case GoalFigure::kBankConflictWays:
    case GoalFigure::kBankConflicts:
      return "shared-memory " + op;
    default:
      return op;
  }
}

Figure SiteFigure(const Goal& g, const LessonRun& run) {
  Figure f;
  if (!run.program) {
    f.missing = "the run is not a program's";
    return f;
  }
  const ProgramRecord& p = *run.program;
  const std::vector<MarkerPlace> places = FindMarker(p, g.site);
  if (!g.site.empty() && places.empty()) {
    f.missing = "the program has no marker `// goal: " + g.site + "`";
    return f;
  }
  bool any = false;
  for (const LaunchTrace& t : run.launches) {
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      const SiteInfo& s = t.sites[i];
      const SiteStats& st = t.stats.sites[i];
      if (!GoalSelects(g, s, places, p) || st.requests == 0) continue;
      double v = 0;
      switch (g.figure) {
        case GoalFigure::kSectorsPerRequest:
          v = st.SectorsPerRequest();
          break;
        case GoalFigure::kBankConflictWays:
          v = st.bank_conflict_max;
          break;
        case GoalFigure::kBankConflicts:
          v = static_cast<double>(st.wavefronts - st.ideal_wavefronts);
          break;
        default:
          v = static_cast<double>(st.requests);
          break;
      }
      const bool sum = g.figure == GoalFigure::kBankConflicts || g.figure == GoalFigure::kRequests;
      if (sum) {
        f.value += v;
      } else if (!any || v > f.value) {
        f.value = v;
        f.where =
            (s.file.empty() || s.file == p.file ? "line " : s.file + ":") + std::to_string(s.line);
      }
      any = true;
    }
  }
  if (!any)
    f.missing = "no " + SpaceOf(g) + (g.site.empty() ? "" : " at `// goal: " + g.site + "`") +
                " was recorded";
  return f;
}

Figure FigureOf(const Goal& g, const LessonRun& run) {
  Figure f;
  switch (g.figure) {
    case GoalFigure::kHazards:
      for (const LaunchTrace& t : run.launches) f.value += static_cast<double>(t.hazards.Total());
      return f;
    case GoalFigure::kOutput: {
      const bool ran = run.program && run.program->ok() && run.program->exit_code == 0;
      const bool says =
          g.contains.empty() ||
          (run.program && run.program->stdout_text.find(g.contains) != std::string::npos);
      f.value = ran && says ? 1 : 0;
      return f;
    }
    case GoalFigure::kModeledTime: {
      std::uint64_t sectors = 0;
      for (const LaunchTrace& t : run.launches)
        sectors += GlobalTrafficOf(t.sites, t.stats).sectors;
      auto preset = FindDevicePreset("hopper");
      const double gbps = preset.ok() ? preset->bandwidth_gbps : 3350.0;
      f.value = static_cast<double>(sectors) * 32.0 / (gbps * 1e3);  // microseconds
      return f;
    }
    case GoalFigure::kGpuBandwidth: {
      const MeasuredBandwidth bw = ProgramBandwidth(run);
      f.value = bw.gbps;
      f.missing = bw.missing;
      return f;
    }
    default:
      return SiteFigure(g, run);
  }
}

std::string Unit(GoalFigure f) {
  switch (f) {
    case GoalFigure::kSectorsPerRequest:
      return " sectors per request";
    case GoalFigure::kBankConflictWays:
      return "-way";
    case GoalFigure::kBankConflicts:
      return " conflicts";
    case GoalFigure::kRequests:
      return " requests";
    case GoalFigure::kHazards:
      return " hazards";
    case GoalFigure::kModeledTime:
      return " us (modeled)";
    case GoalFigure::kGpuBandwidth:
      return " GB/s (measured)";
    case GoalFigure::kOutput:
      return "";
  }
  return "";
}

}  // namespace

const char* ToString(GoalFigure f) {
  switch (f) {
    case GoalFigure::kSectorsPerRequest:
      return "sectors_per_request";
    case GoalFigure::kBankConflictWays:
      return "bank_conflict_ways";
    case GoalFigure::kBankConflicts:
      return "bank_conflicts";
    case GoalFigure::kRequests:
      return "requests";
    case GoalFigure::kHazards:
      return "hazards";
    case GoalFigure::kOutput:
      return "output";
    case GoalFigure::kModeledTime:
      return "modeled_time";
    case GoalFigure::kGpuBandwidth:
      return "gpu_bandwidth";
  }
  return "?";
}

bool Assignment::needs_start() const {
  return std::any_of(goals.begin(), goals.end(), [](const Goal& g) { return g.of_start; });
}

Result<Assignment> ParseAssignment(std::string_view text, const std::filesystem::path& file) {
  const std::string name = file.filename().string();
  Result<toml::table> parsed =
      toml_fields::Parse(text, file, kMaxAssignmentBytes, "an assignment file");
  if (!parsed.ok()) return parsed.status();
  const toml::table& root = *parsed;
  Assignment a;
  a.file = file;
  const Where top(name, "");
  if (Status s = CheckKeys(root, {"title", "program", "task", "goal"}, top, 1, ""); !s.ok())
    return s;
  std::string program;
  for (const auto& [key, out] : std::initializer_list<std::pair<const char*, std::string*>>{
           {"title", &a.title}, {"program", &program}, {"task", &a.task}}) {
    if (Status s = GetString(root, key, top, 1, out); !s.ok()) return s;
  }
  if (a.title.empty()) return top.Error(nullptr, 1, "title", "an assignment needs a title");
  a.task = Paragraphs(a.task);
  if (program.empty())
    return top.Error(nullptr, 1, "program",
                     "an assignment needs its starting program (a .cu file)");
  a.start = file.parent_path() / program;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(a.start, ec))
    return top.Error(root.get("program"), 1, "program", "no file " + a.start.string());
  const toml::array* goals = root.get_as<toml::array>("goal");
  if (goals == nullptr || goals->empty())
    return top.Error(nullptr, 1, "goal", "an assignment needs at least one [[goal]]");
  std::vector<std::string> start_texts;  // read once, for the first goal with a site
  for (std::size_t i = 0; i < goals->size(); ++i) {
    const toml::node& n = (*goals)[i];
    Goal g;
    g.line = static_cast<int>(n.source().begin.line);
    const Where w(name, "goal " + std::to_string(i + 1) + ": ");
    if (!n.is_table()) return w.Error(&n, g.line, "", "must be a [[goal]] table");
    if (Status s = ParseGoal(*n.as_table(), w, &g); !s.ok()) return s;
    if (!g.site.empty() && start_texts.empty()) start_texts = StartProgramTexts(a.start);
    if (Status s = CheckMarkerInStart(*n.as_table(), w, g, a.start, start_texts); !s.ok()) return s;
    a.goals.push_back(std::move(g));
  }
  return a;
}

Result<Assignment> LoadAssignment(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Status::Error("cannot open assignment " + file.string());
  std::string text(kMaxAssignmentBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return ParseAssignment(text, file);
}

std::vector<std::uint32_t> MarkerLines(std::string_view source, const std::string& name) {
  std::vector<std::uint32_t> out;
  std::vector<std::string> lines;
  std::stringstream in{std::string(source)};
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    const std::size_t at = l.find("// goal:");
    // A marker is a comment of its own: not one mentioned in another ("keep `// goal: x`").
    if (at == std::string::npos || l.find("//") != at) continue;
    std::size_t b = l.find_first_not_of(' ', at + 8);
    if (b == std::string::npos) continue;
    std::size_t e = b;
    while (e < l.size() && IsWord(l[e])) ++e;
    if (l.substr(b, e - b) != name) continue;
    const bool code_before = l.find_first_not_of(" \t") < at;
    std::size_t line = i;
    if (!code_before) {
      while (line + 1 < lines.size() &&
             lines[line + 1].find_first_not_of(" \t") == std::string::npos)
        ++line;
      ++line;
    }
    if (line < lines.size()) out.push_back(static_cast<std::uint32_t>(line + 1));
  }
  return out;
}

std::vector<MarkerPlace> FindMarker(const ProgramRecord& p, const std::string& name) {
  std::vector<MarkerPlace> places;
  if (name.empty()) return places;
  if (std::vector<std::uint32_t> l = MarkerLines(p.source, name); !l.empty())
    places.push_back({p.file, std::move(l)});
  for (const auto& [file, text] : p.files) {
    if (std::vector<std::uint32_t> l = MarkerLines(text, name); !l.empty())
      places.push_back({file, std::move(l)});
  }
  return places;
}

bool GoalSelects(const Goal& g, const SiteInfo& s, const std::vector<MarkerPlace>& places,
                 const ProgramRecord& p) {
  if (!g.op.empty() && g.op != ToString(s.op)) return false;
  const bool shared = s.space == MemorySpace::kShared;
  if ((g.figure == GoalFigure::kSectorsPerRequest && shared) ||
      ((g.figure == GoalFigure::kBankConflictWays || g.figure == GoalFigure::kBankConflicts) &&
       !shared))
    return false;
  if (g.site.empty()) return true;
  const std::string& file = s.file.empty() ? p.file : s.file;
  for (const MarkerPlace& m : places) {
    if (m.file == file && std::find(m.lines.begin(), m.lines.end(), s.line) != m.lines.end())
      return true;
  }
  return false;
}

Verdict CheckAssignment(const Assignment& a, const LessonRun& run, const LessonRun* start) {
  Verdict v;
  if (run.program && !run.program->ok())
    v.failure =
        std::string(run.program->stage == ProgramStage::kCompile ? "does not compile" : "stopped") +
        ": " + run.program->failure;
  v.met = v.failure.empty();
  for (const Goal& g : a.goals) {
    GoalResult r;
    r.goal = &g;
    const Figure f = FigureOf(g, run);
    r.value = f.value;
    r.site = f.where;
    double lo = g.at_least.value_or(0), hi = g.at_most.value_or(0);
    std::string bound;
    if (g.of_start) {
      const Figure s =
          start != nullptr ? FigureOf(g, *start) : Figure{0, "", "no run of the starting program"};
      if (!s.missing.empty()) {
        r.skipped = true;
        r.text = g.name + ": the starting program's figure is unknown (" + s.missing + ")";
      }
      lo *= s.value, hi *= s.value;
      bound = " of the start's " + FormatNumber(s.value);
    }
    if (!v.failure.empty() && g.figure != GoalFigure::kOutput) {
      r.text = g.name + ": not checked, the program " + v.failure;
    } else if (!f.missing.empty()) {
      r.skipped = g.figure == GoalFigure::kGpuBandwidth;
      r.text = g.name + ": " + (r.skipped ? "skipped: " : "") + f.missing;
    } else if (!r.skipped) {
      if (g.figure == GoalFigure::kOutput) {
        r.met = f.value == 1;
        r.text = g.name + ": " + (r.met ? "right" : "not right") +
                 (g.contains.empty() ? "" : " (its output must contain \"" + g.contains + "\")");
        if (!r.met && run.program && run.program->ok() && run.program->exit_code != 0) {
          // Why, in its own words: the first line it wrote to stderr.
          const std::string& err = run.program->stderr_text;
          r.text +=
              "; it exited with status " + std::to_string(run.program->exit_code) +
              (err.empty() ? "" : ": " + err.substr(0, std::min(err.find('\n'), std::size_t{200})));
        }
      } else {
        r.met = (!g.at_most || f.value <= hi + 1e-9) && (!g.at_least || f.value >= lo - 1e-9);
        r.text = g.name + ": " + FormatNumber(f.value) + Unit(g.figure) +
                 (f.where.empty() ? "" : " at " + f.where);
        if (g.at_most)
          r.text += ", at most " + FormatNumber(hi, 6) +
                    (g.of_start ? " (" + FormatNumber(*g.at_most) + bound + ")" : "");
        if (g.at_least)
          r.text += ", at least " + FormatNumber(lo, 6) +
                    (g.of_start ? " (" + FormatNumber(*g.at_least) + bound + ")" : "");
      }
    }
    r.text += r.met ? ": met" : r.skipped ? "" : ": NOT met";
    v.met = v.met && r.met;
    v.goals.push_back(std::move(r));
  }
  return v;
}

}  // namespace ws

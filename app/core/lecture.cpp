// Lecture files (see lecture.h): a TOML file of steps, each a lesson (or program, or trace) with
// its parameters, panels and selection; every error names the file, line, step and field. Index:
//   [SECTION] Fields: errors with their place, strings, keys, parameters, variants
//   [SECTION] A step: its source, panels, selection, comparison
//   [SECTION] The lecture file
#include "core/lecture.h"

#include <toml++/toml.h>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>

#include "core/toml_fields.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/what_if.h"

namespace ws {
namespace {

// [SECTION] Fields --------------------------------------------------------------------------------

using toml_fields::CheckKeys;
using toml_fields::GetString;
using toml_fields::Join;
using toml_fields::Where;

// params = { width = 256, layout = "morton" }: whole numbers, or a parameter's named choice.
Status GetParams(const toml::node* n, const LessonInfo* info, const Where& w, int line,
                 const std::string& field, Params* out) {
  if (n == nullptr) return Status();
  const toml::table* t = n->as_table();
  if (t == nullptr)
    return w.Error(n, line, field, "must be a table such as { width = 256, tile = 16 }");
  for (const auto& [key, value] : *t) {
    const std::string name(key.str());
    std::string text;
    if (value.is_integer()) {
      text = std::to_string(**value.as_integer());
    } else if (value.is_string()) {
      text = **value.as_string();
    } else {
      return w.Error(&value, line, field + "." + name, "must be a whole number or a name");
    }
    if (info != nullptr && info->FindParam(name) == nullptr) {
      std::vector<std::string> names;
      for (const ParamSpec& p : info->params) names.push_back(p.name);
      return w.Error(&value, line, field + "." + name,
                     "unknown parameter of " + info->id + "; parameters are: " + Join(names));
    }
    auto v = ParseParamValue(info, name, text);
    if (!v.ok()) return w.Error(&value, line, field + "." + name, v.status().message());
    if (info != nullptr) {
      if (Status s = CheckParam(*info->FindParam(name), *v); !s.ok())
        return w.Error(&value, line, field + "." + name, s.message());
    }
    (*out)[name] = *v;
  }
  return Status();
}

Status CheckVariant(const LessonInfo& info, const std::string& variant, const toml::node* at,
                    const Where& w, int line, const std::string& field) {
  if (variant.empty() || info.FindVariant(variant) != nullptr) return Status();
  std::vector<std::string> names;
  for (const VariantSpec& v : info.variants) names.push_back(v.name);
  return w.Error(
      at, line, field,
      "unknown variant '" + variant + "' of " + info.id + "; variants are: " + Join(names));
}

// [SECTION] A step --------------------------------------------------------------------------------

// A program or trace path: relative to the lecture's folder, else to the working directory.
std::filesystem::path Resolve(const std::filesystem::path& lecture, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_absolute()) return p;
  std::error_code ec;
  const std::filesystem::path beside = lecture.parent_path() / p;
  if (std::filesystem::exists(beside, ec)) return beside;
  return p;
}

// A step's source: a lesson (known, with a variant it has), or a program or trace file (found
// beside the lecture or in the current folder). Sets `info` to the lesson's, else null.
Status ParseSource(const toml::table& t, const Lecture& lecture, const Where& w, int line,
                   const std::string& program, const std::string& trace, LectureStep* step,
                   const LessonInfo** info) {
  if (!step->lesson.empty()) {
    *info = FindLesson(step->lesson);
    if (*info == nullptr) {
      std::vector<std::string> ids;
      for (const LessonInfo& l : Lessons()) ids.push_back(l.id);
      return w.Error(t.get("lesson"), line, "lesson",
                     "unknown lesson '" + step->lesson + "'; lessons are: " + Join(ids));
    }
    if (Status s = CheckVariant(**info, step->variant, t.get("variant"), w, line, "variant");
        !s.ok())
      return s;
  } else {
    const std::string& path = program.empty() ? trace : program;
    const std::filesystem::path resolved = Resolve(lecture.file, path);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(resolved, ec))
      return w.Error(t.get(program.empty() ? "trace" : "program"), line,
                     program.empty() ? "trace" : "program",
                     "no such file: " + path + " (looked beside the lecture and in " +
                         std::filesystem::current_path(ec).string() + ")");
    (program.empty() ? step->trace : step->program) = resolved;
    if (!step->variant.empty())
      return w.Error(t.get("variant"), line, "variant", "only a lesson step has variants");
  }
  return Status();
}

// panels = ["coalescing", "source"]: ids of panels that exist.
Status ParsePanels(const toml::node& node, const std::vector<std::string>& panel_ids,
                   const Where& w, int line, LectureStep* step) {
  const toml::node* n = &node;
  const toml::array* a = n->as_array();
  if (a == nullptr || a->empty())
    return w.Error(n, line, "panels", "must be a list of panel ids such as [\"coalescing\"]");
  for (const toml::node& e : *a) {
    if (!e.is_string()) return w.Error(&e, line, "panels", "each panel is an id in quotes");
    const std::string id = **e.as_string();
    if (std::find(panel_ids.begin(), panel_ids.end(), id) == panel_ids.end())
      return w.Error(&e, line, "panels",
                     "unknown panel '" + id + "'; panels are: " + Join(panel_ids));
    step->panels.push_back(id);
  }
  return Status();
}

// select = { line = 17, op = "store" }, and block, warp, request, hazard (from 1), access
// ("first" or "second"): what the step selects in the views.
Status ParseSelect(const toml::node& node, const Where& w, int line, LectureStep* step) {
  const toml::node* n = &node;
  const toml::table* s = n->as_table();
  if (s == nullptr)
    return w.Error(n, line, "select", "must be a table such as { line = 17, op = \"store\" }");
  if (Status st = CheckKeys(*s, {"line", "op", "block", "warp", "request", "hazard", "access"}, w,
                            line, "select.");
      !st.ok())
    return st;
  for (const auto& [key, value] : *s) {
    const std::string k(key.str());
    if (k == "op") {
      if (!value.is_string())
        return w.Error(&value, line, "select.op", "must be \"load\", \"store\" or \"atomic\"");
      step->select.op = **value.as_string();
      if (step->select.op != "load" && step->select.op != "store" && step->select.op != "atomic")
        return w.Error(&value, line, "select.op",
                       "'" + step->select.op + "' is not load, store or atomic");
      continue;
    }
    if (k == "access") {
      const std::optional<std::string> a = value.value<std::string>();
      if (!a || (*a != "first" && *a != "second"))
        return w.Error(&value, line, "select.access", "must be \"first\" or \"second\"");
      step->select.hazard_side = *a == "first" ? 0 : 1;
      continue;
    }
    if (!value.is_integer() || **value.as_integer() < 0 || **value.as_integer() > 1'000'000'000)
      return w.Error(&value, line, "select." + k, "must be a whole number from 0 to 1000000000");
    const long long v = **value.as_integer();
    if (k == "line") step->select.line = static_cast<int>(v);
    if (k == "block") step->select.block = v;
    if (k == "warp") step->select.warp = static_cast<int>(v);
    if (k == "request") step->select.request = static_cast<int>(v);
    if (k == "hazard") {
      if (v < 1)
        return w.Error(&value, line, "select.hazard",
                       "counts from 1 (the hazards view's first row), not 0");
      step->select.hazard = static_cast<int>(v);
    }
  }
  return Status();
}

// compare = { variant = "naive", params = { ... }, view = "coalescing" }: a lesson step only.
Status ParseCompare(const toml::node& node, const LessonInfo* info, const Where& w, int line,
                    LectureStep* step) {
  const toml::node* n = &node;
  const toml::table* c = n->as_table();
  if (c == nullptr || info == nullptr)
    return w.Error(n, line, "compare",
                   info == nullptr ? "only a lesson step compares runs"
                                   : "must be a table such as { variant = \"naive\" }");
  if (Status st = CheckKeys(*c, {"variant", "params", "view"}, w, line, "compare."); !st.ok())
    return st;
  if (Status st = GetString(*c, "view", w, line, &step->compare.view); !st.ok()) return st;
  static const std::vector<std::string> kViews = {"coalescing", "banks",    "source",
                                                  "grid",       "barriers", "timing"};
  if (!step->compare.view.empty() &&
      std::find(kViews.begin(), kViews.end(), step->compare.view) == kViews.end())
    return w.Error(c->get("view"), line, "compare.view",
                   "'" + step->compare.view + "' is not one of: " + Join(kViews));
  step->compare.on = true;
  if (Status st = GetString(*c, "variant", w, line, &step->compare.variant); !st.ok()) return st;
  if (Status st =
          CheckVariant(*info, step->compare.variant, c->get("variant"), w, line, "compare.variant");
      !st.ok())
    return st;
  if (Status st =
          GetParams(c->get("params"), info, w, line, "compare.params", &step->compare.params);
      !st.ok())
    return st;
  return Status();
}

Status ParseStep(const toml::table& t, const Lecture& lecture, std::size_t index,
                 const std::vector<std::string>& panel_ids, LectureStep* step) {
  step->line = static_cast<int>(t.source().begin.line);
  std::string title;
  if (const toml::node* n = t.get("title"); n != nullptr && n->is_string())
    title = **n->as_string();
  const Where w(
      lecture.file.filename().string(),
      "step " + std::to_string(index + 1) + (title.empty() ? "" : " (\"" + title + "\")") + ": ");
  const int line = step->line;
  if (Status s =
          CheckKeys(t,
                    {"title", "caption", "note", "lesson", "program", "trace", "variant", "backend",
                     "params", "panels", "arrangement", "select", "compare", "schedule", "what_if"},
                    w, line, "");
      !s.ok())
    return s;
  std::string program, trace, schedule;
  for (const auto& [key, out] : std::initializer_list<std::pair<const char*, std::string*>>{
           {"title", &step->title},
           {"caption", &step->caption},
           {"note", &step->note},
           {"lesson", &step->lesson},
           {"program", &program},
           {"trace", &trace},
           {"variant", &step->variant},
           {"backend", &step->backend},
           {"arrangement", &step->arrangement},
           {"schedule", &schedule},
           {"what_if", &step->what_if}}) {
    if (Status s = GetString(t, key, w, line, out); !s.ok()) return s;
  }
  if (step->title.empty()) return w.Error(&t, line, "title", "every step needs a title");
  const int sources = !step->lesson.empty() + !program.empty() + !trace.empty();
  if (sources != 1)
    return w.Error(&t, line, "lesson",
                   sources == 0 ? "a step needs one of lesson, program or trace"
                                : "give one of lesson, program or trace, not several");
  const LessonInfo* info = nullptr;
  if (Status s = ParseSource(t, lecture, w, line, program, trace, step, &info); !s.ok()) return s;
  if (!step->backend.empty() && step->backend != "emu" && step->backend != "cuda")
    return w.Error(t.get("backend"), line, "backend", "'" + step->backend + "' is not emu or cuda");
  if (step->backend.empty()) step->backend = lecture.backend;
  if (!schedule.empty()) {
    Result<Schedule> sc = ParseSchedule(schedule);
    if (!sc.ok()) return w.Error(t.get("schedule"), line, "schedule", sc.status().message());
    step->schedule = *sc;
  }
  if (Status s = GetParams(t.get("params"), info, w, line, "params", &step->params); !s.ok())
    return s;
  if (!step->trace.empty() && !step->params.empty())
    return w.Error(t.get("params"), line, "params",
                   "a trace is shown as captured; give a lesson to set parameters");

  if (const toml::node* n = t.get("panels")) {
    if (Status s = ParsePanels(*n, panel_ids, w, line, step); !s.ok()) return s;
  }
  if (!step->arrangement.empty() && std::find(std::begin(kArrangements), std::end(kArrangements),
                                              step->arrangement) == std::end(kArrangements))
    return w.Error(t.get("arrangement"), line, "arrangement",
                   "'" + step->arrangement + "' is not one of: single, columns, rows, main-side");

  if (const toml::node* n = t.get("select")) {
    if (Status s = ParseSelect(*n, w, line, step); !s.ok()) return s;
  }

  if (const toml::node* n = t.get("compare")) {
    if (Status s = ParseCompare(*n, info, w, line, step); !s.ok()) return s;
  }
  if (!step->what_if.empty()) {
    // Its array is named by the run, which only running finds; the form is checked here.
    if (Status f = CheckWhatIfForm(step->what_if); !f.ok())
      return w.Error(t.get("what_if"), line, "what_if", f.message());
    if (step->compare.on)
      return w.Error(
          t.get("what_if"), line, "what_if",
          "a what-if step compares the run as written with the what-if; leave out compare");
    if (!step->trace.empty())
      return w.Error(
          t.get("what_if"), line, "what_if",
          "give a lesson or program: a what-if step runs it, then re-addresses its records");
  }
  return Status();
}

}  // namespace

// [SECTION] The lecture file ----------------------------------------------------------------------

Result<Lecture> ParseLecture(std::string_view text, const std::filesystem::path& file,
                             const std::vector<std::string>& panel_ids) {
  const std::string name = file.filename().string();
  Result<toml::table> parsed = toml_fields::Parse(text, file, kMaxLectureBytes, "a lecture file");
  if (!parsed.ok()) return parsed.status();
  const toml::table& root = *parsed;
  Lecture lecture;
  lecture.file = file;
  const Where w(name, "");
  if (Status s = CheckKeys(root, {"title", "deck", "ui_scale", "backend", "step"}, w, 1, "");
      !s.ok())
    return s;
  if (Status s = GetString(root, "title", w, 1, &lecture.title); !s.ok()) return s;
  if (Status s = GetString(root, "deck", w, 1, &lecture.deck); !s.ok()) return s;
  if (Status s = GetString(root, "backend", w, 1, &lecture.backend); !s.ok()) return s;
  if (!lecture.backend.empty() && lecture.backend != "emu" && lecture.backend != "cuda")
    return w.Error(root.get("backend"), 1, "backend",
                   "'" + lecture.backend + "' is not emu or cuda");
  if (lecture.title.empty()) return w.Error(nullptr, 1, "title", "the lecture needs a title");
  if (const toml::node* n = root.get("ui_scale")) {
    if (!n->is_integer() || **n->as_integer() < 100 || **n->as_integer() > 300)
      return w.Error(n, 1, "ui_scale", "must be a whole number of percent from 100 to 300");
    lecture.ui_scale = static_cast<int>(**n->as_integer());
  }
  const toml::node* steps = root.get("step");
  const toml::array* a = steps != nullptr ? steps->as_array() : nullptr;
  if (a == nullptr || a->empty())
    return w.Error(steps, 1, "step", "the lecture has no steps (each begins with [[step]])");
  if (a->size() > kMaxLectureSteps)
    return w.Error(steps, 1, "step",
                   std::to_string(a->size()) + " steps is over the limit of " +
                       std::to_string(kMaxLectureSteps));
  for (std::size_t i = 0; i < a->size(); ++i) {
    const toml::table* t = (*a)[i].as_table();
    if (t == nullptr) return w.Error(&(*a)[i], 1, "step", "each step is a [[step]] table");
    LectureStep step;
    if (Status s = ParseStep(*t, lecture, i, panel_ids, &step); !s.ok()) return s;
    lecture.steps.push_back(std::move(step));
  }
  return lecture;
}

Result<Lecture> LoadLecture(const std::filesystem::path& file,
                            const std::vector<std::string>& panel_ids) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec) return Status::Error("cannot read the lecture " + file.string() + ": " + ec.message());
  if (size > kMaxLectureBytes)
    return Status::Error(file.string() + ": " + std::to_string(size) +
                         " bytes is over the limit of " + std::to_string(kMaxLectureBytes) +
                         " bytes for a lecture file");
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) return Status::Error("cannot read the lecture " + file.string());
  return ParseLecture(text.str(), file, panel_ids);
}

}  // namespace ws

#include "core/report.h"

#include <sstream>

namespace ws {

nlohmann::json LessonsJson() {
  nlohmann::json j = nlohmann::json::array();
  for (const LessonInfo& l : Lessons()) {
    nlohmann::json o = {{"id", l.id},
                        {"title", l.title},
                        {"kind", ToString(l.kind)},
                        {"explanation", l.explanation},
                        {"source_file", l.source_file}};
    for (const auto& v : l.variants)
      o["variants"].push_back({{"name", v.name}, {"summary", v.summary}});
    for (const auto& p : l.params) {
      o["params"].push_back({{"name", p.name},
                             {"default", p.default_value},
                             {"min", p.min},
                             {"max", p.max},
                             {"step", p.step},
                             {"meaning", p.meaning}});
    }
    for (const Preset& p : l.presets) {
      o["exercises"].push_back({{"name", p.name},
                                {"question", p.question},
                                {"variant", p.variant},
                                {"params", p.params},
                                {"schedule", p.schedule},
                                {"answer", p.answer}});
    }
    j.push_back(o);
  }
  return j;
}

std::string LessonsText() {
  std::ostringstream o;
  for (const LessonInfo& l : Lessons()) {
    o << l.id << " - " << l.title << "\n  variants:";
    for (const auto& v : l.variants) o << " " << v.name;
    o << "\n";
    for (const auto& p : l.params) {
      o << "  " << p.name << " = " << p.default_value << " (" << p.min << ".." << p.max;
      if (p.step != 1) o << " step " << p.step;
      o << "): " << p.meaning << "\n";
    }
    if (!l.presets.empty()) {
      o << "  exercises (run --exercise NAME):";
      for (const Preset& p : l.presets) o << " \"" << p.name << "\"";
      o << "\n";
    }
  }
  return o.str();
}

}  // namespace ws

#include "warpscope/trace/lesson_run.h"

#include <algorithm>

namespace ws {

const char* ToString(LessonKind k) {
  switch (k) {
    case LessonKind::kKernel:
      return "kernel";
    case LessonKind::kCalculator:
      return "calculator";
    case LessonKind::kModel:
      return "model";
    case LessonKind::kGpuOnly:
      return "gpu-only";
  }
  return "?";
}

const VariantSpec* LessonInfo::FindVariant(const std::string& name) const {
  auto it = std::find_if(variants.begin(), variants.end(),
                         [&](const VariantSpec& v) { return v.name == name; });
  return it == variants.end() ? nullptr : &*it;
}

Params LessonInfo::DefaultParams() const {
  Params p;
  for (const ParamSpec& spec : params) p[spec.name] = spec.default_value;
  return p;
}

Params LessonInfo::TimedParams(const Params& run) const {
  Params timed = run;
  for (const auto& [name, value] : timed_size.params) {
    auto it = timed.find(name);
    if (it != timed.end() && it->second < value) it->second = value;
  }
  return timed;
}

const ParamSpec* LessonInfo::FindParam(const std::string& name) const {
  auto it = std::find_if(params.begin(), params.end(),
                         [&](const ParamSpec& p) { return p.name == name; });
  return it == params.end() ? nullptr : &*it;
}

const Preset* LessonInfo::FindPreset(const std::string& name) const {
  auto it =
      std::find_if(presets.begin(), presets.end(), [&](const Preset& p) { return p.name == name; });
  return it == presets.end() ? nullptr : &*it;
}

Result<const Preset*> LessonInfo::FindExercise(const std::string& name) const {
  if (const Preset* p = FindPreset(name)) return p;
  std::string names;
  for (const Preset& p : presets) names += (names.empty() ? "" : ", ") + p.name;
  return Status::Error(id + " has no exercise '" + name + "'" +
                       (names.empty() ? "" : "; its exercises are: " + names));
}

const nlohmann::json& LessonRun::metrics() const {
  static const nlohmann::json empty = nlohmann::json::object();
  return figures != nullptr ? figures->json() : empty;
}

std::string_view LessonRun::source() const {
  if (program) return program->source;
  if (capture) return capture->source;
  return info != nullptr ? info->source : std::string_view();
}

std::string_view LessonRun::source_file() const {
  if (program) return program->file;
  if (capture) return capture->source_file;
  return info != nullptr ? std::string_view(info->source_file) : std::string_view();
}

Status CheckParam(const ParamSpec& spec, long long value) {
  if (value < spec.min || value > spec.max) {
    return Status::Error(spec.name + " = " + std::to_string(value) + " is outside its range " +
                         std::to_string(spec.min) + ".." + std::to_string(spec.max));
  }
  if (spec.step > 1 && (value - spec.min) % spec.step != 0) {
    return Status::Error(spec.name + " = " + std::to_string(value) + " must be " +
                         std::to_string(spec.min) + " plus a multiple of " +
                         std::to_string(spec.step));
  }
  return {};
}

std::vector<long long> SweepValues(const ParamSpec& spec, std::size_t max_points) {
  max_points = std::max<std::size_t>(max_points, 2);
  const long long step = std::max(1LL, spec.step);
  if (spec.max < spec.min) return {};
  const unsigned long long grid = static_cast<unsigned long long>(spec.max - spec.min) / step + 1;
  std::vector<long long> values;
  if (grid <= max_points) {
    for (long long v = spec.min; v <= spec.max; v += step) values.push_back(v);
    return values;
  }
  // Onto the grid, rounding down (min stays min).
  auto on_grid = [&](long long v) { return spec.min + (v - spec.min) / step * step; };
  if (spec.min > 0 && spec.max / spec.min >= 16) {
    for (long long v = spec.min; v < spec.max && values.size() + 1 < max_points; v *= 2) {
      const long long g = on_grid(v);
      if (values.empty() || g > values.back()) values.push_back(g);
    }
  } else {
    for (std::size_t i = 0; i + 1 < max_points; ++i) {
      const long double f = static_cast<long double>(i) / static_cast<long double>(max_points - 1);
      const long long g = on_grid(
          spec.min + static_cast<long long>(f * static_cast<long double>(spec.max - spec.min)));
      if (values.empty() || g > values.back()) values.push_back(g);
    }
  }
  const long long last = on_grid(spec.max);
  if (values.empty() || last > values.back()) values.push_back(last);
  return values;
}

std::string_view SourceLineAsWritten(std::string_view source, std::uint32_t line) {
  std::size_t start = 0;
  for (std::uint32_t l = 1; l < line && start != std::string_view::npos; ++l) {
    start = source.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos || start >= source.size()) return {};
  const std::size_t end = source.find('\n', start);
  return source.substr(start, end == std::string_view::npos ? source.size() - start : end - start);
}

std::string SourceLine(std::string_view source, std::uint32_t line) {
  const std::string_view text = SourceLineAsWritten(source, line);
  const auto b = text.find_first_not_of(" \t");
  const auto e = text.find_last_not_of(" \t\r");
  return b == std::string_view::npos ? std::string() : std::string(text.substr(b, e - b + 1));
}

}  // namespace ws

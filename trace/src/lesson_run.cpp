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

const ParamSpec* LessonInfo::FindParam(const std::string& name) const {
  auto it = std::find_if(params.begin(), params.end(),
                         [&](const ParamSpec& p) { return p.name == name; });
  return it == params.end() ? nullptr : &*it;
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

std::string SourceLine(std::string_view source, std::uint32_t line) {
  std::size_t start = 0;
  for (std::uint32_t l = 1; l < line && start != std::string_view::npos; ++l) {
    start = source.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos || start >= source.size()) return {};
  std::size_t end = source.find('\n', start);
  std::string_view text =
      source.substr(start, end == std::string_view::npos ? source.size() - start : end - start);
  const auto b = text.find_first_not_of(" \t");
  const auto e = text.find_last_not_of(" \t\r");
  return b == std::string_view::npos ? std::string() : std::string(text.substr(b, e - b + 1));
}

}  // namespace ws

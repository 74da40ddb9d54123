#include "core/settings.h"

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "warpscope/trace/file_io.h"

namespace ws {
namespace {

std::filesystem::path EnvPath(const char* name) {
  const char* v = std::getenv(name);
  return (v != nullptr && *v != '\0') ? std::filesystem::path(v) : std::filesystem::path();
}

std::filesystem::path Home() {
  auto home = EnvPath("HOME");
  return home.empty() ? std::filesystem::path("/tmp") : home;
}

constexpr const char* kFileName = "settings.json";

}  // namespace

std::filesystem::path ConfigDir() {
  if (auto d = EnvPath("WARPSCOPE_CONFIG_DIR"); !d.empty()) return d;
  if (auto d = EnvPath("XDG_CONFIG_HOME"); !d.empty()) return d / "warpscope";
  return Home() / ".config" / "warpscope";
}

std::filesystem::path DefaultScreenshotDir() {
  if (auto d = EnvPath("XDG_PICTURES_DIR"); !d.empty()) return d / "Warpscope";
  return Home() / "Pictures" / "Warpscope";
}

std::string ClampUiScale(int* percent) {
  const int v = *percent;
  if (v < Settings::kMinUiScalePercent || v > Settings::kMaxUiScalePercent) {
    *percent = v < Settings::kMinUiScalePercent ? Settings::kMinUiScalePercent
                                                : Settings::kMaxUiScalePercent;
    return "UI scale " + std::to_string(v) + " % is outside 100-300 %; using " +
           std::to_string(*percent) + " %";
  }
  return {};
}

Settings LoadSettings(const std::filesystem::path& dir, std::string* warning) {
  Settings s;
  warning->clear();
  const auto path = dir / kFileName;
  std::ifstream in(path);
  if (!in) return s;  // first run
  nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    *warning = path.string() + " is not valid JSON; using the default settings";
    return s;
  }
  std::string problems;
  if (auto it = j.find("ui_scale_percent"); it != j.end()) {
    if (it->is_number_integer()) {
      s.ui_scale_percent = it->get<int>();
      problems += ClampUiScale(&s.ui_scale_percent);
    } else {
      problems += "ui_scale_percent must be a whole number of percent; ";
    }
  }
  if (auto it = j.find("export_2x"); it != j.end()) {
    if (it->is_boolean())
      s.export_2x = it->get<bool>();
    else
      problems += "export_2x must be true or false; ";
  }
  if (auto it = j.find("screenshot_dir"); it != j.end()) {
    if (it->is_string())
      s.screenshot_dir = it->get<std::string>();
    else
      problems += "screenshot_dir must be a string; ";
  }
  if (auto it = j.find("light_theme"); it != j.end()) {
    if (it->is_boolean())
      s.light_theme = it->get<bool>();
    else
      problems += "light_theme must be true or false; ";
  }
  // The last lesson: checked against the catalogue when it is used, not here.
  for (const char* key : {"lesson", "variant", "backend"}) {
    if (auto it = j.find(key); it != j.end()) {
      if (it->is_string())
        (key[0] == 'l' ? s.lesson : key[0] == 'v' ? s.variant : s.backend) = it->get<std::string>();
      else
        problems += std::string(key) + " must be a string; ";
    }
  }
  if (auto it = j.find("params"); it != j.end()) {
    if (it->is_object()) {
      for (auto p = it->begin(); p != it->end(); ++p) {
        if (p->is_number_integer())
          s.params[p.key()] = p->get<long long>();
        else
          problems += "params." + p.key() + " must be a whole number; ";
      }
    } else {
      problems += "params must be an object; ";
    }
  }
  if (!problems.empty()) *warning = path.string() + ": " + problems;
  return s;
}

Status SaveSettings(const std::filesystem::path& dir, const Settings& s) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return Status::Error("cannot create the settings folder " + dir.string() + ": " + ec.message());
  nlohmann::json j = {{"ui_scale_percent", s.ui_scale_percent},
                      {"export_2x", s.export_2x},
                      {"screenshot_dir", s.screenshot_dir.string()},
                      {"light_theme", s.light_theme},
                      {"lesson", s.lesson},
                      {"variant", s.variant},
                      {"backend", s.backend},
                      {"params", s.params}};
  return WriteFileAtomically(dir / kFileName, j.dump(2) + "\n");
}

std::string ScreenshotFileName(const std::string& panel_id, std::time_t when) {
  std::tm tm{};
  localtime_r(&when, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  std::ostringstream name;
  name << "warpscope-";
  if (!panel_id.empty()) name << panel_id << "-";
  name << stamp << ".png";
  return name.str();
}

}  // namespace ws

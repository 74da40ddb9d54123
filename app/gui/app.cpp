// The desktop app's start (see app.h): the window and ImGui, the panels asked for, a lecture or
// the first run; the frame loop is in app_loop.cpp.
#include "gui/app.h"
#include "gui/goals_panel.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <implot.h>

#include <iostream>

#include "gui/app_loop.h"
#include "gui/bench_mode.h"
#include "gui/gl_window.h"
#include "gui/lecture_mode.h"
#include "gui/lecture_walk.h"
#include "gui/lesson_panel.h"
#include "gui/theme.h"
#include "gui/ui.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/viz/source_panel.h"

namespace ws {
namespace {

ImGuiKey KeyByName(const std::string& name) {
  for (int k = ImGuiKey_NamedKey_BEGIN; k < ImGuiKey_NamedKey_END; ++k) {
    if (name == ImGui::GetKeyName(static_cast<ImGuiKey>(k))) return static_cast<ImGuiKey>(k);
  }
  return ImGuiKey_None;
}

void ShutDownImGui() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImPlot::DestroyContext();
  ImGui::DestroyContext();
}

// --panel and --focus name panels that exist. Returns 0, else 2 (and says which are).
int CheckPanels(const AppOptions& opt, Ui& ui) {
  if (!opt.panel.empty() && ui.FindPanel(opt.panel) == nullptr) {
    std::cerr << "warpscope: unknown panel '" << opt.panel << "'; panels are: " << ui.PanelIds()
              << "\n";
    return 2;
  }
  // A what-if's form is checked now (exit 2); its names, once the run is there (the views say
  // why when it cannot be applied).
  if (!opt.what_if.empty()) {
    if (Status s = CheckWhatIfForm(opt.what_if); !s.ok()) {
      std::cerr << "warpscope: --what-if: " << s.message() << "\n";
      return 2;
    }
  }
  ui.session().what_if = opt.what_if;
  if (!opt.focus.empty() && ui.FindPanel(opt.focus) == nullptr) {
    std::cerr << "warpscope: unknown panel '" << opt.focus << "'; panels are: " << ui.PanelIds()
              << "\n";
    return 2;
  }
  return 0;
}

// Presentation mode: loads the lecture, takes its UI scale, hands the lecture bar and notes to
// the UI, and (for --export and --walk-json) makes the walk that presses the keys. Returns 0, or
// the exit code after saying why not.
int StartLecture(const AppOptions& opt, Ui& ui, Settings& settings, GLFWwindow* win, int* ui_scale,
                 std::unique_ptr<LecturePlayer>* player, std::unique_ptr<LectureWalk>* walk) {
  std::vector<std::string> ids;
  for (const auto& p : ui.panels()) ids.push_back(p->id());
  auto lecture = LoadLecture(opt.lecture, ids);
  if (!lecture.ok()) {
    std::cerr << "warpscope: " << lecture.status().message() << "\n";
    return 2;
  }
  if (opt.lecture_step < 1 || opt.lecture_step > static_cast<int>(lecture->steps.size())) {
    std::cerr << "warpscope: --step " << opt.lecture_step << " is not a step of "
              << opt.lecture.filename().string() << " (it has " << lecture->steps.size() << ")\n";
    return 2;
  }
  // Presentation: the lecture's UI scale (175 % unless it says), unless --ui-scale; the
  // notes export keeps the scale of the window it is drawn in.
  if (!opt.ui_scale && opt.export_dir.empty()) {
    *ui_scale = lecture->ui_scale > 0 ? lecture->ui_scale : 175;
    theme::Apply(*ui_scale, settings.light_theme);
    ui.SetUiScaleInEffect(*ui_scale);
  }
  *player = std::make_unique<LecturePlayer>(std::move(lecture).value(), &ui);
  LecturePlayer* pl = player->get();
  // The scripted walk presses the same keys a teacher does.
  ui.SetLectureMode(
      [pl] {
        pl->HandleKeys();
        pl->Update();
        pl->DrawBar();
      },
      [pl] { pl->DrawNote(); });
  if (!opt.export_dir.empty() || !opt.walk_json.empty()) {
    if (!opt.export_dir.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(opt.export_dir, ec);
      if (ec) {
        std::cerr << "warpscope: cannot create " << opt.export_dir.string() << ": " << ec.message()
                  << "\n";
        return 1;
      }
    }
    *walk = std::make_unique<LectureWalk>(pl, &ui, opt.export_dir);
  } else if (!opt.windowed && opt.frames == 0) {
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
      const GLFWvidmode* mode = glfwGetVideoMode(monitor);
      glfwSetWindowMonitor(win, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    }
  }
  (*player)->Go(opt.lecture_step - 1);
  return 0;
}

// The first run without a lecture: the trace or program file, the lesson asked for, or the last
// lesson. Returns 0, else 2 after saying why.
int StartFirstRun(const AppOptions& opt, Ui& ui, const Settings& settings) {
  if (!opt.trace_file.empty()) {
    ui.SetProgramIncludes(opt.include_dirs);
    // A program's -D, --arg, --timeout and --backend, before it first runs (main.cpp checked them).
    const bool program = opt.trace_file.extension() != ".wstrace";
    if (std::string err = program ? ui.SetProgramRunOptions(opt.defines, opt.program_args,
                                                            opt.program_timeout_s, opt.backend)
                                  : "";
        !err.empty()) {
      std::cerr << "warpscope: " << err << "\n";
      return 2;
    }
    if (std::string err = ui.OpenFile(opt.trace_file.string()); !err.empty()) {
      std::cerr << "warpscope: " << err << "\n";
      return 2;
    }
    for (const auto& [name, value] : opt.sets) {  // a program's sliders (main.cpp checked)
      if (std::string err = ui.SetParam(name, value); !err.empty()) {
        std::cerr << "warpscope: --set " << err << "\n";
        return 2;
      }
    }
  } else if (!opt.lesson.empty()) {
    if (std::string err = ui.SelectLesson(opt.lesson, opt.variant, opt.sets, opt.backend);
        !err.empty()) {
      std::cerr << "warpscope: " << err << "\n";
      return 2;
    }
    if (std::string err = opt.exercise.empty() ? "" : ui.SelectExercise(opt.exercise);
        !err.empty()) {
      std::cerr << "warpscope: --exercise: " << err << "\n";
      return 2;
    }
  } else {
    // The last lesson and its parameters; if they no longer fit the catalogue, the defaults.
    std::string err = settings.lesson.empty() ? "none"
                                              : ui.SelectLesson(settings.lesson, settings.variant,
                                                                settings.params, opt.backend);
    if (!err.empty()) {
      if (err != "none") std::cerr << "warpscope: not restoring the last lesson (" << err << ")\n";
      if (err = ui.SelectLesson(FirstLesson().id, "", {}, opt.backend); !err.empty()) {
        std::cerr << "warpscope: " << err << "\n";
        return 2;
      }
    }
  }
  return 0;
}

}  // namespace

int RunApp(const AppOptions& opt) {
  const std::filesystem::path config_dir = opt.config_dir.empty() ? ConfigDir() : opt.config_dir;
  std::string warning;
  Settings settings = LoadSettings(config_dir, &warning);
  if (!warning.empty()) std::cerr << "warpscope: " << warning << "\n";
  if (!opt.screenshot_dir.empty()) settings.screenshot_dir = opt.screenshot_dir;
  int ui_scale = settings.ui_scale_percent;
  if (opt.ui_scale) {
    ui_scale = *opt.ui_scale;
    if (std::string msg = ClampUiScale(&ui_scale); !msg.empty()) {
      std::cerr << "warpscope: " << msg << "\n";
      return 2;
    }
  }

  auto window = GlWindow::Create(opt.width, opt.height, "Warpscope");
  if (!window) {
    std::cerr << window.status().message() << "\n";
    return 1;
  }
  GLFWwindow* win = (*window)->handle();

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImPlot::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.ConfigFlags |= ImGuiConfigFlags_DockingEnable | ImGuiConfigFlags_NavEnableKeyboard;
  const std::string ini_path = (config_dir / "imgui.ini").string();
  std::error_code ec;
  std::filesystem::create_directories(config_dir, ec);
  // A lecture lays its own panels out: the teacher's own layout is left as it was.
  io.IniFilename = ec || !opt.lecture.empty() ? nullptr : ini_path.c_str();
  // Exports and scripted frames (tests, screenshots) draw with an atlas that never grows, so that
  // which frame first drew which text does not move a pixel (theme.cpp).
  const theme::Fonts fonts = theme::LoadFonts(!opt.export_dir.empty() || opt.frames > 0);
  SetCodeFont(fonts.mono);
  theme::Apply(ui_scale, settings.light_theme);
  ImGui_ImplGlfw_InitForOpenGL(win, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  const bool scripted = opt.frames > 0 || !opt.export_dir.empty() || !opt.walk_json.empty();
  // A finished run wakes the frame loop (WaitForFrame), until the window goes.
  SetRunFinishedHook([] { glfwPostEmptyEvent(); });
  struct Unhook {
    ~Unhook() { SetRunFinishedHook(nullptr); }
  } unhook;
  Ui ui(&settings, config_dir, QueryDevices(), (*window)->gl());
  ui.SetUiScaleInEffect(ui_scale);
  AppOptions first = opt;
  if (!opt.assignment.empty()) {
    // The Goals panel in front, and the assignment's own program unless one was given.
    auto a = LoadAssignment(opt.assignment);
    if (!a.ok()) {
      std::cerr << "warpscope: " << a.status().message() << "\n";
      return 2;
    }
    if (first.trace_file.empty()) first.trace_file = a->start;
    ui.AddPanel(std::make_unique<GoalsPanel>(&ui.session(), std::move(*a)));
    if (first.focus.empty()) first.focus = "goals";
  }
  if (int rc = CheckPanels(first, ui); rc != 0) return rc;
  std::unique_ptr<LecturePlayer> player;
  std::unique_ptr<LectureWalk> walk;
  ui.SetSchedule(opt.schedule);  // before the first run
  const int start = !opt.lecture.empty()
                        ? StartLecture(opt, ui, settings, win, &ui_scale, &player, &walk)
                        : StartFirstRun(first, ui, settings);
  if (start != 0) return start;
  if (opt.frames > 0 && !ui.WaitForRun(120)) {
    std::cerr << "warpscope: the lesson run took over 120 s\n";
    return 1;
  }
  if (!opt.bench_json.empty()) {
    const int rc = opt.bench_edit.empty()
                       ? RunBenchMode(ui, win, opt.bench_json)
                       : RunEditBench(ui, win, opt.bench_edit, opt.bench_json, opt.bench_reps);
    ShutDownImGui();
    return rc;
  }
  std::vector<std::pair<ImGuiKey, int>> presses;
  for (const KeyPress& kp : opt.presses) {
    const ImGuiKey key = KeyByName(kp.key);
    if (key == ImGuiKey_None) {
      std::cerr << "warpscope: unknown key '" << kp.key << "' (use ImGui key names such as F12)\n";
      return 2;
    }
    presses.emplace_back(key, kp.frame);
  }

  AppLoop loop{first,      ui,       settings,           win, io, player.get(),
               walk.get(), scripted, std::move(presses), {}};
  const int exit_code = RunFrameLoop(loop);
  ShutDownImGui();
  return exit_code;
}

}  // namespace ws

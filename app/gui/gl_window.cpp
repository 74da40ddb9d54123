#include "gui/gl_window.h"

#include <glad/gl.h>
// glad first: it provides the GL declarations, so GLFW must not include the system GL header.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdlib>
#include <string>

namespace ws {
namespace {

std::string g_last_glfw_error;
int g_last_glfw_code = 0;

void OnGlfwError(int code, const char* description) {
  g_last_glfw_code = code;
  g_last_glfw_error = description != nullptr ? description : "unknown GLFW error";
}

bool EnvSet(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

constexpr const char* kNoDisplayHint =
    " To render without a display, run it under Xvfb: "
    "xvfb-run -a warpscope --screenshot out.png";

// When a 3.3 core context is refused, ask for any context to learn what the display offers.
std::string OfferedGlVersion() {
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  GLFWwindow* probe = glfwCreateWindow(64, 64, "probe", nullptr, nullptr);
  if (probe == nullptr)
    return "none (no OpenGL context could be created: " + g_last_glfw_error + ")";
  glfwMakeContextCurrent(probe);
  using GetString = const unsigned char* (*)(unsigned int);
  auto get = reinterpret_cast<GetString>(glfwGetProcAddress("glGetString"));
  std::string offered = "unknown";
  if (get != nullptr) {
    const unsigned char* v = get(GL_VERSION);
    const unsigned char* r = get(GL_RENDERER);
    offered = std::string(v ? reinterpret_cast<const char*>(v) : "?") + " (renderer " +
              (r ? reinterpret_cast<const char*>(r) : "?") + ")";
  }
  glfwMakeContextCurrent(nullptr);
  glfwDestroyWindow(probe);
  return offered;
}

}  // namespace

Result<std::unique_ptr<GlWindow>> GlWindow::Create(int width, int height,
                                                   const std::string& title) {
  glfwSetErrorCallback(OnGlfwError);
  if (!EnvSet("DISPLAY") && !EnvSet("WAYLAND_DISPLAY")) {
    return Status::Error(
        std::string("warpscope needs a display, and none is set (DISPLAY is empty).") +
        kNoDisplayHint);
  }
  if (glfwInit() != GLFW_TRUE) {
    return Status::Error("warpscope needs a display and could not open one (" + g_last_glfw_error +
                         ")." + kNoDisplayHint);
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_DOUBLEBUFFER, GLFW_TRUE);
  // X11's WM_CLASS, which the desktop entry names (StartupWMClass=warpscope), so that a dock
  // groups the window under Warpscope's icon.
  glfwWindowHintString(GLFW_X11_CLASS_NAME, "warpscope");
  glfwWindowHintString(GLFW_X11_INSTANCE_NAME, "warpscope");
  GLFWwindow* window = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (window == nullptr) {
    const std::string why = g_last_glfw_error;
    const std::string offered = OfferedGlVersion();
    glfwTerminate();
    return Status::Error("warpscope needs OpenGL 3.3 (core profile); this display offers OpenGL " +
                         offered + ". GLFW said: " + why);
  }
  glfwMakeContextCurrent(window);
  const int version = gladLoadGL(glfwGetProcAddress);
  const int major = GLAD_VERSION_MAJOR(version), minor = GLAD_VERSION_MINOR(version);
  if (version == 0 || major * 10 + minor < 33) {
    glfwDestroyWindow(window);
    glfwTerminate();
    return Status::Error("warpscope needs OpenGL 3.3; the context it got is OpenGL " +
                         std::to_string(major) + "." + std::to_string(minor));
  }
  glfwSwapInterval(1);

  std::unique_ptr<GlWindow> w(new GlWindow());
  w->window_ = window;
  w->gl_.version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  w->gl_.renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return w;
}

GlWindow::~GlWindow() {
  if (window_ != nullptr) glfwDestroyWindow(window_);
  glfwTerminate();
}

}  // namespace ws

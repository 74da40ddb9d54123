// `warpscope --bench-json FILE`: the visualizer's benchmark (bench/view_bench.sh runs it under
// xvfb-run). For every lesson it moves a slider as a user would and times how long until a frame
// showing the new run is finished; then it times frames of the grid view with 256K threads.
#pragma once

#include <filesystem>

struct GLFWwindow;

namespace ws {

class Ui;
int RunBenchMode(Ui& ui, GLFWwindow* window, const std::filesystem::path& out);

}  // namespace ws

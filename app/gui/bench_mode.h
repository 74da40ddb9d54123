// `warpscope --bench-json FILE`: the visualizer's benchmark (bench/view_bench.sh runs it under
// xvfb-run). For every lesson it moves a slider as a user would and times how long until a frame
// showing the new run is finished; then it times frames of the grid view with 256K threads.
#pragma once

#include <filesystem>

struct GLFWwindow;

namespace ws {

class Ui;
int RunBenchMode(Ui& ui, GLFWwindow* window, const std::filesystem::path& out);

// `warpscope --bench-edit PROGRAM.cu --bench-json FILE`: save-to-redraw for a user's program
// (bench/edit_bench.sh). The program is copied to a temporary folder and opened; then `reps`
// times its copy is saved with one comment changed (so nothing can come from a cache, as after a
// real edit) and the time from the save to the end of the first frame showing the new run is
// taken. The file is found by the app's own watch on it, as in use.
int RunEditBench(Ui& ui, GLFWwindow* window, const std::filesystem::path& program,
                 const std::filesystem::path& out, int reps);

}  // namespace ws

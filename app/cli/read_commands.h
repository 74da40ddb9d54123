// warpscope-cli's commands that only read (no lesson or program runs): the backends, a layout's
// memory order, a trace file's run. Each prints to stdout and returns the exit status.
#pragma once

#include <string>

namespace ws::cli {

// `devices`: the CPU emulator and the CUDA GPUs.
int ListDevices(bool as_json);
// `layout`: which pixel each memory position holds, in memory order.
int LayoutCommand(const std::string& kind, int width, int height, int tile_w, int tile_h,
                  int micro_w, int micro_h, bool json);
// `show`: a trace file's run as `run` prints it, and the command that runs it again.
int ShowCommand(const std::string& path, bool json, bool every_launch = false);

}  // namespace ws::cli

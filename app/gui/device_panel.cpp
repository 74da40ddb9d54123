#include "gui/device_panel.h"

#include <imgui.h>

#include <string>

namespace ws {
namespace {

void Row(const char* name, const std::string& value) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", name);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(value.c_str());
}

std::string Mib(std::size_t bytes) {
  return std::to_string(bytes / (1024 * 1024)) + " MiB";
}
std::string Kib(std::size_t bytes) {
  return std::to_string(bytes / 1024) + " KiB";
}

void GpuTable(const char* id, const GpuDevice& g) {
  if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  Row("compute capability", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor));
  Row("multiprocessors", std::to_string(g.multiprocessors));
  Row("warp size", std::to_string(g.warp_size));
  Row("threads per block", std::to_string(g.max_threads_per_block));
  Row("threads per multiprocessor", std::to_string(g.max_threads_per_multiprocessor));
  Row("blocks per multiprocessor", std::to_string(g.max_blocks_per_multiprocessor));
  Row("registers per multiprocessor", std::to_string(g.registers_per_multiprocessor));
  Row("shared memory per block", Kib(g.shared_mem_per_block));
  Row("shared memory per multiprocessor", Kib(g.shared_mem_per_multiprocessor));
  Row("global memory", Mib(g.global_mem));
  Row("memory bus", std::to_string(g.memory_bus_width_bits) + " bits");
  ImGui::EndTable();
}

}  // namespace

DevicePanel::DevicePanel(Session* session, const DeviceQuery& devices, LessonPanel* lessons)
    : Panel("device", "Device"), session_(session), devices_(devices), lessons_(lessons) {
  // It shares a dock node with the lesson panel, which should be the tab in front at start.
  extra_window_flags_ = ImGuiWindowFlags_NoFocusOnAppearing;
}

Panel::State DevicePanel::Shown() const {
  State st = {{"cuda_built", devices_.cuda_built ? "true" : "false"},
              {"gpus_here", std::to_string(devices_.gpus.size())}};
  if (session_->run && session_->run->capture) {
    st.emplace_back("captured_on", session_->run->device);
    st.emplace_back("captured_at", session_->run->capture->captured_at);
    const nlohmann::json& gpu = session_->run->capture->gpu;
    st.emplace_back("captured_properties", std::to_string(gpu.is_object() ? gpu.size() : 0));
  }
  return st;
}

void DevicePanel::DrawContents() {
  if (session_->run && session_->run->capture) {
    const LessonRun::Capture& c = *session_->run->capture;
    ImGui::Text("This trace was captured %s", c.captured_at.c_str());
    ImGui::TextWrapped("on %s", session_->run->device.c_str());
    if (c.gpu.is_object() && ImGui::BeginTable("##captured", 2, ImGuiTableFlags_RowBg)) {
      for (auto it = c.gpu.begin(); it != c.gpu.end(); ++it) {
        Row(it.key().c_str(), it->is_string() ? it->get<std::string>() : it->dump());
      }
      ImGui::EndTable();
    }
    ImGui::Separator();
  }
  ImGui::Text("This machine: CUDA runner %s", devices_.cuda_built ? "built in" : "not built");
  if (devices_.gpus.empty()) {
    ImGui::TextWrapped("No GPU: %s Lessons run on the CPU emulator.", devices_.why_no_gpu.c_str());
    return;
  }
  for (const GpuDevice& g : devices_.gpus) {
    ImGui::PushID(g.index);
    const std::string label = "GPU " + std::to_string(g.index) + ": " + g.name;
    if (ImGui::RadioButton(label.c_str(), lessons_->gpu_index() == g.index))
      lessons_->SetGpuIndex(g.index);
    ImGui::SetItemTooltip("Run lessons on this GPU (when the GPU backend is chosen)");
    GpuTable("##props", g);
    ImGui::PopID();
  }
}

}  // namespace ws

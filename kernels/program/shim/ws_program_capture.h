// Stream capture as a launch sees it, on both roads (ws_program_graphs.h on the emulator,
// ws_program_cuda_api.h on a GPU; cuda_graphs.cpp runs it): a launch on a capturing stream
// becomes a node of its graph, and a kernel's arguments given as pointers (cudaLaunchKernel, a
// kernel node) are bound to copies through the kernels' table (WS_BIND_OF).
#pragma once

#include <functional>

namespace ws::prog {
// A launch's configuration, its stream included (a capturing stream's launch becomes a node).
struct Config;
// A kernel bound to copies of its arguments: run with a configuration and the launch's line.
using BoundLaunch = std::function<void(const Config&, unsigned int)>;
using Binder = BoundLaunch (*)(const void* kernel, void** args);
// Is `stream` capturing? Then a launch on it (`run`, its arguments copied) becomes a kernel node
// of its graph, named `name`.
bool Capturing(cudaStream_t stream);
void CaptureLaunch(cudaStream_t stream, const char* name, std::function<void()> run);
// Which graph and node the running launch came from ("" outside a graph's launch).
const char* LaunchOrigin();
namespace detail {
// True where `stream` is capturing and the call became part of its graph (an event's record, a
// stream joining by its wait, a copy or fill as a node named `what`: "memcpy" or "memset").
bool CaptureEventRecord(cudaEvent_t event, cudaStream_t stream);
bool CaptureWaitEvent(cudaStream_t stream, cudaEvent_t event);
bool CaptureCopy(cudaStream_t stream, const char* what, std::function<cudaError_t()> run);
}  // namespace detail
}  // namespace ws::prog

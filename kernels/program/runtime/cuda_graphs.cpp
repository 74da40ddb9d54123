// CUDA graphs on both roads (ws_program_graph_calls.h): libws_program_emu's cudaGraph* calls, and
// on a GPU libws_program_cuda's ws::prog::gpu::cudaGraph*, which the program's calls are macros to
// (ws_program_cuda_host.h): the driver never sees the graph, and each of its kernels runs through
// the recorded launch as any other (WS_GRAPHS_GPU, set for that library). A graph is a list of
// nodes, each a closure that does its work (a launch bound to copies of its arguments, a copy, a
// fill, a host function) and the nodes it depends on. Stream capture gives each capturing stream a
// tail (the nodes its next operation depends on): an event recorded there keeps the tail, a stream
// that waits on it joins the capture with that tail, and cudaStreamEndCapture hands the graph over.
// cudaGraphInstantiate orders the nodes (each after its dependencies, ties by the order they
// were made: a captured graph runs in program order); cudaGraphLaunch runs them at once, as the
// emulator runs every stream's work, each launch saying its graph and node.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuda_graphs_road.h"

struct CUgraphNode_st {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  std::string what;                      // "kernel reduce", "memcpy", ...
  std::function<cudaError_t()> run;      // null for an empty node
  std::vector<CUgraphNode_st*> depends;  // nodes of the same graph
  std::size_t index = 0;                 // in the order made
  std::vector<std::size_t> from;         // in an instantiated graph: its dependencies' indices
};
struct CUgraph_st {
  int id = 0;
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
};
struct CUgraphExec_st {
  int id = 0;  // the graph's
  std::vector<CUgraphNode_st> order;
};
#if !defined(WS_GRAPHS_GPU)
struct WsStream {
  int id = 0;
};
#endif

namespace {

using ws::prog::detail::Fail;

// What a capturing stream gives its next node: its capture and the nodes it depends on.
struct Tail {
  CUgraph_st* graph = nullptr;
  cudaStream_t origin = nullptr;  // the stream the capture began in
  std::vector<CUgraphNode_st*> nodes;
};

struct Graphs {
  std::mutex mutex;
  int next_graph = 0, next_stream = 0;
  std::map<cudaStream_t, Tail> capturing;
  std::map<cudaEvent_t, Tail> events;  // an event recorded in a capture: its graph and nodes
};
Graphs& G() {
  static auto* g = new Graphs();  // never destroyed: a program's exit may still use it
  return *g;
}
thread_local std::string t_origin;

bool Special(cudaStream_t s) {
  return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread;
}

CUgraphNode_st* AddNode(CUgraph_st* graph, cudaGraphNodeType type, std::string what,
                        std::function<cudaError_t()> run, const cudaGraphNode_t* depends,
                        std::size_t count) {
  auto node = std::make_unique<CUgraphNode_st>();
  node->type = type;
  node->what = std::move(what);
  node->run = std::move(run);
  node->index = graph->nodes.size();
  for (std::size_t i = 0; i < count; ++i) node->depends.push_back(depends[i]);
  graph->nodes.push_back(std::move(node));
  return graph->nodes.back().get();
}

// `stream`'s operation `run` becomes a node of its capture (true), or runs now (false).
bool Captured(cudaStream_t stream, cudaGraphNodeType type, std::string what,
              std::function<cudaError_t()> run) {
  Graphs& g = G();
  std::lock_guard lock(g.mutex);
  auto it = g.capturing.find(stream);
  if (it == g.capturing.end()) return false;
  Tail& tail = it->second;
  CUgraphNode_st* node = AddNode(tail.graph, type, std::move(what), std::move(run),
                                 tail.nodes.data(), tail.nodes.size());
  tail.nodes = {node};
  return true;
}

#if defined(WS_GRAPHS_GPU)
constexpr cudaMemcpyKind kFillKind = cudaMemcpyDefault;  // the destination may be host memory
#else
constexpr cudaMemcpyKind kFillKind = cudaMemcpyHostToDevice;  // checked: inside one buffer
#endif
// Fills `height` rows of `width` elements of `size` bytes (1, 2 or 4), `pitch` bytes apart: each
// row copied from the host (on the emulator cudaMemcpy checks it lies in one buffer).
cudaError_t Fill(const cudaMemsetParams& p) {
  if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4)
    return Fail(cudaErrorInvalidValue, "a memset node's elementSize is " +
                                           std::to_string(p.elementSize) + " (1, 2 or 4 bytes)");
  const std::size_t row = p.width * p.elementSize;
  const std::size_t pitch = p.height > 1 ? p.pitch : row;
  std::vector<unsigned char> bytes(row);
  for (std::size_t k = 0; k < p.width; ++k)
    std::memcpy(&bytes[k * p.elementSize], &p.value, p.elementSize);  // little-endian: low bytes
  for (std::size_t r = 0; r < p.height; ++r) {
    if (cudaError_t e = cudaMemcpy(static_cast<unsigned char*>(p.dst) + r * pitch, bytes.data(),
                                   row, kFillKind);
        e != cudaSuccess)
      return e;
  }
  return cudaSuccess;
}

// A kernel node's launch, bound to copies of its arguments now (as CUDA copies them), in `run`;
// `call` names the API call for the message where the function is none of the program's kernels.
cudaError_t KernelNodeRun(const char* call, const cudaKernelNodeParams* p,
                          std::function<cudaError_t()>* run) {
  if (p == nullptr) return cudaErrorInvalidValue;
  const auto bind = reinterpret_cast<ws::prog::Binder>(ws::prog::KernelBindAt(p->func));
  if (bind == nullptr)
    return Fail(cudaErrorInvalidDeviceFunction,
                std::string(call) +
                    ": the function is not one of the program's kernels the rewriter could bind");
  const ws::prog::BoundLaunch launch = bind(p->func, p->kernelParams);
  const ws::prog::Config config(p->ws_user_gridDim, p->ws_user_blockDim, p->sharedMemBytes, 0);
  *run = [launch, config]() -> cudaError_t {
    launch(config, 0);
    return cudaSuccess;
  };
  return cudaSuccess;
}
std::string KernelNodeWhat(const cudaKernelNodeParams* p) {
  return std::string("kernel ") + ws::prog::KernelNameAt(p->func, "?");
}
// The indices of the nodes `node` depends on, in order (an instantiated graph keeps them: from).
std::vector<std::size_t> DependencyIndices(const CUgraphNode_st& node) {
  std::vector<std::size_t> from;
  for (const CUgraphNode_st* d : node.depends) from.push_back(d->index);
  std::sort(from.begin(), from.end());
  return from;
}

}  // namespace

namespace ws::prog {

bool Capturing(cudaStream_t stream) {
  Graphs& g = G();
  std::lock_guard lock(g.mutex);
  return g.capturing.count(stream) > 0;
}

void CaptureLaunch(cudaStream_t stream, const char* name, std::function<void()> run) {
  auto call = [run = std::move(run)]() -> cudaError_t {
    run();
    return cudaSuccess;
  };
  if (!Captured(stream, cudaGraphNodeTypeKernel, std::string("kernel ") + name, call)) call();
}

const char* LaunchOrigin() {
  return t_origin.c_str();
}

}  // namespace ws::prog

// ------------------------------------------------------------------------------------------------
// Streams and capture.
// ------------------------------------------------------------------------------------------------

#if !defined(WS_GRAPHS_GPU)
cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  if (stream == nullptr) return cudaErrorInvalidValue;
  Graphs& g = G();
  std::lock_guard lock(g.mutex);
  *stream = new WsStream{++g.next_stream};
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (!Special(stream)) {
    Graphs& g = G();
    std::lock_guard lock(g.mutex);
    g.capturing.erase(stream);
    delete stream;
  }
  return cudaSuccess;
}
#endif

WS_GRAPHS_BEGIN

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode) {
  if (Special(stream))
    return Fail(cudaErrorStreamCaptureUnsupported,
                "cudaStreamBeginCapture: the default stream cannot be captured (CUDA's rule); "
                "capture a stream from cudaStreamCreate");
  Graphs& g = G();
  std::lock_guard lock(g.mutex);
  if (g.capturing.count(stream) > 0)
    return Fail(cudaErrorIllegalState, "cudaStreamBeginCapture: the stream is already capturing");
  auto* graph = new CUgraph_st{++g.next_graph, {}};
  g.capturing[stream] = Tail{graph, stream, {}};
  return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  Graphs& g = G();
  std::lock_guard lock(g.mutex);
  auto it = g.capturing.find(stream);
  if (it == g.capturing.end())
    return Fail(cudaErrorIllegalState, "cudaStreamEndCapture: the stream is not capturing");
  if (it->second.origin != stream)
    return Fail(cudaErrorStreamCaptureUnmatched,
                "cudaStreamEndCapture: the capture began in another stream");
  CUgraph_st* done = it->second.graph;
  // Every stream that joined this capture leaves it with it.
  for (auto s = g.capturing.begin(); s != g.capturing.end();)
    s = s->second.graph == done ? g.capturing.erase(s) : std::next(s);
  for (auto e = g.events.begin(); e != g.events.end();)
    e = e->second.graph == done ? g.events.erase(e) : std::next(e);
  if (graph != nullptr) *graph = done;
  return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  if (status == nullptr) return cudaErrorInvalidValue;
  *status =
      ws::prog::Capturing(stream) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode*) {
  return cudaSuccess;
}

WS_GRAPHS_END

namespace ws::prog::detail {

// An event recorded in a capture keeps the stream's tail; recorded elsewhere, the model's clock.
bool CaptureEventRecord(cudaEvent_t event, cudaStream_t stream) {
  Graphs& g = G();
  std::lock_guard lock(g.mutex);
  auto it = g.capturing.find(stream);
  if (it == g.capturing.end()) return false;
  g.events[event] = it->second;
  return true;
}
// A stream that waits on an event of a capture joins it (its next nodes depend on the event's).
bool CaptureWaitEvent(cudaStream_t stream, cudaEvent_t event) {
  Graphs& g = G();
  std::lock_guard lock(g.mutex);
  auto e = g.events.find(event);
  if (e == g.events.end()) return false;
  auto [it, fresh] = g.capturing.try_emplace(stream, e->second);
  if (!fresh) {
    for (CUgraphNode_st* n : e->second.nodes)
      if (std::find(it->second.nodes.begin(), it->second.nodes.end(), n) == it->second.nodes.end())
        it->second.nodes.push_back(n);
  }
  return true;
}

bool CaptureCopy(cudaStream_t stream, const char* what, std::function<cudaError_t()> run) {
  return Captured(stream,
                  std::string(what) == "memset" ? cudaGraphNodeTypeMemset : cudaGraphNodeTypeMemcpy,
                  what, std::move(run));
}

}  // namespace ws::prog::detail

WS_GRAPHS_BEGIN

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* data) {
  if (fn == nullptr) return cudaErrorInvalidValue;
  auto run = [fn, data]() -> cudaError_t {
    fn(data);
    return cudaSuccess;
  };
  if (Captured(stream, cudaGraphNodeTypeHost, "host function", run)) return cudaSuccess;
#if defined(WS_GRAPHS_GPU)
  return ::cudaLaunchHostFunc(stream, fn, data);  // after the stream's work, as written
#else
  return run();
#endif
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* data,
                                  unsigned int flags) {
  if (callback == nullptr) return cudaErrorInvalidValue;
  if (ws::prog::Capturing(stream))
    return Fail(cudaErrorStreamCaptureUnsupported,
                "cudaStreamAddCallback in a stream capture (CUDA refuses it too; "
                "cudaLaunchHostFunc is captured)");
#if defined(WS_GRAPHS_GPU)
  return ::cudaStreamAddCallback(stream, callback, data, flags);
#else
  (void)flags;
  callback(stream, cudaSuccess, data);
  return cudaSuccess;
#endif
}

// ------------------------------------------------------------------------------------------------
// Graphs node by node.
// ------------------------------------------------------------------------------------------------

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int) {
  if (graph == nullptr) return cudaErrorInvalidValue;
  Graphs& g = G();
  std::lock_guard lock(g.mutex);
  *graph = new CUgraph_st{++g.next_graph, {}};
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  delete graph;
  return cudaSuccess;
}
cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t graph) {
  if (clone == nullptr || graph == nullptr) return cudaErrorInvalidValue;
  Graphs& g = G();
  std::lock_guard lock(g.mutex);
  auto* copy = new CUgraph_st{++g.next_graph, {}};
  std::map<const CUgraphNode_st*, CUgraphNode_st*> to;
  for (const auto& n : graph->nodes) {
    copy->nodes.push_back(std::make_unique<CUgraphNode_st>(*n));
    to[n.get()] = copy->nodes.back().get();
  }
  for (auto& n : copy->nodes)
    for (CUgraphNode_st*& d : n->depends) d = to.at(d);
  *clone = copy;
  return cudaSuccess;
}

#define WS_CHECK_NODE_ARGS()                                                    \
  if (node == nullptr || graph == nullptr || (count > 0 && depends == nullptr)) \
  return cudaErrorInvalidValue

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* depends, std::size_t count,
                                   const cudaKernelNodeParams* p) {
  WS_CHECK_NODE_ARGS();
  std::function<cudaError_t()> run;
  if (cudaError_t e = KernelNodeRun("cudaGraphAddKernelNode", p, &run); e != cudaSuccess) return e;
  *node =
      AddNode(graph, cudaGraphNodeTypeKernel, KernelNodeWhat(p), std::move(run), depends, count);
  return cudaSuccess;
}
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* depends, std::size_t count,
                                   const cudaMemcpy3DParms* p) {
  WS_CHECK_NODE_ARGS();
  if (p == nullptr) return cudaErrorInvalidValue;
  const cudaMemcpy3DParms copy = *p;
  *node = AddNode(
      graph, cudaGraphNodeTypeMemcpy, "memcpy", [copy] { return cudaMemcpy3D(&copy); }, depends,
      count);
  return cudaSuccess;
}
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph,
                                     const cudaGraphNode_t* depends, std::size_t count, void* dst,
                                     const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  WS_CHECK_NODE_ARGS();
  *node = AddNode(
      graph, cudaGraphNodeTypeMemcpy, "memcpy", [=] { return cudaMemcpy(dst, src, bytes, kind); },
      depends, count);
  return cudaSuccess;
}
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                   const cudaGraphNode_t* depends, std::size_t count,
                                   const cudaMemsetParams* p) {
  WS_CHECK_NODE_ARGS();
  if (p == nullptr) return cudaErrorInvalidValue;
  const cudaMemsetParams copy = *p;
  *node = AddNode(
      graph, cudaGraphNodeTypeMemset, "memset", [copy] { return Fill(copy); }, depends, count);
  return cudaSuccess;
}
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                 const cudaGraphNode_t* depends, std::size_t count,
                                 const cudaHostNodeParams* p) {
  WS_CHECK_NODE_ARGS();
  if (p == nullptr || p->fn == nullptr) return cudaErrorInvalidValue;
  const cudaHostNodeParams copy = *p;
  *node = AddNode(
      graph, cudaGraphNodeTypeHost, "host function",
      [copy]() -> cudaError_t {
        copy.fn(copy.userData);
        return cudaSuccess;
      },
      depends, count);
  return cudaSuccess;
}
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph,
                                  const cudaGraphNode_t* depends, std::size_t count) {
  WS_CHECK_NODE_ARGS();
  *node = AddNode(graph, cudaGraphNodeTypeEmpty, "empty", nullptr, depends, count);
  return cudaSuccess;
}
#undef WS_CHECK_NODE_ARGS
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, std::size_t count) {
  if (graph == nullptr || (count > 0 && (from == nullptr || to == nullptr)))
    return cudaErrorInvalidValue;
  for (std::size_t i = 0; i < count; ++i) to[i]->depends.push_back(from[i]);
  return cudaSuccess;
}
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count) {
  if (graph == nullptr || count == nullptr) return cudaErrorInvalidValue;
  if (nodes != nullptr)
    for (std::size_t i = 0; i < *count && i < graph->nodes.size(); ++i)
      nodes[i] = graph->nodes[i].get();
  *count = graph->nodes.size();
  return cudaSuccess;
}
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* count) {
  if (graph == nullptr || count == nullptr) return cudaErrorInvalidValue;
  std::vector<cudaGraphNode_t> roots;
  for (const auto& n : graph->nodes)
    if (n->depends.empty()) roots.push_back(n.get());
  if (nodes != nullptr)
    for (std::size_t i = 0; i < *count && i < roots.size(); ++i) nodes[i] = roots[i];
  *count = roots.size();
  return cudaSuccess;
}
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  if (node == nullptr || type == nullptr) return cudaErrorInvalidValue;
  *type = node->type;
  return cudaSuccess;
}

// ------------------------------------------------------------------------------------------------
// Instantiation and launch.
// ------------------------------------------------------------------------------------------------

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
  if (exec == nullptr || graph == nullptr) return cudaErrorInvalidValue;
  // Kahn's order, the earliest-made node first among those ready.
  const std::size_t n = graph->nodes.size();
  std::vector<std::size_t> waiting(n, 0);
  std::vector<std::vector<std::size_t>> after(n);
  for (const auto& node : graph->nodes)
    for (const CUgraphNode_st* d : node->depends) {
      ++waiting[node->index];
      after[d->index].push_back(node->index);
    }
  auto* e = new CUgraphExec_st{graph->id, {}};
  std::vector<bool> done(n, false);
  for (std::size_t step = 0; step < n; ++step) {
    std::size_t next = n;
    for (std::size_t i = 0; i < n && next == n; ++i)
      if (!done[i] && waiting[i] == 0) next = i;
    if (next == n) {
      delete e;
      return Fail(cudaErrorInvalidValue,
                  "cudaGraphInstantiate: the graph's dependencies form "
                  "a cycle");
    }
    done[next] = true;
    for (std::size_t a : after[next]) --waiting[a];
    e->order.push_back(*graph->nodes[next]);
    e->order.back().from = DependencyIndices(*graph->nodes[next]);
    e->order.back().depends.clear();
  }
  *exec = e;
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphNode_t*, char*,
                                 std::size_t) {
  return (cudaGraphInstantiate)(exec, graph, 0ull);
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph,
                                          unsigned long long flags) {
  return (cudaGraphInstantiate)(exec, graph, flags);
}
cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t) {
  return exec == nullptr ? cudaErrorInvalidValue : cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  if (exec == nullptr) return cudaErrorInvalidValue;
  if (ws::prog::Capturing(stream))
    return Fail(cudaErrorStreamCaptureUnsupported,
                "cudaGraphLaunch inside a stream capture (a graph as a node) is not supported "
                "(yet)");
#if defined(WS_GRAPHS_GPU)
  // The program's work before the graph is done first (a graph's nodes run one by one here).
  if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) return e;
#endif
  const std::size_t n = exec->order.size();
  for (std::size_t k = 0; k < n; ++k) {
    const CUgraphNode_st& node = exec->order[k];
    if (!node.run) continue;
    t_origin = "graph " + std::to_string(exec->id) + ", node " + std::to_string(k + 1) + " of " +
               std::to_string(n) + " (" + node.what + ")";
    const cudaError_t e = node.run();
    t_origin.clear();
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  delete exec;
  return cudaSuccess;
}

// CUDA's rules, those a graph made here can break: the same number of nodes, each of the same
// kind with the same dependencies, a kernel node the same kernel (its parameters may change).
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                cudaGraphExecUpdateResultInfo* info) {
  if (exec == nullptr || graph == nullptr || info == nullptr) return cudaErrorInvalidValue;
  *info = {cudaGraphExecUpdateSuccess, nullptr, nullptr};
  auto refuse = [&](cudaGraphExecUpdateResult why, cudaGraphNode_t at) {
    *info = {why, at, nullptr};
    return cudaErrorGraphExecUpdateFailure;
  };
  if (exec->order.size() != graph->nodes.size())
    return refuse(cudaGraphExecUpdateErrorTopologyChanged, nullptr);
  for (const CUgraphNode_st& old : exec->order) {
    CUgraphNode_st* now = graph->nodes[old.index].get();
    if (now->type != old.type) return refuse(cudaGraphExecUpdateErrorNodeTypeChanged, now);
    if (now->type == cudaGraphNodeTypeKernel && now->what != old.what)
      return refuse(cudaGraphExecUpdateErrorFunctionChanged, now);
    if (old.from != DependencyIndices(*now))
      return refuse(cudaGraphExecUpdateErrorTopologyChanged, now);
  }
  for (CUgraphNode_st& node : exec->order) node.run = graph->nodes[node.index]->run;
  return cudaSuccess;
}
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                cudaGraphNode_t* error_node, cudaGraphExecUpdateResult* result) {
  cudaGraphExecUpdateResultInfo info{};
  const cudaError_t e = (cudaGraphExecUpdate)(exec, graph, &info);
  if (error_node != nullptr) *error_node = info.errorNode;
  if (result != nullptr) *result = info.result;
  return e;
}
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* p) {
  if (exec == nullptr || node == nullptr || p == nullptr) return cudaErrorInvalidValue;
  for (CUgraphNode_st& mine : exec->order) {
    if (mine.index != node->index) continue;
    if (mine.type != cudaGraphNodeTypeKernel || mine.what != KernelNodeWhat(p))
      return Fail(cudaErrorInvalidValue,
                  "cudaGraphExecKernelNodeSetParams: node " + std::to_string(node->index + 1) +
                      " is " + mine.what + ", not " + KernelNodeWhat(p) +
                      " (an instantiated graph's kernel node keeps its kernel)");
    return KernelNodeRun("cudaGraphExecKernelNodeSetParams", p, &mine.run);
  }
  return Fail(cudaErrorInvalidValue,
              "cudaGraphExecKernelNodeSetParams: the node is not in the graph it was instantiated "
              "from");
}
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* p) {
  if (node == nullptr || p == nullptr) return cudaErrorInvalidValue;
  if (node->type != cudaGraphNodeTypeKernel)
    return Fail(cudaErrorInvalidValue, "cudaGraphKernelNodeSetParams: node " +
                                           std::to_string(node->index + 1) + " is " + node->what +
                                           ", not a kernel");
  if (cudaError_t e = KernelNodeRun("cudaGraphKernelNodeSetParams", p, &node->run);
      e != cudaSuccess)
    return e;
  node->what = KernelNodeWhat(p);
  return cudaSuccess;
}

WS_GRAPHS_END

#if defined(WS_GRAPHS_GPU)
// A stream destroyed on a GPU ends its capture (ws_program_cuda_host.h's cudaStreamDestroy).
namespace ws::prog {
cudaError_t StreamDestroy(cudaStream_t stream) {
  {
    Graphs& g = G();
    std::lock_guard lock(g.mutex);
    g.capturing.erase(stream);  // a handle the driver may give again is no capture's
  }
  return ::cudaStreamDestroy(stream);
}
}  // namespace ws::prog
#endif

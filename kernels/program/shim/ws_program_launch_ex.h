// cudaLaunchKernelEx's configuration and attributes as a program on the emulator sees them (part
// of ws_program_api.h, which includes it after dim3 and cudaStream_t; driver_types.h's numbers and
// layout). The launch itself is ws_program_graph_calls.h's, on both roads.
#pragma once

// cudaLaunchKernelEx's configuration and attributes (driver_types.h's numbers and layout). The
// cluster's dimension and a cooperative launch are honoured; the others are taken and change
// nothing on the emulator (a priority, programmatic serialization).
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
};
// An L2 access policy (a stream's or a launch's attribute, cuda-samples' simpleAttributes): taken
// and kept, changing no figure (the emulator models no L2 cache; the run's notes say so).
enum cudaAccessProperty {
  cudaAccessPropertyNormal = 0,
  cudaAccessPropertyStreaming = 1,
  cudaAccessPropertyPersisting = 2,
};
struct cudaAccessPolicyWindow {
  void* base_ptr;
  std::size_t num_bytes;
  float hitRatio;
  cudaAccessProperty hitProp;
  cudaAccessProperty missProp;
};
union cudaLaunchAttributeValue {
  char pad[64];
  cudaAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  struct {
    unsigned int x, y, z;
  } clusterDim;
  int priority;
  unsigned int programmaticStreamSerializationAllowed;
};
struct cudaLaunchAttribute {
  cudaLaunchAttributeID id;
  char pad[8 - sizeof(cudaLaunchAttributeID)];
  cudaLaunchAttributeValue val;
};
// (Its gridDim and blockDim named as the rewriter renames a member named as a built-in:
// WS_BUILTIN_MEMBER, ws_program_graphs.h.)
struct cudaLaunchConfig_t {
#if defined(WS_PROGRAM_PARSE)
  dim3 gridDim;
  dim3 blockDim;
#else
  dim3 ws_user_gridDim;
  dim3 ws_user_blockDim;
#endif
  std::size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute* attrs;
  unsigned int numAttrs;
};
// A stream's attributes are launch attributes of the same numbers (driver_types.h's macros).
#define cudaStreamAttrID cudaLaunchAttributeID
#define cudaStreamAttrValue cudaLaunchAttributeValue
#define cudaStreamAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaStreamAttributeSynchronizationPolicy cudaLaunchAttributeSynchronizationPolicy
#define cudaStreamAttributePriority cudaLaunchAttributePriority
// A stream's attributes: kept, so that cudaStreamGetAttribute gives back what was set; an L2
// access policy changes no figure (no L2 on the emulator: the run's notes say so).
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr,
                                   const cudaLaunchAttributeValue* value);
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr,
                                   cudaLaunchAttributeValue* value);
cudaError_t cudaCtxResetPersistingL2Cache();

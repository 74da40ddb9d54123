// A loop's iterations and a device function's calls: each opens a dynamic instance whose key the
// thread's accesses carry, so that a warp's request at a site is the lanes that reach it in the
// same instance (the same loop step of the same call), as on a GPU. The rewriter puts a Loop
// around each loop of device code, an Iter at the top of its body and a Frame at the top of each
// __device__ function (program_rewrite.h).
//
// Shared by both roads. The emulator's shim (ws_program.h) keeps a thread's current instance in
// its worker's ThreadState; the GPU's (ws_program_cuda.h) in a slot per thread of the launch, in
// device memory, so that its events carry the key too and the host joins a warp's lanes by it
// (gpu_records.cpp). Each defines WS_INSTANCE_FN (the functions' execution space) and
// CurrentInstanceView() (null where there is no thread: a __host__ __device__ function on the
// host) before including this.
#pragma once

namespace ws::prog {

struct Instance {
  unsigned int key = 0;
  Instance* parent = nullptr;
  InstanceView* view = nullptr;
  unsigned int child_id[6] = {}, child_count[6] = {};
  unsigned int children = 0;
  // Opens the next instance of static id `id` under the thread's current one.
  WS_INSTANCE_FN explicit Instance(unsigned int id) {
    view = CurrentInstanceView();
    if (view == nullptr) return;
    parent = static_cast<Instance*>(view->frame);
    key = Mix(parent != nullptr ? parent->key : 0u, id, parent != nullptr ? parent->Next(id) : 0u);
    view->frame = this;
    view->instance = key;
  }
  WS_INSTANCE_FN ~Instance() {
    if (view == nullptr || view->frame != this) return;
    view->frame = parent;
    view->instance = parent != nullptr ? parent->key : 0u;
  }
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;
  // How many instances of `id` this one has opened before.
  WS_INSTANCE_FN unsigned int Next(unsigned int id) {
    for (unsigned int i = 0; i < children; ++i) {
      if (child_id[i] == id) return child_count[i]++;
    }
    if (children < 6) {
      child_id[children] = id;
      child_count[children++] = 1;
      return 0;
    }
    return child_count[5]++ ^ id;  // many distinct children: still one number per instance
  }
  WS_INSTANCE_FN static unsigned int Mix(unsigned int parent, unsigned int id, unsigned int n) {
    unsigned long long h =
        (static_cast<unsigned long long>(parent) << 32 | id) * 0x9e3779b97f4a7c15ull;
    h ^= (h >> 29) + n * 0xbf58476d1ce4e5b9ull;
    h *= 0x94d049bb133111ebull;
    return static_cast<unsigned int>(h >> 32);
  }
};
struct Loop : Instance {
  WS_INSTANCE_FN explicit Loop(unsigned int id) : Instance(id) {}
};
struct Iter : Instance {
  WS_INSTANCE_FN explicit Iter(Loop&) : Instance(0u) {}
};
struct Frame : Instance {
  WS_INSTANCE_FN explicit Frame(unsigned int id) : Instance(id) {}
};

}  // namespace ws::prog

// The emulator's worker threads (thread_pool.h).
#include "emu/thread_pool.h"

#include <unistd.h>

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

namespace ws::emu {
namespace {

struct Pool {
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::function<void()>> queue;
  unsigned idle = 0;  // threads waiting for a job
  pid_t pid = getpid();
};

// The process's pool; never destroyed (its threads wait in it until the process ends). A child
// made by fork() has none of its parent's threads: it makes its own.
Pool* ThePool() {
  static std::mutex m;
  static Pool* pool = nullptr;
  std::lock_guard lock(m);
  if (pool == nullptr || pool->pid != getpid()) pool = new Pool;
  return pool;
}

void Serve(Pool* p) {
  std::unique_lock lock(p->mutex);
  for (;;) {
    ++p->idle;
    p->wake.wait(lock, [p] { return !p->queue.empty(); });
    --p->idle;
    std::function<void()> job = std::move(p->queue.front());
    p->queue.pop_front();
    lock.unlock();
    job();
    lock.lock();
  }
}

}  // namespace

void RunOnWorkers(unsigned n, const std::function<void(unsigned)>& job) {
  if (n == 0) return;
  std::mutex done_mutex;
  std::condition_variable done_cv;
  unsigned left = n - 1;
  if (n > 1) {
    Pool* p = ThePool();
    std::lock_guard lock(p->mutex);
    for (unsigned i = 1; i < n; ++i) {
      p->queue.push_back([&, i] {
        job(i);
        std::lock_guard l(done_mutex);
        if (--left == 0) done_cv.notify_all();
      });
      // A thread for each job no waiting thread will take (none waits on another's job).
      if (p->queue.size() > p->idle) std::thread(Serve, p).detach();
    }
    p->wake.notify_all();
  }
  std::exception_ptr thrown;
  try {
    job(0);
  } catch (...) {  // (the others still refer to this frame: they are waited for first)
    thrown = std::current_exception();
  }
  {
    std::unique_lock lock(done_mutex);
    done_cv.wait(lock, [&] { return left == 0; });
  }
  if (thrown) std::rethrow_exception(thrown);
}

}  // namespace ws::emu

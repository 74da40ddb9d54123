// A kernel bound to copies of its arguments, on both roads (included inside namespace ws::prog by
// ws_program.h, and inside its unnamed namespace by ws_program_cuda.h, after their LaunchAt):
// what cudaLaunchKernel and a graph's kernel node run (the kernels' table's WS_BIND_OF).
#pragma once

// A kernel's arguments from the pointers cudaLaunchKernel and a kernel node take, copied as each
// parameter's type (as CUDA copies them when the launch or the node is made).
template <typename... P, std::size_t... I>
BoundLaunch BindArgs(void (*kernel)(P...), void** args, std::index_sequence<I...>) {
  auto held =
      std::make_shared<std::tuple<std::decay_t<P>...> >(*static_cast<std::decay_t<P>*>(args[I])...);
  return [kernel, held](const Config& config, unsigned int line) {
    std::apply([&](auto&... a) { LaunchAt("?", line, kernel, config).Run(a...); }, *held);
  };
}
template <typename... P>
BoundLaunch BindKernel(const void* kernel, void** args) {
  auto* k = reinterpret_cast<void (*)(P...)>(const_cast<void*>(kernel));
  return BindArgs(k, args, std::index_sequence_for<P...>{});
}
template <typename... P>
constexpr Binder BindOf(void (*)(P...)) {
  return &BindKernel<P...>;
}

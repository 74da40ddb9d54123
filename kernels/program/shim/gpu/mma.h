// <mma.h> in a program recorded on the GPU backend: its loads and stores happen inside the
// toolkit's header, where the rewriter does not see them, so the recording would miss them.
// Until the GPU backend records wmma as the emulator does, such a program runs on the emulator.
#pragma once
#error "Tensor cores (wmma) are not supported (yet) on the GPU backend: run it with --backend emu"

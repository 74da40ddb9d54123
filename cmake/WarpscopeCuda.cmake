# The CUDA toolkit is optional: without nvcc everything but the CUDA runner builds and runs.
set(WARPSCOPE_HAVE_CUDA OFF)
if(NOT WARPSCOPE_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      if(EXISTS /proc/driver/nvidia/version OR EXISTS /dev/nvidiactl)
        # Turing (sm_75) through Hopper (sm_90) as machine code, plus compute_90 PTX for newer
        # GPUs.
        set(CMAKE_CUDA_ARCHITECTURES "75-real;80-real;86-real;89-real;90")
      else()
        # No NVIDIA driver here (CI, a laptop): the CUDA code only has to compile, so once, for
        # Hopper (a fifth of the time of five architectures).
        set(CMAKE_CUDA_ARCHITECTURES "90")
        message(STATUS "Warpscope: no NVIDIA driver: CUDA code built for sm_90 only "
                       "(-DCMAKE_CUDA_ARCHITECTURES=... to choose)")
      endif()
    endif()
    enable_language(CUDA)
    # nvcc 12+ accepts C++20, but CMake 3.25 does not know its flag: tell it.
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA_STANDARD 20)
    find_package(CUDAToolkit REQUIRED)
    set(WARPSCOPE_HAVE_CUDA ON)
  elseif(WARPSCOPE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "WARPSCOPE_CUDA=ON but no CUDA compiler (nvcc) was found")
  else()
    message(STATUS "nvcc not found: the CUDA runner is not built (the CPU emulator always is)")
  endif()
endif()

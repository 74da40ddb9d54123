# Warnings are errors in our own code (never in third-party code we compile).
function(ws_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX,C>:-Wall -Wextra -Wpedantic -Wshadow -Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Wshadow,-Werror>)
endfunction()

if(WARPSCOPE_SANITIZE)
  # ASan + UBSan for everything in this tree. Fiber switches are annotated in kernels/emu.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX,C>:-fsanitize=address,undefined>
                      $<$<COMPILE_LANGUAGE:CXX,C>:-fno-omit-frame-pointer>
                      $<$<COMPILE_LANGUAGE:CXX,C>:-fno-sanitize-recover=all>)
  add_link_options(-fsanitize=address,undefined)
  # Executables without PIE: the sanitizers' metadata made a test binary 1.7 million relative
  # relocations for the loader to apply at every start, and the sanitizer suite starts about 600
  # processes (ctest runs each test in one) besides the CLI's children. An empty run of
  # ws_unit_tests took 0.09 s, 0.06 s without PIE (this machine, 5 runs each).
  string(APPEND CMAKE_EXE_LINKER_FLAGS " -no-pie")
endif()

# ws_embed_text(TARGET_SOURCES_VAR HEADER NAMESPACE FILES...): generates HEADER and a .cpp that
# hold the files' text (see cmake/EmbedText.cmake); appends the generated .cpp to the variable.
function(ws_embed_text out_var header namespace)
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/generated)
  get_filename_component(header_name ${header} NAME_WE)
  get_filename_component(header_dir ${header} DIRECTORY)
  set(inputs)
  foreach(f IN LISTS ARGN)
    if(IS_ABSOLUTE ${f})  # a file the build makes
      list(APPEND inputs ${f})
    else()
      list(APPEND inputs ${CMAKE_CURRENT_SOURCE_DIR}/${f})
    endif()
  endforeach()
  file(MAKE_DIRECTORY ${gen}/${header_dir})
  add_custom_command(
    OUTPUT ${gen}/${header} ${gen}/${header_name}.cpp
    COMMAND ${CMAKE_COMMAND} -DOUT_DIR=${gen} -DHEADER=${header} -DNAMESPACE=${namespace}
            "-DINPUTS=${inputs}" -P ${PROJECT_SOURCE_DIR}/cmake/EmbedText.cmake
    DEPENDS ${inputs} ${PROJECT_SOURCE_DIR}/cmake/EmbedText.cmake
    COMMENT "Embedding ${header}"
    VERBATIM)
  set(${out_var} ${${out_var}} ${gen}/${header_name}.cpp ${gen}/${header} PARENT_SCOPE)
endfunction()

# GCC 12's bogus warnings on `"literal" + std::string`, std::string::insert and substr + "..." at
# -O2/-O3 in C++20: the string's inlined memcpy is reported as "accessing 9223372036854775810 or
# more bytes ... may overlap" (-Wrestrict, GCC bug 105329) or, where other inlining decisions
# (a precompiled header) change the path, as the same memcpy's "specified bound between
# 9223372036854775810 and 18446744073709551615 exceeds maximum object size" (-Wstringop-overflow)
# or "forming offset [32, N] is out of the bounds [0, 32]" of the string (-Warray-bounds).
# Silenced only in the files where Debian 12's GCC reports them, in every build type, never by
# dropping -Werror; other compilers keep the warnings. ws_gcc12_bogus_restrict(FILES...): paths
# relative to the calling CMakeLists.txt.
function(ws_gcc12_bogus_restrict)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS -Wno-restrict
                 -Wno-stringop-overflow -Wno-array-bounds)
  endif()
endfunction()

# The headers nearly every file of a library includes, parsed once per target instead of once per
# file (nlohmann/json alone is about 1.2 s of each file's compile; CI builds every file twice,
# in the release and the sanitizer build: docs/BUILD.md, "CI's time").
# Made once, by the first library that asks (ws_trace, which every other links), and reused by
# the other libraries: about 4 s of CPU per library in each build. GCC takes it where the flags
# that matter are the same; CMake's -Winvalid-pch with -Werror stops the build where they are not
# (an executable, compiled -fPIE where the libraries are -fPIC, makes its own).
function(ws_lib_pch target)
  get_property(owner GLOBAL PROPERTY WS_LIB_PCH_OWNER)
  get_target_property(type ${target} TYPE)
  if(owner AND NOT type STREQUAL "EXECUTABLE")
    target_precompile_headers(${target} REUSE_FROM ${owner})
    return()
  endif()
  if(NOT type STREQUAL "EXECUTABLE")
    set_property(GLOBAL PROPERTY WS_LIB_PCH_OWNER ${target})
  endif()
  target_precompile_headers(${target} PRIVATE
    "$<$<COMPILE_LANGUAGE:CXX>:<nlohmann/json.hpp>>" "$<$<COMPILE_LANGUAGE:CXX>:<algorithm>>"
    "$<$<COMPILE_LANGUAGE:CXX>:<filesystem>>" "$<$<COMPILE_LANGUAGE:CXX>:<functional>>"
    "$<$<COMPILE_LANGUAGE:CXX>:<map>>" "$<$<COMPILE_LANGUAGE:CXX>:<memory>>"
    "$<$<COMPILE_LANGUAGE:CXX>:<sstream>>" "$<$<COMPILE_LANGUAGE:CXX>:<string>>"
    "$<$<COMPILE_LANGUAGE:CXX>:<vector>>")
endfunction()

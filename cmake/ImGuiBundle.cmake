# Dear ImGui (docking branch) and ImPlot, both taken from one PyPI source package so that their
# versions match: imgui-bundle 1.93.0, pinned by hash. scripts/fetch-imgui-bundle.sh downloads it
# once into a cache (no network needed after that); we compile only ImGui's core, its GLFW and
# OpenGL 3 backends, and ImPlot. Nothing of it is copied into the repository.
set(WS_IMGUI_BUNDLE_VERSION 1.93.0)
set(WS_IMGUI_BUNDLE_SHA256 10ad1dab8258a6787b4f07bb926b08d0efc648a7906242568c8dd778c5e719bf)
if(DEFINED ENV{WARPSCOPE_CACHE})
  set(_ws_cache "$ENV{WARPSCOPE_CACHE}")
elseif(DEFINED ENV{XDG_CACHE_HOME})
  set(_ws_cache "$ENV{XDG_CACHE_HOME}/warpscope")
else()
  set(_ws_cache "$ENV{HOME}/.cache/warpscope")
endif()
set(WS_IMGUI_BUNDLE_SDIST "${_ws_cache}/imgui_bundle-${WS_IMGUI_BUNDLE_VERSION}.tar.gz"
    CACHE FILEPATH "The imgui-bundle source package (downloaded by scripts/fetch-imgui-bundle.sh)")

if(NOT EXISTS "${WS_IMGUI_BUNDLE_SDIST}")
  message(STATUS "imgui-bundle ${WS_IMGUI_BUNDLE_VERSION} is not in the cache: downloading it")
  get_filename_component(_dest "${WS_IMGUI_BUNDLE_SDIST}" DIRECTORY)
  execute_process(
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/../scripts/fetch-imgui-bundle.sh "${_dest}"
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0 OR NOT EXISTS "${WS_IMGUI_BUNDLE_SDIST}")
    message(FATAL_ERROR "Could not download imgui-bundle ${WS_IMGUI_BUNDLE_VERSION} into ${_dest}. "
                        "Run scripts/setup.sh, or configure with -DWARPSCOPE_GUI=OFF.")
  endif()
endif()
file(SHA256 "${WS_IMGUI_BUNDLE_SDIST}" _sha)
if(NOT _sha STREQUAL WS_IMGUI_BUNDLE_SHA256)
  message(FATAL_ERROR "${WS_IMGUI_BUNDLE_SDIST} has SHA-256 ${_sha}, expected "
                      "${WS_IMGUI_BUNDLE_SHA256}. Delete it and run scripts/setup.sh again.")
endif()

set(_root ${CMAKE_BINARY_DIR}/_deps/imgui_bundle-${WS_IMGUI_BUNDLE_VERSION})
set(_stamp ${CMAKE_BINARY_DIR}/_deps/imgui_bundle.${_sha}.stamp)
if(NOT EXISTS ${_stamp})
  file(REMOVE_RECURSE ${_root})
  file(ARCHIVE_EXTRACT INPUT "${WS_IMGUI_BUNDLE_SDIST}" DESTINATION ${CMAKE_BINARY_DIR}/_deps
       PATTERNS imgui_bundle-${WS_IMGUI_BUNDLE_VERSION}/external/imgui/imgui
                imgui_bundle-${WS_IMGUI_BUNDLE_VERSION}/external/implot/implot)
  file(TOUCH ${_stamp})
endif()

set(_imgui ${_root}/external/imgui/imgui)
set(_implot ${_root}/external/implot/implot)
add_library(ws_imgui STATIC
  ${_imgui}/imgui.cpp ${_imgui}/imgui_draw.cpp ${_imgui}/imgui_tables.cpp
  ${_imgui}/imgui_widgets.cpp ${_imgui}/imgui_stacklayout.cpp
  ${_imgui}/backends/imgui_impl_glfw.cpp ${_imgui}/backends/imgui_impl_opengl3.cpp
  ${_implot}/implot.cpp ${_implot}/implot_items.cpp)
target_include_directories(ws_imgui SYSTEM PUBLIC ${_imgui} ${_imgui}/backends ${_implot})
target_compile_definitions(ws_imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
# ImPlot's plotting templates for the types Warpscope plots, not all ten numeric types: its
# implot_items.cpp then compiles in a third of the time (39 s instead of 126 s here), the
# longest step of a clean build.
target_compile_definitions(ws_imgui PRIVATE "IMPLOT_CUSTOM_NUMERIC_TYPES=(float)(double)(int)")
target_link_libraries(ws_imgui PUBLIC glfw OpenGL::GL ${CMAKE_DL_LIBS})
target_compile_options(ws_imgui PRIVATE -w)
# -O2 in the optimised builds, as Debian builds its packages (CMake's Release says -O3): ImPlot's
# implot_items.cpp compiles in 31.5 CPU s instead of 37.4 (g++ 12, this 2-core machine idle).
target_compile_options(ws_imgui PRIVATE $<$<CONFIG:RelWithDebInfo,Release>:-O2>)

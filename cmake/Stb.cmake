# stb (PNG reading; libpng writes them: viz/src/image.cpp) from Debian's libstb-dev: headers in <prefix>/include/stb and a
# compiled libstb that carries the implementations.
find_path(WS_STB_INCLUDE_DIR stb_image.h PATH_SUFFIXES stb REQUIRED)
find_library(WS_STB_LIBRARY stb REQUIRED)
add_library(stb INTERFACE)
target_include_directories(stb SYSTEM INTERFACE ${WS_STB_INCLUDE_DIR})
target_link_libraries(stb INTERFACE ${WS_STB_LIBRARY})

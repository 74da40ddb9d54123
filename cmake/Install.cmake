# `cmake --install` and the .deb (docs/BUILD.md, "Installing"). The installed tree is
# relocatable: PREFIX/bin/warpscope-cli finds its shim, runtime and rewriter beside itself
# (kernels/program/src/program_paths.cpp), never through this source or build folder.
#   PREFIX/bin/warpscope, warpscope-cli
#   PREFIX/lib/warpscope/          the rewriter and the runtimes a user's program links
#   PREFIX/share/warpscope/        shim/, api/, device/ (what a program compiles against),
#                                  lectures/, assignments/, examples/
#   PREFIX/share/{applications,icons,metainfo,mime,man,doc}
set(ws_pkg ${PROJECT_SOURCE_DIR}/assets/packaging)

install(TARGETS warpscope-cli RUNTIME DESTINATION bin)
if(TARGET warpscope)
  install(TARGETS warpscope RUNTIME DESTINATION bin)
endif()

foreach(lib ws_program_emu ws_program_cuda ws_kernel_timer)
  if(TARGET ${lib})
    install(TARGETS ${lib} LIBRARY DESTINATION lib/warpscope)
  endif()
endforeach()
# A tree with the CUDA runner is for machines with this build's CUDA toolkit where it is here:
# its runtimes keep the toolkit's library folder (libcudart, CUPTI), and nvcc is looked for where
# the build found it, then on PATH (program_paths.cpp). setup.sh --package builds without it.
if(WARPSCOPE_HAVE_CUDA)
  message(STATUS "Warpscope: the install tree and package carry the CUDA runner; they need the "
                 "CUDA toolkit of ${CUDAToolkit_LIBRARY_DIR}")
  foreach(lib ws_program_cuda ws_kernel_timer)
    if(TARGET ${lib})
      set_target_properties(${lib} PROPERTIES INSTALL_RPATH
                            "${CUDAToolkit_LIBRARY_DIR};${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/lib64")
    endif()
  endforeach()
endif()
if(TARGET warpscope-rewrite)
  install(TARGETS warpscope-rewrite RUNTIME DESTINATION lib/warpscope)
elseif(WARPSCOPE_REWRITER)
  install(PROGRAMS ${WARPSCOPE_REWRITER} DESTINATION lib/warpscope RENAME warpscope-rewrite)
endif()

# Dot files (.clang-format) stay behind.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernels/program/shim/ DESTINATION share/warpscope/shim
        PATTERN ".*" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/kernels/api/ DESTINATION share/warpscope/api
        PATTERN ".*" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/trace/device/ DESTINATION share/warpscope/device
        PATTERN ".*" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/lectures ${PROJECT_SOURCE_DIR}/assets/assignments
        DESTINATION share/warpscope PATTERN ".*" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION share/warpscope/examples
        PATTERN ".*" EXCLUDE)

if(TARGET warpscope)
  install(FILES ${ws_pkg}/org.warpscope.Warpscope.desktop DESTINATION share/applications)
  install(FILES ${ws_pkg}/org.warpscope.Warpscope.metainfo.xml DESTINATION share/metainfo)
  install(FILES ${ws_pkg}/warpscope-mime.xml DESTINATION share/mime/packages RENAME warpscope.xml)
  install(FILES ${ws_pkg}/warpscope.svg DESTINATION share/icons/hicolor/scalable/apps
          RENAME org.warpscope.Warpscope.svg)
  foreach(size 48 256)
    install(FILES ${ws_pkg}/warpscope-${size}.png
            DESTINATION share/icons/hicolor/${size}x${size}/apps RENAME org.warpscope.Warpscope.png)
  endforeach()
endif()

# Man pages, compressed as Debian installs them.
set(ws_man_pages warpscope-cli)
if(TARGET warpscope)
  list(APPEND ws_man_pages warpscope)
endif()
foreach(page IN LISTS ws_man_pages)
  set(gz ${CMAKE_BINARY_DIR}/man/${page}.1.gz)
  add_custom_command(OUTPUT ${gz}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND gzip -9 -n -c ${ws_pkg}/${page}.1 > ${gz}
    DEPENDS ${ws_pkg}/${page}.1 VERBATIM)
  list(APPEND ws_man_gz ${gz})
endforeach()
add_custom_target(ws_man_pages ALL DEPENDS ${ws_man_gz})
install(FILES ${ws_man_gz} DESTINATION share/man/man1)
set(ws_changelog ${CMAKE_BINARY_DIR}/man/changelog.gz)
add_custom_command(OUTPUT ${ws_changelog}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
  COMMAND gzip -9 -n -c ${ws_pkg}/changelog > ${ws_changelog}
  DEPENDS ${ws_pkg}/changelog VERBATIM)
add_custom_target(ws_changelog ALL DEPENDS ${ws_changelog})
install(FILES ${ws_pkg}/copyright ${ws_changelog} DESTINATION share/doc/warpscope)

# cpack -G DEB (in the build folder): warpscope_VERSION_ARCH.deb. Depends: the shared libraries
# the programs link (dpkg-shlibdeps), plus what a user's program needs at run time: a C++
# compiler for the emulator, clang 14's builtin headers for the rewriter, bubblewrap for
# --sandbox and `check`, and the UI's font. nvcc is recommended (the GPU backend, registers).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME warpscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The Warpscope maintainers")
set(CPACK_PACKAGE_CONTACT "The Warpscope maintainers <maintainers@warpscope.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "see what every GPU thread did, for teaching")
set(CPACK_PACKAGE_DESCRIPTION
    "Warpscope runs CUDA kernels, records what every thread did and draws it:\n\
grids, blocks and warps, how a warp's accesses coalesce into sectors,\n\
shared-memory bank conflicts, barrier timelines and races. It ships lessons,\n\
lecture files and assignments and opens a student's own CUDA program\n\
unmodified; without a GPU it runs the kernels on its CPU emulator.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "g++, libclang-common-14-dev, bubblewrap, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "nvidia-cuda-toolkit")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://warpscope.invalid")
include(CPack)

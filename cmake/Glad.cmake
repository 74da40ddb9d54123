# glad 2 generates an OpenGL 3.3 core loader into the build tree at build time, from the specs
# bundled with Debian's python3-glad (--reproducible: no network). python3-glad installs into
# Debian's own interpreter, which may not be the first python3 on PATH: find the one with glad.
set(_glad_candidates /usr/bin/python3)
find_program(_ws_path_python3 python3)
if(_ws_path_python3)
  list(APPEND _glad_candidates ${_ws_path_python3})
endif()
set(WS_GLAD_PYTHON "" CACHE FILEPATH "Python interpreter that has the glad module")
if(NOT WS_GLAD_PYTHON)
  foreach(py IN LISTS _glad_candidates)
    execute_process(COMMAND ${py} -c "import glad" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
    if(_rc EQUAL 0)
      set(WS_GLAD_PYTHON ${py} CACHE FILEPATH "Python interpreter that has the glad module" FORCE)
      break()
    endif()
  endforeach()
endif()
if(NOT WS_GLAD_PYTHON)
  message(FATAL_ERROR "No python3 with the 'glad' module was found. Install Debian's python3-glad "
                      "(scripts/setup.sh does) or configure with -DWARPSCOPE_GUI=OFF.")
endif()

set(_glad_dir ${CMAKE_BINARY_DIR}/glad)
add_custom_command(
  OUTPUT ${_glad_dir}/src/gl.c ${_glad_dir}/include/glad/gl.h
  COMMAND ${WS_GLAD_PYTHON} -m glad --reproducible --quiet --api gl:core=3.3 --extensions=
          --out-path ${_glad_dir} c
  COMMENT "Generating the OpenGL 3.3 core loader with glad"
  VERBATIM)
add_library(ws_glad STATIC ${_glad_dir}/src/gl.c ${_glad_dir}/include/glad/gl.h)
target_include_directories(ws_glad SYSTEM PUBLIC ${_glad_dir}/include)
target_link_libraries(ws_glad PUBLIC ${CMAKE_DL_LIBS})
set_target_properties(ws_glad PROPERTIES POSITION_INDEPENDENT_CODE ON)

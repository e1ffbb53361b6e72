# CTest install_consumer: installs the build tree into a fresh prefix and
# builds tests/consumer/ against it twice, with find_package(pabd CONFIG) and
# with pkg-config, then runs both programs, the installed `pabd` and, when
# PYTHON is given, the installed Python module.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DCXX=... [-DPYTHON=...] -P check_install.cmake
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_install.cmake: -D${var}=... is required")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install_consumer: ${what} failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "install_consumer: ${what}: ok ${out}")
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# 1. CMake package.
run("configure with find_package" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer
    -B ${WORK_DIR}/cmake-build -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS=-Wall -Werror")
run("build with find_package" ${CMAKE_COMMAND} --build ${WORK_DIR}/cmake-build)
run("run the find_package build" ${WORK_DIR}/cmake-build/consumer)

# 2. pkg-config, from the installed pabd.pc wherever the libdir is.
file(GLOB_RECURSE pc_files ${prefix}/*/pabd.pc)
list(LENGTH pc_files found)
if(NOT found EQUAL 1)
  message(FATAL_ERROR "install_consumer: expected one pabd.pc under ${prefix}, found '${pc_files}'")
endif()
get_filename_component(pc_dir ${pc_files} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
execute_process(COMMAND pkg-config --cflags --libs pabd RESULT_VARIABLE rc
                OUTPUT_VARIABLE flags ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install_consumer: pkg-config --cflags --libs pabd failed: ${err}")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run("build with pkg-config" ${CXX} -std=c++20 -O2 -Wall -Werror ${SOURCE_DIR}/tests/consumer/consumer.cpp
    -o ${WORK_DIR}/consumer-pc ${flags})
run("run the pkg-config build" ${WORK_DIR}/consumer-pc)

# 3. The installed program finds the installed scenes.
run("installed pabd run" ${prefix}/bin/pabd run ${prefix}/share/pabd/scenes/pendulum.json --steps 10 --quiet)

# 4. The installed Python module, when the build made one.
if(PYTHON)
  set(ENV{PYTHONPATH} ${prefix}/lib/python3/dist-packages)
  run("installed Python module" ${PYTHON} -c
      "import pabd\nw = pabd.load_scene('${prefix}/share/pabd/scenes/pendulum.json')\nw.step(10)\nprint('steps', w.step_count)")
endif()

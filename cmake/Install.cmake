# `cmake --install build --prefix P` (README, "Using pabd from another
# project"): the headers, the engine and scene libraries, a CMake package
# (find_package(pabd CONFIG): pabd::pabd, pabd::scene), pabd.pc, the `pabd`
# program and the shipped scenes (which `pabd bench` sweeps by default).
#
# The libraries are static, so their private dependencies travel with them:
# OpenMP (public: the kernels' pragmas), qhull_r and tinyobjloader (linked
# only). The warning flags (pabd_flags) are build-only: code that links pabd
# gets usage requirements only.
include(CMakePackageConfigHelpers)

set(PABD_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pabd)

install(TARGETS pabd pabd_scene EXPORT pabdTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/pabd DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT pabdTargets NAMESPACE pabd:: DESTINATION ${PABD_CMAKE_DIR})

configure_package_config_file(cmake/pabdConfig.cmake.in
  ${PROJECT_BINARY_DIR}/pabdConfig.cmake INSTALL_DESTINATION ${PABD_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pabdConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pabdConfig.cmake ${PROJECT_BINARY_DIR}/pabdConfigVersion.cmake
        DESTINATION ${PABD_CMAKE_DIR})

# pkg-config: the OpenMP flag of this compiler, and qhull_r and tinyobjloader
# as requirements (the libraries are static, so plain --libs must link them).
# The prefix is found from the file's own place (${pcfiledir}), so the file
# is right for whatever --prefix the install is given.
string(REPLACE ";" " " PABD_PC_OPENMP "${OpenMP_CXX_FLAGS}")
file(RELATIVE_PATH PABD_PC_UP /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
string(REGEX REPLACE "/$" "" PABD_PC_UP "${PABD_PC_UP}")
# The robot readers' libraries: urdfdom through its own .pc, MuJoCo (no .pc) by name.
set(PABD_PC_REQUIRES "qhull_r tinyobjloader")
set(PABD_PC_LIBS "")
if(PABD_WITH_URDF)
  string(APPEND PABD_PC_REQUIRES " urdfdom")
endif()
if(PABD_WITH_MJCF)
  set(PABD_PC_LIBS "-lmujoco")
endif()
configure_file(cmake/pabd.pc.in ${PROJECT_BINARY_DIR}/pabd.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pabd.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(TARGETS pabd_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY scenes/ DESTINATION ${CMAKE_INSTALL_DATADIR}/pabd/scenes
        FILES_MATCHING PATTERN "*.json" PATTERN "*.obj")

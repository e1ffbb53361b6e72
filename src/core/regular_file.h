// Reading someone else's file, bounded: the path must name a regular file (not
// /dev/zero, a FIFO, a directory) of at most a given size; it is opened without
// blocking and read once. Scene files' meshes (OBJ, STL) and robot models
// (URDF, MJCF) are read through it.
#pragma once

#include <cstddef>
#include <string>

namespace pabd {

/// The whole of a regular file of at most `max_bytes`; throws Error
/// "PATH: ..." naming `what` ("OBJ file", "URDF file", ...).
std::string read_regular_file(const std::string& path, std::size_t max_bytes, const char* what);

}  // namespace pabd

// tinyobjloader's implementation, compiled with the fuzz targets' instrumentation
// (fuzz/CMakeLists.txt) so that coverage and the sanitizers reach into it.
#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>

// OpenGL 3.3 core entry points for the viewer. Linux's libGL exports every
// core function, so the prototypes from glext.h are enough (no loader).
#pragma once

#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>

namespace pabd::viewer {

/// The vertex layout of every mesh the viewer draws, for the bound vertex
/// array and buffer: interleaved position (attribute 0) and normal
/// (attribute 1), three floats each.
inline void set_position_normal_layout() {
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                        reinterpret_cast<const void*>(3 * sizeof(float)));
}

}  // namespace pabd::viewer

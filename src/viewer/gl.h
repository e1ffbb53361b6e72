// OpenGL 3.3 core entry points for the viewer. Linux's libGL exports every
// core function, so the prototypes from glext.h are enough (no loader).
#pragma once

#ifndef GL_GLEXT_PROTOTYPES
#define GL_GLEXT_PROTOTYPES 1
#endif
#include <GL/gl.h>
#include <GL/glext.h>

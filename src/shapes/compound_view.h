// A compound shape as the kernels see it: its convex children (box, sphere,
// capsule, convex hull), each with its pose in the compound's frame. The
// storage is CompoundData (src/shapes/compound_shape.h).
#pragma once

#include "pabd/world.h"
#include "shapes/shape_geometry.h"

namespace pabd {

/// Children of a compound, body frame (centre of mass at the origin).
struct CompoundView {
  int child_count = 0;                    ///< number of children
  const ShapeDef* child_shape = nullptr;  ///< convex shapes, each centred on its own centre of mass
  const ShapePose* child_pose = nullptr;  ///< child frame -> compound frame
  const Real* child_radius = nullptr;     ///< bounding radius of each child about its origin [m]
};

/// World pose of a child whose compound is at `parent`.
PABD_HD ShapePose compound_child_pose(const ShapePose& parent, const ShapePose& child) {
  ShapePose p;
  p.rotation = parent.rotation * child.rotation;
  p.position = parent.rotation * child.position + parent.position;
  return p;
}

}  // namespace pabd

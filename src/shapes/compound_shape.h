// Compound shapes: a rigid union of convex children (box, sphere, capsule,
// convex hull), each placed by a pose in the compound's frame.
//
// Mass properties are the children's, summed with the parallel-axis theorem
// for the second moment: Pi = sum_i R_i Pi_i R_i^T + V_i t_i t_i^T (unit
// density, t_i the child's centre of mass). As for every body, the compound's
// frame is shifted so that its centre of mass is the origin; `origin_shift`
// records where the frame the children were given in now lies.
#pragma once

#include <vector>

#include "pabd/world.h"
#include "shapes/compound_view.h"

namespace pabd {

/// A compound and its storage (the view points into the vectors: not copyable).
struct CompoundData {
  std::vector<ShapeDef> child_shape;  ///< convex children
  std::vector<ShapePose> child_pose;  ///< child frame -> compound frame (centre of mass at 0)
  std::vector<Real> child_radius;     ///< bounding radius of each child about its origin [m]
  Real volume = 0;                    ///< sum of the children's volumes [m^3]
  Mat3 unit_affine_inertia;           ///< integral of x x^T dV about the centre of mass [m^5]
  Vec3 origin_shift;                  ///< the children's frame origin in the compound frame [m]
  /// compound_shape_in_frame: the origin is not the centre of mass, so the
  /// body needs its mass and inertia given (BodyDef::inertia).
  bool in_frame = false;
  CompoundView view;  ///< what the kernels read

  CompoundData() = default;
  CompoundData(const CompoundData&) = delete;
  CompoundData& operator=(const CompoundData&) = delete;
};

/// Builds a compound from `children` into `out`; throws Error (naming the child
/// index) for no children, a non-convex child or invalid child values.
/// in_frame: keep the children's frame as the compound's (no shift to the
/// uniform-density centre of mass; compound_shape_in_frame).
void build_compound(const std::vector<CompoundChild>& children, CompoundData& out,
                    bool in_frame = false);

}  // namespace pabd

// Mass and affine inertia of each shape, from its density.
//
// The affine inertia is the second moment of mass Pi = integral rho x x^T dV
// in the body frame (origin at the centre of mass). It is not the inertia
// tensor I; the two are related by Pi = (tr(I) / 2) I3 - I.
#pragma once

#include "pabd/world.h"

namespace pabd {

/// Mass [kg] and affine inertia [kg m^2] of a solid shape.
struct MassProperties {
  Real mass = 0;        ///< [kg]
  Mat3 affine_inertia;  ///< Pi = integral rho x x^T dV [kg m^2]
};

/// Volume of a finite shape [m^3] (throws Error for a plane).
Real shape_volume(const ShapeDef& shape);
/// Mass properties of a finite shape at a given density [kg/m^3].
MassProperties shape_mass_properties(const ShapeDef& shape, Real density);
/// Radius of the smallest sphere about the body origin holding the shape [m]
/// (0 for a plane, which is unbounded).
Real shape_bounding_radius(const ShapeDef& shape);
/// Inertia tensor from an affine inertia: I = tr(Pi) I3 - Pi.
Mat3 inertia_tensor_from_affine(const Mat3& affine_inertia);
/// Affine inertia from an inertia tensor: Pi = (tr(I) / 2) I3 - I.
Mat3 affine_inertia_from_tensor(const Mat3& inertia);
/// True when `inertia` is a real body's: symmetric, positive definite, and its
/// affine inertia positive semidefinite (the triangle inequality of the
/// principal moments), each within a relative 1e-9 of rounding.
bool is_physical_inertia(const Mat3& inertia);

}  // namespace pabd

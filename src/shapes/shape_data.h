// The built geometry behind ShapeDef::data: one storage struct per shape that
// needs arrays (only the one matching ShapeDef::type is filled). Made once by
// the builder functions (convex_hull_shape, compound_shape, height_field_shape,
// triangle_mesh_shape), never changed, shared by every copy of the ShapeDef.
// Kernels read the plain views (ConvexHullView, CompoundView, HeightFieldView,
// TriangleMeshView), which point into these vectors.
#pragma once

#include "pabd/config.h"
#include "shapes/compound_shape.h"
#include "shapes/convex_hull.h"
#include "shapes/heightfield.h"
#include "shapes/triangle_mesh.h"

namespace pabd {

struct ShapeData {
  ConvexHullData hull;           ///< ShapeType::ConvexHull
  CompoundData compound;         ///< ShapeType::Compound
  HeightFieldData height_field;  ///< ShapeType::HeightField
  TriangleMeshData mesh;         ///< ShapeType::TriangleMesh
};

// Views of a shape (its type must match and its geometry be set: add_body
// checks both). They read ShapeDef::geometry, a plain pointer, so the
// collision kernels can call them on the host or on the device.

/// The hull of a ConvexHull shape.
PABD_HD const ConvexHullView& hull_view(const ShapeDef& s) { return s.geometry->hull.view; }
/// The children of a Compound shape.
PABD_HD const CompoundView& compound_view(const ShapeDef& s) { return s.geometry->compound.view; }
/// The grid of a HeightField shape.
PABD_HD const HeightFieldView& height_field_view(const ShapeDef& s) {
  return s.geometry->height_field.view;
}
/// The triangles of a TriangleMesh shape.
PABD_HD const TriangleMeshView& mesh_view(const ShapeDef& s) { return s.geometry->mesh.view; }

}  // namespace pabd

// Validation of the shapes whose geometry is built by a builder function
// (declared in shapes/shape_validation.h, called by validate_body_def).
#include "shapes/shape_validation.h"

#include <string>

#include "shapes/shape_data.h"

namespace pabd {

void validate_built_shape(const ShapeDef& s, bool is_static, const std::string& who) {
  const char* builder = s.type == ShapeType::ConvexHull    ? "convex_hull_shape()"
                        : s.type == ShapeType::Compound    ? "compound_shape()"
                        : s.type == ShapeType::HeightField ? "height_field_shape()"
                                                           : "triangle_mesh_shape()";
  const ShapeData* d = s.data.get();
  const bool built = d && (s.type == ShapeType::ConvexHull    ? !d->hull.vertex.empty()
                           : s.type == ShapeType::Compound    ? !d->compound.child_shape.empty()
                           : s.type == ShapeType::HeightField ? !d->height_field.height.empty()
                                                              : !d->mesh.triangle_vertex.empty());
  if (!built || s.geometry != d) throw Error(who + "shape: expected geometry made by " + builder);
  if (s.type == ShapeType::HeightField && !is_static)
    throw Error(who + "shape: expected a static body for a height field");
  if (s.type == ShapeType::TriangleMesh && !is_static)
    throw Error(who + "shape: expected a static body for a triangle mesh");
}

const char* shape_type_name(ShapeType type) {
  switch (type) {
    case ShapeType::Plane:
      return "plane";
    case ShapeType::Box:
      return "box";
    case ShapeType::Sphere:
      return "sphere";
    case ShapeType::Capsule:
      return "capsule";
    case ShapeType::ConvexHull:
      return "convex_hull";
    case ShapeType::Compound:
      return "compound";
    case ShapeType::HeightField:
      return "heightfield";
    case ShapeType::TriangleMesh:
      return "triangle_mesh";
  }
  return "unknown";
}

}  // namespace pabd

// Shape meshes drawn by the outputs: closed, outward-facing, right volume.
#include <gtest/gtest.h>

#include "output/shape_mesh.h"
#include "shapes/mass_properties.h"

namespace pabd {
namespace {

// Divergence theorem: the signed volume of a closed, outward-wound mesh.
double enclosed_volume(const TriangleMesh& m) {
  double v = 0;
  for (size_t t = 0; t + 2 < m.indices.size(); t += 3) {
    const Vec3 a = m.positions[m.indices[t]], b = m.positions[m.indices[t + 1]];
    const Vec3 c = m.positions[m.indices[t + 2]];
    v += dot(a, cross(b, c)) / 6;
  }
  return v;
}

void expect_outward(const TriangleMesh& m) {
  // Convex shapes centred at the origin: every face normal points away from it.
  for (size_t t = 0; t + 2 < m.indices.size(); t += 3) {
    const Vec3 centroid = (1.0 / 3) * (m.positions[m.indices[t]] + m.positions[m.indices[t + 1]] +
                                       m.positions[m.indices[t + 2]]);
    ASSERT_GT(dot(m.normals[m.indices[t]], centroid), 0) << "triangle " << t / 3;
  }
}

TEST(ShapeMesh, BoxIsExact) {
  const ShapeDef box = box_shape({1, 2, 3});
  const TriangleMesh m = shape_mesh(box);
  EXPECT_EQ(m.indices.size(), 36u);             // 12 triangles
  EXPECT_NEAR(enclosed_volume(m), 6.0, 1e-12);  // flat faces: exact
  expect_outward(m);
}

TEST(ShapeMesh, RoundShapesApproachTheirVolume) {
  for (const ShapeDef& s : {sphere_shape(0.7), capsule_shape(0.3, 0.6)}) {
    const TriangleMesh m = shape_mesh(s, 64);
    // An inscribed polyhedron with 64 segments misses ~(pi/64)^2 ~ 0.3% of
    // the volume; a wrong winding or a missing band is off by far more.
    EXPECT_NEAR(enclosed_volume(m), shape_volume(s), 0.01 * shape_volume(s));
    EXPECT_LT(enclosed_volume(m), shape_volume(s));  // inscribed: always less
    expect_outward(m);
  }
}

TEST(ShapeMesh, PlaneFacesAlongItsNormal) {
  const TriangleMesh m = shape_mesh(plane_shape({0, 1, 0}, 2), 24, 10);
  ASSERT_EQ(m.indices.size(), 6u);
  for (const Vec3& n : m.normals) EXPECT_NEAR(n.y, 1.0, 1e-12);
  for (const Vec3& p : m.positions) EXPECT_NEAR(p.y, 2.0, 1e-12);
}

TEST(ShapeMesh, ColoursAreDistinct) {
  for (int i = 0; i < 20; ++i) {
    const Vec3 a = body_color(i, false), b = body_color(i + 1, false);
    EXPECT_GT(length(a - b), 0.1) << i;  // neighbours must be told apart
  }
}

}  // namespace
}  // namespace pabd

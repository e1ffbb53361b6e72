// Shape meshes drawn by the outputs: closed, outward-facing, right volume.
// OBJ triangle meshes read from hostile files: bounded, never blocking.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "shapes/mass_properties.h"
#include "shapes/shape_mesh.h"
#include "shapes/triangle_mesh.h"

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

// ---------------------------------------------------------------------------
// OBJ files (src/shapes/triangle_mesh_obj.cpp).

std::string scratch(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(PABD_TEST_OUTPUT_DIR) + "/shape_mesh_" + info->name() + "_" + name;
}

std::string write(const std::string& name, const std::string& text) {
  const std::string path = scratch(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// The message of the Error that reading `path` throws ("" if none).
std::string obj_error(const std::string& path) {
  std::vector<Vec3> v;
  std::vector<int> i;
  try {
    read_obj(path, v, i);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(ObjFile, MtllibIsNotRead) {
  // Before, "mtllib /dev/zero" read /dev/zero as a material file until memory ran
  // out (3.9 GB and more), and /dev/urandom never ended.
  for (const char* mtl : {"/dev/zero", "/dev/urandom", "missing.mtl"}) {
    SCOPED_TRACE(mtl);
    const std::string path = write("mesh.obj", std::string("mtllib ") + mtl +
                                                   "\nusemtl stone\nv 0 0 0\nv 1 0 0\nv 0 0 "
                                                   "1\nf 1 3 2\n");
    const auto start = std::chrono::steady_clock::now();
    std::vector<Vec3> v;
    std::vector<int> i;
    read_obj(path, v, i);
    EXPECT_EQ(v.size(), 3u);
    EXPECT_EQ(i, (std::vector<int>{0, 2, 1}));
    EXPECT_LT(seconds_since(start), 1.0);  // microseconds of work; 1 s for a loaded VM
  }
}

TEST(ObjFile, PathMustNameARegularFile) {
  const std::string fifo = scratch("mesh.fifo");
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);  // nobody writes to it: opening it must not wait
  const std::string dir = scratch("dir");
  std::filesystem::create_directories(dir);
  const struct {
    std::string path;
    const char* kind;
  } cases[] = {{"/dev/zero", "a character device"},
               {"/dev/urandom", "a character device"},
               {fifo, "a FIFO"},
               {dir, "a directory"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.path);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(obj_error(c.path), c.path + ": expected a regular file, got " + c.kind);
    EXPECT_LT(seconds_since(start), 1.0);  // a stat, no read
  }
  EXPECT_EQ(obj_error(scratch("missing.obj")),
            scratch("missing.obj") + ": cannot open the OBJ file");
  std::remove(fifo.c_str());
}

TEST(ObjFile, FileLargerThanTheLimitIsRefusedUnread) {
  // A sparse file one byte over 128 MiB: refused from its size, without reading it.
  const std::string path = scratch("huge.obj");
  { std::ofstream(path, std::ios::binary) << "v 0 0 0\n"; }
  std::filesystem::resize_file(path, kMaxObjFileBytes + 1);
  EXPECT_EQ(obj_error(path), path + ": expected the OBJ file to be at most 128 MiB, got " +
                                 std::to_string(kMaxObjFileBytes + 1) + " bytes");
  std::filesystem::remove(path);
}

TEST(ObjFile, FacesAreTriangulated) {
  std::vector<Vec3> v;
  std::vector<int> i;
  // A quad splits along its shorter diagonal (tinyobjloader's rule, kept): 1-3 is
  // shorter than 2-4 here, so the triangles share vertices 0 and 2.
  read_obj_text("v 0 0 0\nv 4 0 0\nv 1 0 1\nv 0 0 4\nf 1 2 3 4\n", "q", v, i);
  EXPECT_EQ(i, (std::vector<int>{0, 1, 2, 0, 2, 3}));
  // A pentagon is a fan from its first vertex; negative indices count back from
  // the last vertex read.
  read_obj_text("v 0 0 0\nv 1 0 0\nv 2 0 1\nv 1 0 2\nv 0 0 1\nf -5 -4 -3 -2 -1\n", "p", v, i);
  EXPECT_EQ(i, (std::vector<int>{0, 1, 2, 0, 2, 3, 0, 3, 4}));
  // Index 0 and indices past the vertices are refused by the mesh builder.
  read_obj_text("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n", "r", v, i);
  EXPECT_EQ(i.back(), -1);
  EXPECT_THROW(triangle_mesh_shape(v, i), Error);
  std::vector<Vec3> none;
  EXPECT_THROW(read_obj_text("v 0 0 0\n# no faces\n", "n", none, i), Error);
}

TEST(ObjFile, LargePolygonsTakeLinearTime) {
  // One face of 20,000 vertices (a convex circle): tinyobjloader's ear clipping is
  // cubic in the vertex count (minutes here); the fan is linear.
  constexpr int n = 20'000;
  std::ostringstream obj;
  for (int k = 0; k < n; ++k) {
    const double a = 2 * 3.141592653589793 * k / n;
    obj << "v " << std::cos(a) << " 0 " << -std::sin(a) << "\n";
  }
  obj << "f";
  for (int k = 1; k <= n; ++k) obj << " " << k;
  obj << "\n";
  const std::string text = obj.str();
  const auto start = std::chrono::steady_clock::now();
  std::vector<Vec3> v;
  std::vector<int> i;
  read_obj_text(text, "circle", v, i);
  EXPECT_EQ(i.size(), 3u * (n - 2));  // a fan: n - 2 triangles
  EXPECT_LT(seconds_since(start), 2.0);
}

}  // namespace
}  // namespace pabd

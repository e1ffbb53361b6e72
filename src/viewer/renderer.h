// OpenGL 3.3 drawing of a World: one vertex buffer per distinct shape mesh
// (src/shapes/shape_mesh.h), drawn per body with its model matrix and colour
// under simple directional lighting; the sand and water surfaces and the
// cloths, rewritten each frame (field_meshes.h; water blended over the rest);
// a ground grid; lines for joints, the last step's contacts and the mouse spring.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "pabd/world.h"
#include "viewer/camera.h"
#include "viewer/field_meshes.h"

namespace pabd::viewer {

/// What to draw besides the bodies.
struct DrawOptions {
  bool joints = true;       ///< joint end points and the lines between them
  bool contacts = false;    ///< the last step's contact points (crosses) and normals (lines)
  double grid_cell = 1;     ///< ground grid spacing [m] (40 cells each way)
  int highlight_body = -1;  ///< body index drawn brighter (the dragged one), or -1
  bool has_drag = false;    ///< draw the mouse spring from drag_body_point to drag_target
  Vec3 drag_body_point;     ///< world point of the spring's body end [m]
  Vec3 drag_target;         ///< world point of the spring's mouse end [m]
  float clear_color[3] = {0.13f, 0.14f, 0.17f};
};

/// Owns the GL objects; create and use it only while a context is current.
class Renderer {
 public:
  Renderer() = default;
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  /// Compiles the shaders and creates the buffers; false (and a message) on failure.
  bool init(std::string* error);
  /// Forgets the shape meshes (call when the World is replaced).
  void clear_meshes();
  /// Draws the world into the current framebuffer of size width x height.
  void draw(const World& world, const OrbitCamera& camera, int width, int height,
            const DrawOptions& options);
  /// Contact points drawn by the last draw() (0 when contacts are off).
  int contacts_drawn() const { return contacts_drawn_; }
  /// Sand and water surfaces drawn by the last draw().
  int surfaces_drawn() const { return fields_.surfaces(); }
  /// Cloths drawn by the last draw().
  int cloths_drawn() const { return fields_.cloths(); }

 private:
  struct GpuMesh {
    unsigned vao = 0, vbo = 0, ebo = 0;
    int index_count = 0;
  };
  struct LineVertex {
    float x, y, z, r, g, b;
  };

  const GpuMesh& mesh_for(const ShapeDef& shape);
  void add_line(Vec3 a, Vec3 b, Vec3 color);
  void add_cross(Vec3 p, double size, Vec3 color);
  void add_contacts(const World& world, double size);
  void draw_lines(const Mat4& view_proj);
  void draw_fields(bool translucent);

  std::map<std::string, GpuMesh> meshes_;
  FieldMeshes fields_;
  std::vector<LineVertex> lines_;
  unsigned mesh_program_ = 0, line_program_ = 0;
  unsigned line_vao_ = 0, line_vbo_ = 0;
  int contacts_drawn_ = 0;
  int mesh_view_proj_ = -1, mesh_model_ = -1, mesh_color_ = -1, mesh_light_ = -1,
      mesh_highlight_ = -1, mesh_alpha_ = -1, mesh_two_sided_ = -1, line_view_proj_ = -1;
};

}  // namespace pabd::viewer

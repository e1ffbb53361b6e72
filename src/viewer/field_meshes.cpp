// The viewer's surface and cloth meshes (see field_meshes.h).

#include "viewer/field_meshes.h"

#include "output/surface_mesh.h"
#include "viewer/gl.h"

namespace pabd::viewer {

FieldMeshes::~FieldMeshes() { clear(); }

void FieldMeshes::clear() {
  for (Mesh& m : meshes_) {
    glDeleteBuffers(1, &m.vbo);
    glDeleteBuffers(1, &m.ebo);
    glDeleteVertexArrays(1, &m.vao);
  }
  meshes_.clear();
  cloth_particles_.clear();
  cloth_triangles_.clear();
  drawn_body_.clear();
  body_count_ = -1;
  surfaces_ = cloths_ = 0;
}

FieldMeshes::Mesh FieldMeshes::make_mesh(int vertices,
                                         const std::vector<std::uint32_t>& indices) const {
  Mesh m;
  m.vertex_count = vertices;
  m.index_count = static_cast<int>(indices.size());
  glGenVertexArrays(1, &m.vao);
  glGenBuffers(1, &m.vbo);
  glGenBuffers(1, &m.ebo);
  glBindVertexArray(m.vao);
  glBindBuffer(GL_ARRAY_BUFFER, m.vbo);
  // Rewritten every frame; the indices stay.
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(std::size_t(vertices) * 6 * sizeof(float)),
               nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m.ebo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER,
               static_cast<GLsizeiptr>(indices.size() * sizeof(std::uint32_t)), indices.data(),
               GL_STATIC_DRAW);
  set_position_normal_layout();
  glBindVertexArray(0);
  return m;
}

void FieldMeshes::build(const World& world) {
  clear();
  body_count_ = world.body_count();
  drawn_body_.assign(std::size_t(body_count_), 0);
  for (int i = 0; i < world.surface_count(); ++i) {
    const SurfaceInfo s = world.surface(i);
    Mesh m = make_mesh(s.columns * s.rows, grid_triangles(s.columns, s.rows));
    const bool water = s.kind == SurfaceKind::Water;
    m.color = water ? kWaterColor : kSandColor;
    m.opacity = water ? static_cast<float>(kWaterOpacity) : 1.0f;
    m.two_sided = water;
    meshes_.push_back(m);
    // The sand's surface is a static height-field body of the same name.
    if (!water) {
      try {
        const BodyId sand = world.find_body(s.name);
        if (world.body_shape(sand).type == ShapeType::HeightField)
          drawn_body_[std::size_t(sand.index)] = 1;
      } catch (const Error&) {
      }
    }
  }
  for (int i = 0; i < world.cloth_count(); ++i) {
    const ClothInfo c = world.cloth(i);
    std::vector<std::uint32_t> triangles(c.triangles.begin(), c.triangles.end());
    Mesh m = make_mesh(static_cast<int>(c.particles.size()), triangles);
    m.color = kClothColor;
    m.two_sided = true;
    m.cloth = i;
    meshes_.push_back(m);
    for (int slot : c.particles)
      if (slot >= 0 && slot < body_count_) drawn_body_[std::size_t(slot)] = 1;
    cloth_particles_.push_back(c.particles);
    cloth_triangles_.push_back(std::move(triangles));
  }
}

void FieldMeshes::upload(const Mesh& m) {
  glBindBuffer(GL_ARRAY_BUFFER, m.vbo);
  glBufferSubData(GL_ARRAY_BUFFER, 0,
                  static_cast<GLsizeiptr>(std::size_t(m.vertex_count) * 6 * sizeof(float)),
                  vertices_.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void FieldMeshes::update(const World& world) {
  // Surfaces and cloths are only ever added (with bodies): counts tell a change.
  if (body_count_ != world.body_count() ||
      meshes_.size() != std::size_t(world.surface_count() + world.cloth_count()))
    build(world);
  surfaces_ = cloths_ = 0;
  for (std::size_t k = 0; k < meshes_.size(); ++k) {
    Mesh& m = meshes_[k];
    m.shown = false;
    const std::size_t n = std::size_t(m.vertex_count);
    vertices_.resize(6 * n);
    if (m.cloth < 0) {
      const SurfaceInfo s = world.surface(static_cast<int>(k));
      if (s.height.size() != n) continue;  // a grid never changes size; but never read past it
      grid_vertices(GridLayout{s.columns, s.rows, s.spacing, s.x0, s.z0}, s.height.data(),
                    vertices_.data(), vertices_.data() + 3, 6);
      ++surfaces_;
    } else {
      const std::vector<int>& particles = cloth_particles_[std::size_t(m.cloth)];
      positions_.resize(3 * n);
      bool whole = true;  // a cloth that lost a particle (World::remove_body) is not drawn
      for (std::size_t v = 0; v < n && whole; ++v) {
        const BodyId id = world.body_at(particles[v]);
        whole = world.is_valid(id);
        if (!whole) break;
        const Vec3 p = world.body_state(id).position;
        positions_[3 * v] = static_cast<float>(p.x);
        positions_[3 * v + 1] = static_cast<float>(p.y);
        positions_[3 * v + 2] = static_cast<float>(p.z);
      }
      if (!whole) continue;
      mesh_normals(positions_, cloth_triangles_[std::size_t(m.cloth)], normals_);
      for (std::size_t v = 0; v < n; ++v)
        for (std::size_t c = 0; c < 3; ++c) {
          vertices_[6 * v + c] = positions_[3 * v + c];
          vertices_[6 * v + 3 + c] = normals_[3 * v + c];
        }
      ++cloths_;
    }
    upload(m);
    m.shown = true;
  }
}

}  // namespace pabd::viewer

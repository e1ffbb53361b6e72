// The viewer's meshes of the World's sand and water surfaces and cloths, which
// change every step. Each has its own vertex buffer (positions and normals,
// interleaved) and index buffer: the indices are uploaded once, and each frame
// only the vertices are rewritten (glBufferSubData from a scratch array kept
// between frames), from World::surface (the grid as it stands) and from the
// cloth particles' positions. The bodies they draw (the sand's height field,
// whose own mesh would show its first heights, and the cloth particles) are
// skipped by the renderer.
#pragma once

#include <cstdint>
#include <vector>

#include "pabd/world.h"

namespace pabd::viewer {

/// Owns GL objects: create, update and destroy it while a context is current.
class FieldMeshes {
 public:
  /// A mesh to draw with the renderer's mesh program (world coordinates).
  struct Mesh {
    unsigned vao = 0, vbo = 0, ebo = 0;
    int index_count = 0;
    int vertex_count = 0;
    Vec3 color;              ///< RGB in [0, 1]
    float opacity = 1;       ///< < 1: drawn blended, after the opaque things
    bool two_sided = false;  ///< lit from whichever side is seen (cloth, water)
    int cloth = -1;          ///< World::cloth index, or -1 for a surface
    bool shown = false;      ///< the last update wrote it (draw it)
  };

  FieldMeshes() = default;
  ~FieldMeshes();
  FieldMeshes(const FieldMeshes&) = delete;
  FieldMeshes& operator=(const FieldMeshes&) = delete;

  /// Forgets every mesh (call when the World is replaced by another scene's).
  void clear();
  /// Brings every mesh to the world's current state (once per frame).
  void update(const World& world);
  /// Whether a surface or cloth draws body slot `slot` (its own mesh is not drawn).
  bool draws_body(int slot) const {
    return slot >= 0 && slot < int(drawn_body_.size()) && drawn_body_[std::size_t(slot)];
  }
  const std::vector<Mesh>& meshes() const { return meshes_; }
  int surfaces() const { return surfaces_; }  ///< surfaces drawn by the last update
  int cloths() const { return cloths_; }      ///< cloths drawn by the last update

 private:
  void build(const World& world);
  Mesh make_mesh(int vertices, const std::vector<std::uint32_t>& indices) const;
  void upload(const Mesh& m);

  std::vector<Mesh> meshes_;                       // surfaces, then cloths
  std::vector<std::vector<int>> cloth_particles_;  // body slot per cloth vertex
  std::vector<std::vector<std::uint32_t>> cloth_triangles_;
  std::vector<char> drawn_body_;  // per body slot
  int body_count_ = -1;           // the World's when built
  int surfaces_ = 0, cloths_ = 0;
  // Scratch kept between frames: interleaved vertices, a cloth's positions and normals.
  std::vector<float> vertices_, positions_, normals_;
};

}  // namespace pabd::viewer

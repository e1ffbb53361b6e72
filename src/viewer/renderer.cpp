// OpenGL 3.3 core renderer (see renderer.h).

#include "viewer/renderer.h"

#include <cmath>
#include <cstdio>

#include "shapes/shape_mesh.h"
#include "viewer/gl.h"

namespace pabd::viewer {
namespace {

constexpr const char* kMeshVertex = R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
uniform mat4 u_view_proj;
uniform mat4 u_model;
out vec3 v_normal;
void main() {
  v_normal = mat3(u_model) * a_normal;  // rigid model matrix: no inverse transpose needed
  gl_Position = u_view_proj * (u_model * vec4(a_position, 1.0));
}
)";

constexpr const char* kMeshFragment = R"(#version 330 core
in vec3 v_normal;
uniform vec3 u_color;
uniform vec3 u_light_dir;  // direction the light travels, unit
uniform float u_highlight;
uniform float u_alpha;      // opacity (water)
uniform float u_two_sided;  // 1: the side seen is lit as the front (cloth, water)
out vec4 frag_color;
void main() {
  vec3 n = normalize(v_normal);
  if (u_two_sided > 0.5 && !gl_FrontFacing) n = -n;
  float diffuse = max(dot(n, -u_light_dir), 0.0);
  float sky = 0.5 + 0.5 * n.y;  // a little hemisphere ambient so shaded sides keep their shape
  vec3 c = u_color * (0.22 + 0.18 * sky + 0.65 * diffuse);
  frag_color = vec4(mix(c, vec3(1.0), 0.3 * u_highlight), u_alpha);
}
)";

constexpr const char* kLineVertex = R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_color;
uniform mat4 u_view_proj;
out vec3 v_color;
void main() {
  v_color = a_color;
  gl_Position = u_view_proj * vec4(a_position, 1.0);
}
)";

constexpr const char* kLineFragment = R"(#version 330 core
in vec3 v_color;
out vec4 frag_color;
void main() { frag_color = vec4(v_color, 1.0); }
)";

unsigned compile(GLenum type, const char* source, std::string* error) {
  const GLuint s = glCreateShader(type);
  glShaderSource(s, 1, &source, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    *error = std::string("shader compile failed: ") + log;
    glDeleteShader(s);
    return 0;
  }
  return s;
}

unsigned link_program(const char* vs, const char* fs, std::string* error) {
  const unsigned v = compile(GL_VERTEX_SHADER, vs, error);
  if (!v) return 0;
  const unsigned f = compile(GL_FRAGMENT_SHADER, fs, error);
  if (!f) {
    glDeleteShader(v);
    return 0;
  }
  const GLuint p = glCreateProgram();
  glAttachShader(p, v);
  glAttachShader(p, f);
  glLinkProgram(p);
  glDeleteShader(v);
  glDeleteShader(f);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetProgramInfoLog(p, sizeof log, nullptr, log);
    *error = std::string("shader link failed: ") + log;
    glDeleteProgram(p);
    return 0;
  }
  return p;
}

/// Key that identifies a shape's mesh: bodies with equal shapes share a buffer.
std::string shape_key(const ShapeDef& s) {
  char buf[256];
  // Built shapes (hull, compound, height field, mesh) are told apart by their data.
  std::snprintf(buf, sizeof buf, "%d %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %p",
                static_cast<int>(s.type), s.size.x, s.size.y, s.size.z, s.radius, s.half_height,
                s.normal.x, s.normal.y, s.normal.z, s.offset,
                static_cast<const void*>(s.data.get()));
  return buf;
}

/// Contact colours: orange where the contact pushed in the last step, grey-blue
/// where it is only speculative. Both are more saturated than any body colour
/// (body_color's saturation is 0.65), so they stand out on every body.
constexpr Vec3 kContactPushing{1.0, 0.35, 0.12};
constexpr Vec3 kContactSpeculative{0.5, 0.61, 0.75};

Mat4 model_matrix(const BodyState& s) {
  const Mat3 r = to_matrix(s.orientation);
  Mat4 m;
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col) m.m[col * 4 + row] = static_cast<float>(r.m[row][col]);
  m.m[12] = static_cast<float>(s.position.x);
  m.m[13] = static_cast<float>(s.position.y);
  m.m[14] = static_cast<float>(s.position.z);
  m.m[15] = 1;
  return m;
}

/// The identity: surfaces and cloths are meshes in world coordinates.
Mat4 identity4() {
  Mat4 m;
  for (int k = 0; k < 16; ++k) m.m[std::size_t(k)] = k % 5 == 0 ? 1.0f : 0.0f;
  return m;
}

}  // namespace

Renderer::~Renderer() {
  clear_meshes();
  if (line_vbo_) glDeleteBuffers(1, &line_vbo_);
  if (line_vao_) glDeleteVertexArrays(1, &line_vao_);
  if (mesh_program_) glDeleteProgram(mesh_program_);
  if (line_program_) glDeleteProgram(line_program_);
}

bool Renderer::init(std::string* error) {
  mesh_program_ = link_program(kMeshVertex, kMeshFragment, error);
  if (!mesh_program_) return false;
  line_program_ = link_program(kLineVertex, kLineFragment, error);
  if (!line_program_) return false;
  mesh_view_proj_ = glGetUniformLocation(mesh_program_, "u_view_proj");
  mesh_model_ = glGetUniformLocation(mesh_program_, "u_model");
  mesh_color_ = glGetUniformLocation(mesh_program_, "u_color");
  mesh_light_ = glGetUniformLocation(mesh_program_, "u_light_dir");
  mesh_highlight_ = glGetUniformLocation(mesh_program_, "u_highlight");
  mesh_alpha_ = glGetUniformLocation(mesh_program_, "u_alpha");
  mesh_two_sided_ = glGetUniformLocation(mesh_program_, "u_two_sided");
  line_view_proj_ = glGetUniformLocation(line_program_, "u_view_proj");

  glGenVertexArrays(1, &line_vao_);
  glGenBuffers(1, &line_vbo_);
  glBindVertexArray(line_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        reinterpret_cast<const void*>(3 * sizeof(float)));
  glBindVertexArray(0);
  return true;
}

void Renderer::clear_meshes() {
  for (auto& [key, m] : meshes_) {
    glDeleteBuffers(1, &m.vbo);
    glDeleteBuffers(1, &m.ebo);
    glDeleteVertexArrays(1, &m.vao);
  }
  meshes_.clear();
  fields_.clear();
}

const Renderer::GpuMesh& Renderer::mesh_for(const ShapeDef& shape) {
  const std::string key = shape_key(shape);
  auto it = meshes_.find(key);
  if (it != meshes_.end()) return it->second;

  const TriangleMesh tm = shape_mesh(shape, 24, 40);
  std::vector<float> vertices;
  vertices.reserve(tm.positions.size() * 6);
  for (std::size_t i = 0; i < tm.positions.size(); ++i) {
    const Vec3 p = tm.positions[i], n = tm.normals[i];
    for (double v : {p.x, p.y, p.z, n.x, n.y, n.z}) vertices.push_back(static_cast<float>(v));
  }
  GpuMesh m;
  m.index_count = static_cast<int>(tm.indices.size());
  glGenVertexArrays(1, &m.vao);
  glGenBuffers(1, &m.vbo);
  glGenBuffers(1, &m.ebo);
  glBindVertexArray(m.vao);
  glBindBuffer(GL_ARRAY_BUFFER, m.vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(float)),
               vertices.data(), GL_STATIC_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m.ebo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER,
               static_cast<GLsizeiptr>(tm.indices.size() * sizeof(std::uint32_t)),
               tm.indices.data(), GL_STATIC_DRAW);
  set_position_normal_layout();
  glBindVertexArray(0);
  return meshes_.emplace(key, m).first->second;
}

void Renderer::add_line(Vec3 a, Vec3 b, Vec3 c) {
  const float r = static_cast<float>(c.x), g = static_cast<float>(c.y),
              bl = static_cast<float>(c.z);
  lines_.push_back(
      {static_cast<float>(a.x), static_cast<float>(a.y), static_cast<float>(a.z), r, g, bl});
  lines_.push_back(
      {static_cast<float>(b.x), static_cast<float>(b.y), static_cast<float>(b.z), r, g, bl});
}

void Renderer::add_cross(Vec3 p, double s, Vec3 c) {
  add_line(p - Vec3{s, 0, 0}, p + Vec3{s, 0, 0}, c);
  add_line(p - Vec3{0, s, 0}, p + Vec3{0, s, 0}, c);
  add_line(p - Vec3{0, 0, s}, p + Vec3{0, 0, s}, c);
}

void Renderer::add_contacts(const World& world, double size) {
  // A cross at the midpoint of the two surface points and the normal, from
  // body_a toward body_b, five crosses long.
  const int n = world.contact_count();
  for (int c = 0; c < n; ++c) {
    const ContactInfo info = world.contact(c);
    const Vec3 p = 0.5 * (info.point_a + info.point_b);
    const Vec3 color = info.normal_force > 0 ? kContactPushing : kContactSpeculative;
    add_cross(p, size, color);
    add_line(p, p + (5 * size) * info.normal, color);
  }
  contacts_drawn_ = n;
}

void Renderer::draw_lines(const Mat4& view_proj) {
  if (lines_.empty()) return;
  glUseProgram(line_program_);
  glUniformMatrix4fv(line_view_proj_, 1, GL_FALSE, view_proj.m.data());
  glBindVertexArray(line_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(lines_.size() * sizeof(LineVertex)),
               lines_.data(), GL_STREAM_DRAW);
  glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(lines_.size()));
  glBindVertexArray(0);
  lines_.clear();
}

void Renderer::draw_fields(bool translucent) {
  const Mat4 model = identity4();
  glUniformMatrix4fv(mesh_model_, 1, GL_FALSE, model.m.data());
  glUniform1f(mesh_highlight_, 0.0f);
  for (const FieldMeshes::Mesh& m : fields_.meshes()) {
    if (!m.shown || (m.opacity < 1) != translucent) continue;
    glUniform3f(mesh_color_, static_cast<float>(m.color.x), static_cast<float>(m.color.y),
                static_cast<float>(m.color.z));
    glUniform1f(mesh_alpha_, m.opacity);
    glUniform1f(mesh_two_sided_, m.two_sided ? 1.0f : 0.0f);
    glBindVertexArray(m.vao);
    glDrawElements(GL_TRIANGLES, m.index_count, GL_UNSIGNED_INT, nullptr);
  }
  glBindVertexArray(0);
  glUniform1f(mesh_alpha_, 1.0f);
  glUniform1f(mesh_two_sided_, 0.0f);
}

void Renderer::draw(const World& world, const OrbitCamera& camera, int width, int height,
                    const DrawOptions& options) {
  glViewport(0, 0, width, height);
  glClearColor(options.clear_color[0], options.clear_color[1], options.clear_color[2], 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);

  const double aspect = static_cast<double>(width) / (height > 0 ? height : 1);
  const Mat4 view_proj = multiply(camera.projection(aspect), camera.view());

  // Bodies.
  glUseProgram(mesh_program_);
  glUniformMatrix4fv(mesh_view_proj_, 1, GL_FALSE, view_proj.m.data());
  const float light[3] = {-0.35f, -0.85f, -0.4f};
  const float inv =
      1.0f / std::sqrt(light[0] * light[0] + light[1] * light[1] + light[2] * light[2]);
  glUniform3f(mesh_light_, light[0] * inv, light[1] * inv, light[2] * inv);
  glUniform1f(mesh_alpha_, 1.0f);
  glUniform1f(mesh_two_sided_, 0.0f);
  fields_.update(world);
  // A ground plane would hide the grid drawn at the same height: push it back a little.
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(1.0f, 1.0f);
  for (int i = 0; i < world.body_count(); ++i) {
    const BodyId id = world.body_at(i);
    if (!world.is_valid(id)) continue;    // removed
    if (fields_.draws_body(i)) continue;  // a surface or cloth shows it
    const GpuMesh& m = mesh_for(world.body_shape(id));
    const Mat4 model = model_matrix(world.body_state(id));
    const Vec3 c = body_color(i, world.is_static(id));
    glUniformMatrix4fv(mesh_model_, 1, GL_FALSE, model.m.data());
    glUniform3f(mesh_color_, static_cast<float>(c.x), static_cast<float>(c.y),
                static_cast<float>(c.z));
    glUniform1f(mesh_highlight_, i == options.highlight_body ? 1.0f : 0.0f);
    glBindVertexArray(m.vao);
    glDrawElements(GL_TRIANGLES, m.index_count, GL_UNSIGNED_INT, nullptr);
  }
  glBindVertexArray(0);
  draw_fields(false);  // sand (level with the grid, like a ground plane) and cloth, opaque
  glDisable(GL_POLYGON_OFFSET_FILL);

  // Ground grid on y = 0: 40 cells of options.grid_cell each way (1 m over
  // 40 m for a metre-sized scene), the X axis red and the Z axis blue.
  constexpr int kHalf = 20;
  const double g = options.grid_cell;
  for (int k = -kHalf; k <= kHalf; ++k) {
    const Vec3 gx = k == 0 ? Vec3{0.2, 0.35, 0.75} : Vec3{0.3, 0.31, 0.34};
    const Vec3 gz = k == 0 ? Vec3{0.75, 0.25, 0.25} : Vec3{0.3, 0.31, 0.34};
    add_line({k * g, 0, -kHalf * g}, {k * g, 0, kHalf * g}, gx);
    add_line({-kHalf * g, 0, k * g}, {kHalf * g, 0, k * g}, gz);
  }
  draw_lines(view_proj);

  // Water over everything opaque, without hiding what lies under it from
  // itself (no depth writes).
  glUseProgram(mesh_program_);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);
  draw_fields(true);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);

  // Joints: a line from each body's centre to its end point, the end points
  // (crosses) and the line between the two ends (long for springs). Drawn over
  // the bodies so joints inside a shape stay visible.
  glDisable(GL_DEPTH_TEST);
  if (options.joints) {
    const double cross = 0.04 * camera.distance / 8;
    for (int j = 0; j < world.joint_count(); ++j) {
      const JointId id = world.joint_at(j);
      if (!world.is_valid(id)) continue;
      const JointInfo info = world.joint_info(id);
      // A cloth's own edges and bends: its mesh shows them.
      if (!info.body_a.is_world() && !info.body_b.is_world() &&
          fields_.draws_body(int(info.body_a.index)) && fields_.draws_body(int(info.body_b.index)))
        continue;
      const Vec3 color =
          info.kind == JointKind::Spring ? Vec3{0.95, 0.8, 0.25} : Vec3{0.95, 0.95, 0.95};
      if (!info.body_a.is_world())
        add_line(world.body_state(info.body_a).position, info.world_a, {0.6, 0.6, 0.65});
      if (!info.body_b.is_world())
        add_line(world.body_state(info.body_b).position, info.world_b, {0.6, 0.6, 0.65});
      add_line(info.world_a, info.world_b, color);
      add_cross(info.world_a, cross, color);
      add_cross(info.world_b, cross, color);
    }
  }
  contacts_drawn_ = 0;
  if (options.contacts) add_contacts(world, 0.008 * camera.distance);  // ~7 px arms
  if (options.has_drag) {
    add_line(options.drag_body_point, options.drag_target, {1.0, 0.35, 0.9});
    add_cross(options.drag_target, 0.05 * camera.distance / 8, {1.0, 0.35, 0.9});
  }
  draw_lines(view_proj);
  glEnable(GL_DEPTH_TEST);
}

}  // namespace pabd::viewer

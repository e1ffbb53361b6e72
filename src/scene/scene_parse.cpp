// Scene files: JSON text -> validated pabd::Scene (docs/scene-format.md).
//
// Two passes. First a SAX handler builds the JSON tree while it keeps the JSON
// Pointer of the value being read, so that the problems the JSON library reports
// without a location (a number too large for a double, a key written twice) can
// still be reported at their path. Then a strict reader walks the tree: every
// object's keys are checked against the keys the format allows, every value is
// type-checked and range-checked, and defaults come from default_body_def() and
// default_world_def() so they are defined in one place.
//
// Every problem throws SceneError with one line "FILE: /json/pointer: expected ...".

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "pabd/scene.h"
#include "scene/robot_model.h"
#include "scene/scene_arrays.h"
#include "scene/scene_fields.h"
#include "scene/scene_limits.h"
#include "scene/scene_reader.h"
#include "world/world_validation.h"

namespace pabd {
namespace {

using nlohmann::json;
using namespace scene_reader;

// ---------------------------------------------------------------------------
// Pass 1: SAX handler that builds the tree and tracks the current path.
//
// Each open container keeps only its own reference token; a path is joined
// from the stack when an error needs one, so a long key is never copied once
// per level below it. Nesting deeper than kMaxJsonDepth stops the parse.

class TreeBuilder {
 public:
  explicit TreeBuilder(json& root) : root_(root) {}

  bool null() { return add(json(nullptr)); }
  bool boolean(bool v) { return add(json(v)); }
  bool number_integer(json::number_integer_t v) { return add(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return add(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t& /*text*/) { return add(json(v)); }
  bool string(json::string_t& v) { return add(json(std::move(v))); }
  bool binary(json::binary_t& /*v*/) { return add(json(nullptr)); }  // never in JSON text
  bool start_object(std::size_t /*n*/) { return open(json::object()); }
  bool start_array(std::size_t /*n*/) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(json::string_t& k) {
    Frame& top = stack_.back();
    top.key = k;
    if (top.node->contains(k)) {
      error_path = next_path();
      error_kind = Error::DuplicateKey;
      return false;  // stops the parse
    }
    return true;
  }

  bool parse_error(std::size_t position, const std::string& token,
                   const nlohmann::detail::exception& ex) {
    error_position = position;
    error_token = token;
    error_message = ex.what();
    error_path = next_path();
    // 406 is the library's "number overflow" (e.g. 1e999): a value error, not a syntax error.
    error_kind = ex.id == 406 ? Error::NumberOverflow : Error::Syntax;
    return false;
  }

  enum class Error { None, Syntax, NumberOverflow, DuplicateKey, TooDeep };
  Error error_kind = Error::None;
  std::string error_path;
  std::size_t error_position = 0;
  std::string error_token;
  std::string error_message;

 private:
  struct Frame {
    json* node;         // the open object or array
    std::string token;  // its reference token in its parent ("" for the root)
    std::string key;    // objects: key of the value that comes next
  };

  /// Reference token, in the open container, of the value the next event creates.
  std::string next_token() const {
    const Frame& top = stack_.back();
    return top.node->is_array() ? std::to_string(top.node->size()) : top.key;
  }

  /// JSON Pointer of the value that the next event will create.
  std::string next_path() const {
    if (stack_.empty()) return "";
    std::string path;
    for (std::size_t i = 1; i < stack_.size(); ++i) path = child(path, stack_[i].token);
    return child(path, next_token());
  }

  /// Places a finished value in the open container (or as the root).
  json* insert(json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& top = stack_.back();
    if (top.node->is_array()) {
      top.node->push_back(std::move(v));
      return &top.node->back();
    }
    json& slot = (*top.node)[top.key];
    slot = std::move(v);
    return &slot;
  }

  bool add(json&& v) {
    insert(std::move(v));
    return true;
  }
  bool open(json&& container) {
    if (stack_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
      error_path = next_path();
      error_kind = Error::TooDeep;
      return false;  // stops the parse before the stack grows further
    }
    std::string token = stack_.empty() ? std::string() : next_token();
    stack_.push_back({insert(std::move(container)), std::move(token), {}});
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }

  json& root_;
  std::vector<Frame> stack_;
};

/// Line and column (1-based) of the character just before byte `position`.
std::pair<std::size_t, std::size_t> line_column(const std::string& text, std::size_t position) {
  std::size_t line = 1, column = 0;
  for (std::size_t i = 0; i < position && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 0;
    } else {
      ++column;
    }
  }
  return {line, column};
}

/// The library's message without its "[json.exception...] parse error at line L, column C: ".
std::string syntax_detail(const std::string& message) {
  const std::size_t at = message.find("parse error");
  std::size_t start = at == std::string::npos ? 0 : message.find(": ", at);
  start = start == std::string::npos ? 0 : start + 2;
  return message.substr(start);
}

[[noreturn]] void fail_syntax(const std::string& file, const std::string& text,
                              std::size_t position, const std::string& detail) {
  const auto [line, column] = line_column(text, position);
  throw SceneError(one_line(file + ": line " + std::to_string(line) + ", column " +
                            std::to_string(column) + ": expected valid JSON (" + detail + ")"));
}

json parse_tree(const std::string& text, const std::string& file) {
  if (text.size() > kMaxSceneBytes)
    fail(file, "",
         "expected a scene of at most " + std::to_string(kMaxSceneBytes >> 20) + " MiB, got " +
             std::to_string(text.size()) + " bytes");
  // The JSON library reads a NUL byte as the end of the input, so a valid scene
  // followed by a NUL and anything at all would pass. JSON text never holds one
  // (in strings it is written \u0000).
  const std::size_t nul = text.find('\0');
  if (nul != std::string::npos)
    fail_syntax(file, text, nul + 1,
                "a NUL byte at byte " + std::to_string(nul) + ", which JSON text never contains");
  json root;
  TreeBuilder builder(root);
  // strict: anything but white space after the document is an error.
  if (json::sax_parse(text, &builder, json::input_format_t::json, /*strict=*/true)) return root;
  using E = TreeBuilder::Error;
  if (builder.error_kind == E::TooDeep)
    fail(file, builder.error_path,
         "expected arrays and objects nested at most " + std::to_string(kMaxJsonDepth) +
             " deep, got deeper");
  if (builder.error_kind == E::DuplicateKey)
    fail(file, builder.error_path, "expected each key once in an object, got a repeated key");
  if (builder.error_kind == E::NumberOverflow)
    fail(file, builder.error_path,
         "expected a finite number, got " + one_line(builder.error_token, 40));
  fail_syntax(file, text, builder.error_position, syntax_detail(builder.error_message));
}

// ---------------------------------------------------------------------------
// Pass 2: the strict reader (scene_reader.h), section by section.

void read_settings(const Reader& r, const json& s, const std::string& path, Scene& scene) {
  r.check_object(s, path, "an object",
                 {"dt", "iterations", "gravity", "steps", "augmented_lagrangian", "solver",
                  "iteration_order", "chebyshev_rho", "relaxation", "hard_stiffness_mass_ratio",
                  "avbd_stabilization", "max_rotation_per_step", "local_step", "device"});
  WorldDef& w = scene.settings;
  r.opt_number(s, path, "dt", Range::Positive, w.dt);
  if (s.contains("iterations"))
    w.iterations = static_cast<int>(
        r.integer(s.at("iterations"), child(path, "iterations"), 1, kMaxIterations));
  r.opt_vec3(s, path, "gravity", w.gravity);
  if (s.contains("augmented_lagrangian"))
    w.augmented_lagrangian =
        r.boolean(s.at("augmented_lagrangian"), child(path, "augmented_lagrangian"));
  opt_choice(r, s, path, "solver", {{"pabd", SolverKind::Pabd}, {"avbd", SolverKind::Avbd}},
             w.solver);
  opt_choice(r, s, path, "device", {{"cpu", Device::Cpu}, {"cuda", Device::Cuda}}, w.device);
  opt_choice(r, s, path, "iteration_order",
             {{"jacobi", IterationOrder::Jacobi}, {"colored", IterationOrder::Colored}},
             w.iteration_order);
  opt_choice(r, s, path, "local_step", {{"rigid", LocalStep::Rigid}, {"paper", LocalStep::Paper}},
             w.local_step);
  r.opt_number(s, path, "chebyshev_rho", Range::NonNegative, w.chebyshev_rho);
  if (!(w.chebyshev_rho < 1))
    r.fail_at(child(path, "chebyshev_rho"),
              "expected a number in [0, 1), got " + describe(s.at("chebyshev_rho")));
  r.opt_number(s, path, "relaxation", Range::Positive, w.relaxation);
  if (!(w.relaxation <= kMaxRelaxation))
    r.fail_at(child(path, "relaxation"),
              "expected a number in (0, 1.5], got " + describe(s.at("relaxation")));
  r.opt_number(s, path, "max_rotation_per_step", Range::Positive, w.max_rotation_per_step);
  if (!(w.max_rotation_per_step <= 3.141592653589793))
    r.fail_at(child(path, "max_rotation_per_step"),
              "expected a number in (0, pi], got " + describe(s.at("max_rotation_per_step")));
  r.opt_number(s, path, "hard_stiffness_mass_ratio", Range::NonNegative,
               w.hard_stiffness_mass_ratio);
  opt_choice(r, s, path, "avbd_stabilization",
             {{"post", AvbdStabilization::Post},
              {"alpha", AvbdStabilization::Alpha},
              {"off", AvbdStabilization::Off}},
             w.avbd_stabilization);
  if (s.contains("steps"))
    scene.steps = static_cast<long>(
        r.integer(s.at("steps"), child(path, "steps"), 1, std::numeric_limits<long>::max()));
}

// Hull, compound, height field and triangle mesh shapes (docs/scene-format.md).
// Their builders throw pabd::Error "what: message"; the message is reported at
// the key it is about.

ShapeDef read_shape(const Reader& r, const json& s, const std::string& path, bool is_static);

/// e.what() without a leading "prefix: ".
std::string without_prefix(const Error& e, const std::string& prefix) {
  const std::string what = e.what();
  return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
}

/// A static-only shape on a dynamic body is reported at its type.
void require_static(const Reader& r, const std::string& path, bool is_static, const char* what) {
  if (!is_static)
    r.fail_at(child(path, "type"),
              std::string("expected ") + what + " only on a static body (add \"static\": true)");
}

ShapeDef read_convex_hull(const Reader& r, const json& s, const std::string& path) {
  r.check_object(s, path, "a shape object", {"type", "points"});
  const std::string points_path = child(path, "points");
  const json& points = r.required(s, path, "points", "an array of at least 4 points [x, y, z]");
  if (!points.is_array())
    r.fail_at(points_path,
              "expected an array of at least 4 points [x, y, z], got " + describe(points));
  std::vector<Vec3> p;
  for (std::size_t i = 0; i < points.size(); ++i)
    p.push_back(r.vec3(points[i], child(points_path, i)));
  try {
    return convex_hull_shape(p);
  } catch (const Error& e) {
    r.fail_at(points_path, without_prefix(e, "convex hull: "));
  }
}

ShapeDef read_compound(const Reader& r, const json& s, const std::string& path, bool is_static) {
  r.check_object(s, path, "a shape object", {"type", "children"});
  const std::string children_path = child(path, "children");
  const json& children = r.required(s, path, "children", "an array of child objects");
  if (!children.is_array() || children.empty())
    r.fail_at(children_path,
              "expected a non-empty array of child objects, got " + describe(children));
  std::vector<CompoundChild> parts;
  for (std::size_t i = 0; i < children.size(); ++i) {
    const std::string cp = child(children_path, i);
    const json& c = children[i];
    r.check_object(c, cp, "a child object", {"shape", "position", "orientation"});
    const json& shape = r.required(c, cp, "shape", "a shape object");
    const std::string shape_path = child(cp, "shape");
    // Only convex children: check the type before reading the rest.
    if (shape.is_object() && shape.contains("type") && shape.at("type").is_string()) {
      const std::string t = shape.at("type").get<std::string>();
      if (t != "box" && t != "sphere" && t != "capsule" && t != "convex_hull")
        r.fail_at(child(shape_path, "type"),
                  "expected a convex child shape (box, sphere, capsule, convex_hull), got " +
                      describe(shape.at("type")));
    }
    CompoundChild part;
    part.shape = read_shape(r, shape, shape_path, is_static);
    r.opt_vec3(c, cp, "position", part.position);
    if (c.contains("orientation"))
      part.orientation = r.quaternion(c.at("orientation"), child(cp, "orientation"));
    parts.push_back(std::move(part));
  }
  try {
    return compound_shape(parts);
  } catch (const Error& e) {
    r.fail_at(children_path, without_prefix(e, "compound: "));
  }
}

ShapeDef read_height_field(const Reader& r, const json& s, const std::string& path,
                           bool is_static) {
  r.check_object(s, path, "a shape object", {"type", "columns", "rows", "spacing", "heights"});
  require_static(r, path, is_static, "a height field");
  const long long limit = 1 << 20;  // per side: larger grids are surely a mistake
  const int columns = static_cast<int>(
      r.integer(r.required(s, path, "columns", "an integer >= 2 (grid vertices along x)"),
                child(path, "columns"), 2, limit));
  const int rows = static_cast<int>(
      r.integer(r.required(s, path, "rows", "an integer >= 2 (grid vertices along z)"),
                child(path, "rows"), 2, limit));
  // Spacing: one positive number for both axes, or [x, z].
  const std::string spacing_path = child(path, "spacing");
  const json& spacing = r.required(s, path, "spacing", "a positive number or [x, z]");
  Real dx = 0, dz = 0;
  if (spacing.is_array()) {
    if (spacing.size() != 2)
      r.fail_at(spacing_path,
                "expected a positive number or an array [x, z] of 2 positive "
                "numbers, got " +
                    describe(spacing));
    dx = r.number(spacing[0], child(spacing_path, 0), Range::Positive);
    dz = r.number(spacing[1], child(spacing_path, 1), Range::Positive);
  } else {
    dx = dz = r.number(spacing, spacing_path, Range::Positive);
  }
  const std::string heights_path = child(path, "heights");
  const json& heights = r.required(s, path, "heights", "an array of rows x columns numbers");
  const std::size_t expected = std::size_t(rows) * std::size_t(columns);
  if (!heights.is_array() || heights.size() != expected)
    r.fail_at(heights_path, "expected rows x columns = " + std::to_string(rows) + " x " +
                                std::to_string(columns) + " = " + std::to_string(expected) +
                                " numbers (row-major), got " + describe(heights));
  std::vector<Real> h(expected);
  for (std::size_t i = 0; i < expected; ++i)
    h[i] = r.number(heights[i], child(heights_path, i), Range::Any);
  try {
    return height_field_shape(columns, rows, dx, dz, h);
  } catch (const Error& e) {
    r.fail_at(path, without_prefix(e, "height field: "));
  }
}

ShapeDef read_triangle_mesh(const Reader& r, const json& s, const std::string& path,
                            bool is_static) {
  r.check_object(s, path, "a shape object", {"type", "file"});
  require_static(r, path, is_static, "a triangle mesh");
  const std::string file_path = child(path, "file");
  const std::string file =
      r.text(r.required(s, path, "file", "the path of an OBJ file (relative to the scene file)"),
             file_path);
  // Relative to the directory of the scene file.
  const std::filesystem::path obj(file);
  const std::string resolved =
      obj.is_absolute() ? file : (std::filesystem::path(r.file()).parent_path() / obj).string();
  try {
    return triangle_mesh_from_obj(resolved);
  } catch (const Error& e) {
    r.fail_at(file_path, "expected a readable OBJ file of triangles, got \"" + file + "\" (" +
                             without_prefix(e, resolved + ": ") + ")");
  }
}

/// One "models" entry: a URDF or MJCF robot placed in the scene. Its bodies
/// and joints are appended; names must stay unique (docs/scene-format.md).
void read_model(const Reader& r, const json& m, const std::string& path, Scene& scene,
                BodyNameIndex& names) {
  r.check_object(m, path, "a model object",
                 {"urdf", "mjcf", "position", "orientation", "fixed_base", "prefix"});
  const bool urdf = m.contains("urdf");
  if (urdf == m.contains("mjcf"))
    r.fail_at(path, "expected exactly one of \"urdf\" and \"mjcf\" (the model file)");
  const char* key = urdf ? "urdf" : "mjcf";
  const std::string file = r.text(m.at(key), child(path, key));
  const std::filesystem::path fp(file);
  const std::string resolved =
      fp.is_absolute() ? file : (std::filesystem::path(r.file()).parent_path() / fp).string();
  RobotPlacement placement;
  // Models are Z up; pabd scenes are Y up: by default the model's +Z turns to the scene's +Y.
  const Real h = std::sqrt(Real(0.5));
  placement.orientation = Quat{h, -h, 0, 0};
  r.opt_vec3(m, path, "position", placement.position);
  if (m.contains("orientation"))
    placement.orientation = r.quaternion(m.at("orientation"), child(path, "orientation"));
  if (m.contains("fixed_base"))
    placement.fixed_base = r.boolean(m.at("fixed_base"), child(path, "fixed_base"));
  if (m.contains("prefix")) placement.prefix = r.text(m.at("prefix"), child(path, "prefix"));
  Scene part;
  try {
    const RobotModel model = urdf ? read_urdf_model(resolved) : read_mjcf_model(resolved);
    add_robot_model(model, placement, part);
  } catch (const Error& e) {
    r.fail_at(child(path, key),
              "expected a robot model pabd can load, got \"" + file + "\" (" + e.what() + ")");
  }
  for (BodyDef& body : part.bodies) {
    const auto [it, inserted] = names.emplace(body.name, scene.bodies.size());
    if (!inserted || body.name == "world")
      r.fail_at(path, "expected unique body names, but the model's '" + body.name +
                          "' is already used (give the model a \"prefix\")");
    scene.bodies.push_back(std::move(body));
  }
  for (SceneJoint& joint : part.joints) {
    joint.json_path = path + joint.json_path;
    scene.joints.push_back(std::move(joint));
  }
  scene.no_collision.insert(scene.no_collision.end(), part.no_collision.begin(),
                            part.no_collision.end());
  scene.notices.insert(scene.notices.end(), part.notices.begin(), part.notices.end());
}

ShapeDef read_shape(const Reader& r, const json& s, const std::string& path, bool is_static) {
  if (!s.is_object()) r.fail_at(path, "expected a shape object, got " + describe(s));
  const std::string type_path = child(path, "type");
  const std::string type =
      r.text(r.required(s, path, "type",
                        "a shape type (plane, box, sphere, capsule, convex_hull, compound, "
                        "heightfield, triangle_mesh)"),
             type_path);
  // Builders from the World API, so shape defaults live in one place.
  if (type == "box") {
    r.check_object(s, path, "a shape object", {"type", "size"});
    const std::string size_path = child(path, "size");
    const json& size = r.required(s, path, "size", "an array of 3 positive numbers");
    const Vec3 edges = r.vec3(size, size_path);
    for (std::size_t i = 0; i < 3; ++i) r.number(size[i], child(size_path, i), Range::Positive);
    return box_shape(edges);
  }
  if (type == "sphere") {
    r.check_object(s, path, "a shape object", {"type", "radius"});
    return sphere_shape(r.number(r.required(s, path, "radius", "a positive number"),
                                 child(path, "radius"), Range::Positive));
  }
  if (type == "capsule") {
    r.check_object(s, path, "a shape object", {"type", "radius", "half_height"});
    const Real radius = r.number(r.required(s, path, "radius", "a positive number"),
                                 child(path, "radius"), Range::Positive);
    return capsule_shape(radius, r.number(r.required(s, path, "half_height", "a positive number"),
                                          child(path, "half_height"), Range::Positive));
  }
  if (type == "plane") {
    r.check_object(s, path, "a shape object", {"type", "normal", "offset"});
    if (!is_static)
      r.fail_at(type_path, "expected a plane only on a static body (add \"static\": true)");
    const ShapeDef defaults;  // ShapeDef's own plane defaults: normal +Y, offset 0
    Vec3 normal = defaults.normal;
    Real offset = defaults.offset;
    r.opt_number(s, path, "offset", Range::Any, offset);
    if (s.contains("normal")) {
      // n . x = offset with a non-unit n is the plane n/|n| . x = offset/|n|.
      const std::string normal_path = child(path, "normal");
      normal = r.direction(s.at("normal"), normal_path);
      offset /= safe_length(r.vec3(s.at("normal"), normal_path));
      if (!std::isfinite(offset))
        r.fail_at(child(path, "offset"),
                  "expected an offset that stays finite divided by |normal|");
    }
    return plane_shape(normal, offset);
  }
  if (type == "convex_hull") return read_convex_hull(r, s, path);
  if (type == "compound") return read_compound(r, s, path, is_static);
  if (type == "heightfield") return read_height_field(r, s, path, is_static);
  if (type == "triangle_mesh") return read_triangle_mesh(r, s, path, is_static);
  r.fail_at(type_path,
            "expected one of plane, box, sphere, capsule, convex_hull, compound, heightfield, "
            "triangle_mesh, got " +
                describe(s.at("type")));
}

/// The body keys other than name (a body's, or an array's template); keys already checked.
void read_body_fields(const Reader& r, const json& b, const std::string& path, BodyDef& body) {
  if (b.contains("static")) body.is_static = r.boolean(b.at("static"), child(path, "static"));
  body.shape = read_shape(r, r.required(b, path, "shape", "a shape object"), child(path, "shape"),
                          body.is_static);
  r.opt_vec3(b, path, "position", body.position);
  if (b.contains("orientation"))
    body.orientation = r.quaternion(b.at("orientation"), child(path, "orientation"));
  r.opt_vec3(b, path, "velocity", body.velocity);
  r.opt_vec3(b, path, "angular_velocity", body.angular_velocity);
  if (b.contains("mass") && b.contains("density"))
    r.fail_at(child(path, "density"), "expected either mass or density, got both");
  r.opt_number(b, path, "mass", Range::Positive, body.mass);
  r.opt_number(b, path, "density", Range::Positive, body.density);
  r.opt_number(b, path, "friction", Range::NonNegative, body.friction);
  r.opt_number(b, path, "restitution", Range::UnitInterval, body.restitution);
  r.opt_number(b, path, "linear_damping", Range::NonNegative, body.linear_damping);
  r.opt_number(b, path, "angular_damping", Range::NonNegative, body.angular_damping);
  constexpr long long kAllBits = 0xffffffffLL;
  if (b.contains("collision_group"))
    body.collision_group = static_cast<std::uint32_t>(
        r.integer(b.at("collision_group"), child(path, "collision_group"), 0, kAllBits));
  if (b.contains("collision_mask"))
    body.collision_mask = static_cast<std::uint32_t>(
        r.integer(b.at("collision_mask"), child(path, "collision_mask"), 0, kAllBits));
}

BodyDef read_body(const Reader& r, const json& b, const std::string& path, std::size_t index) {
  r.check_object(b, path, "a body object",
                 {"name", "shape", "position", "orientation", "velocity", "angular_velocity",
                  "mass", "density", "friction", "restitution", "linear_damping", "angular_damping",
                  "collision_group", "collision_mask", "static"});
  BodyDef body = default_body_def();
  body.name =
      b.contains("name") ? r.text(b.at("name"), child(path, "name")) : std::to_string(index);
  read_body_fields(r, b, path, body);
  return body;
}

/// An "arrays" entry: a body template (no position) with name, count, spacing, origin.
BodyArray read_array(const Reader& r, const json& a, const std::string& path) {
  r.check_object(
      a, path, "an array object",
      {"name", "count", "spacing", "origin", "shape", "orientation", "velocity", "angular_velocity",
       "mass", "density", "friction", "restitution", "linear_damping", "angular_damping",
       "collision_group", "collision_mask", "static"});
  BodyArray out;
  out.json_path = path;
  out.prefix = r.text(r.required(a, path, "name", "a string (the bodies' name prefix)"),
                      child(path, "name"));
  const std::string count_path = child(path, "count");
  const json& count = r.required(a, path, "count", "an array [nx, ny, nz] of 3 positive integers");
  if (!count.is_array() || count.size() != 3)
    r.fail_at(count_path,
              "expected an array [nx, ny, nz] of 3 positive integers, got " + describe(count));
  for (std::size_t i = 0; i < 3; ++i)
    out.count[i] = r.integer(count[i], child(count_path, i), 1, kMaxSceneBodies);
  const std::string spacing_path = child(path, "spacing");
  const json& spacing = r.required(a, path, "spacing", "an array of 3 positive numbers");
  out.spacing = r.vec3(spacing, spacing_path);
  for (std::size_t i = 0; i < 3; ++i) r.number(spacing[i], child(spacing_path, i), Range::Positive);
  r.opt_vec3(a, path, "origin", out.origin);
  out.body = default_body_def();
  read_body_fields(r, a, path, out.body);
  return out;
}

/// Checks a joint end: a known body name or "world".
std::string read_end(const Reader& r, const json& j, const std::string& path, const char* key,
                     const BodyNameIndex& names) {
  const std::string p = child(path, key);
  const std::string name = r.text(r.required(j, path, key, "a body name or \"world\""), p);
  if (name != "world" && names.count(name) == 0)
    r.fail_at(p, "expected the name of a body or \"world\", got an unknown body '" + name + "'");
  return name;
}

/// Hinge or slider limits [lower, upper], times `unit` (pi/180 for limits_deg).
JointLimits read_limits(const Reader& r, const json& v, const std::string& path, Real unit) {
  if (!v.is_array() || v.size() != 2)
    r.fail_at(path, "expected an array [lower, upper] of 2 numbers, got " + describe(v));
  JointLimits limits;
  limits.enabled = true;
  limits.lower = r.number(v[0], child(path, 0), Range::Any) * unit;
  limits.upper = r.number(v[1], child(path, 1), Range::Any) * unit;
  if (!std::isfinite(limits.lower) || !std::isfinite(limits.upper))
    r.fail_at(path, "expected limits that stay finite in radians, got " + one_line(v.dump(), 60));
  if (limits.lower > limits.upper)
    r.fail_at(path, "expected [lower, upper] with lower <= upper, got " + one_line(v.dump(), 60));
  return limits;
}

/// A hinge or slider drive: {"mode": "velocity", "target", "max_force"} or
/// {"mode": "position", "target" | "offset", "amplitude", "frequency", "phase",
/// "stiffness", "damping", "max_force"} (docs/joints/drives.md).
JointDrive read_drive(const Reader& r, const json& d, const std::string& path) {
  if (!d.is_object()) r.fail_at(path, "expected a drive object, got " + describe(d));
  const std::string mode_path = child(path, "mode");
  const std::string mode =
      r.text(r.required(d, path, "mode", "a drive mode (velocity, position)"), mode_path);
  JointDrive drive;
  if (mode == "velocity") {
    r.check_object(d, path, "a velocity drive object", {"mode", "target", "max_force"});
    drive.mode = DriveMode::Velocity;
    drive.target = r.number(r.required(d, path, "target", "a number (the target speed)"),
                            child(path, "target"), Range::Any);
  } else if (mode == "position") {
    r.check_object(d, path, "a position drive object",
                   {"mode", "target", "offset", "amplitude", "frequency", "phase", "stiffness",
                    "damping", "max_force"});
    drive.mode = DriveMode::Position;
    const bool periodic = d.contains("offset") || d.contains("amplitude") ||
                          d.contains("frequency") || d.contains("phase");
    if (periodic && d.contains("target"))
      r.fail_at(child(path, "target"),
                "expected either target or offset, amplitude, frequency, phase, got both");
    if (periodic) {
      r.opt_number(d, path, "offset", Range::Any, drive.target);
      drive.amplitude = r.number(r.required(d, path, "amplitude", "a number (periodic target)"),
                                 child(path, "amplitude"), Range::Any);
      drive.frequency = r.number(r.required(d, path, "frequency", "a non-negative number of Hz"),
                                 child(path, "frequency"), Range::NonNegative);
      r.opt_number(d, path, "phase", Range::Any, drive.phase);
    } else {
      drive.target = r.number(
          r.required(d, path, "target", "a number (or offset, amplitude, frequency, phase)"),
          child(path, "target"), Range::Any);
    }
    drive.stiffness = r.number(r.required(d, path, "stiffness", "a positive number"),
                               child(path, "stiffness"), Range::Positive);
    r.opt_number(d, path, "damping", Range::NonNegative, drive.damping);
  } else {
    r.fail_at(mode_path, "expected one of velocity, position, got " + describe(d.at("mode")));
  }
  r.opt_number(d, path, "max_force", Range::Positive, drive.max_force);
  return drive;
}

/// The joint kinds in the order the format's messages list them; their names
/// are joint_kind_name's. One per alternative of JointDef.
constexpr JointKind kJointKinds[] = {JointKind::Spherical, JointKind::Hinge,  JointKind::Slider,
                                     JointKind::Fixed,     JointKind::Spring, JointKind::Distance};
static_assert(std::size(kJointKinds) == std::variant_size_v<JointDef>,
              "a joint kind the scene format does not list");

/// "spherical, hinge, slider, fixed, spring, distance".
std::string joint_kind_list() {
  std::string list;
  for (const JointKind kind : kJointKinds)
    list += (list.empty() ? "" : ", ") + std::string(joint_kind_name(kind));
  return list;
}

SceneJoint read_joint(const Reader& r, const json& j, const std::string& path,
                      const BodyNameIndex& names, const std::vector<BodyDef>& bodies) {
  if (!j.is_object()) r.fail_at(path, "expected a joint object, got " + describe(j));
  const std::string type_path = child(path, "type");
  const std::string type = r.text(
      r.required(j, path, "type", ("a joint type (" + joint_kind_list() + ")").c_str()), type_path);
  const auto* const kind_it =
      std::find_if(std::begin(kJointKinds), std::end(kJointKinds),
                   [&](JointKind kind) { return type == joint_kind_name(kind); });
  if (kind_it == std::end(kJointKinds))
    r.fail_at(type_path,
              "expected one of " + joint_kind_list() + ", got " + describe(j.at("type")));
  SceneJoint joint;
  joint.json_path = path;
  const auto anchor = [&](const char* key) {
    return r.vec3(r.required(j, path, key, "an array of 3 numbers"), child(path, key));
  };
  const auto axis = [&] {
    return r.direction(r.required(j, path, "axis", "an array of 3 numbers, not all zero"),
                       child(path, "axis"));
  };
  // Joints other than springs: optional penalty stiffness, 0 = hard constraint.
  const auto stiffness = [&] {
    Real k = 0;
    r.opt_number(j, path, "stiffness", Range::NonNegative, k);
    return k;
  };
  // Limits and drives act on a hinge's or slider's axis: refused on other joints.
  const auto no_axis_keys = [&] {
    for (const char* key : {"limits", "limits_deg", "drive"})
      if (j.contains(key))
        r.fail_at(child(path, key), std::string("expected ") + key +
                                        " only on a hinge or slider joint, got it on a " + type +
                                        " joint");
  };
  // A hinge's or slider's axis, limits and drive.
  const auto axis_joint = [&](auto def) {
    def.anchor = anchor("anchor");
    def.axis = axis();
    if (j.contains("limits") && j.contains("limits_deg"))
      r.fail_at(child(path, "limits_deg"), "expected either limits or limits_deg, got both");
    if (j.contains("limits")) def.limits = read_limits(r, j.at("limits"), child(path, "limits"), 1);
    if (j.contains("limits_deg"))
      def.limits = read_limits(r, j.at("limits_deg"), child(path, "limits_deg"),
                               std::numbers::pi_v<Real> / 180);
    if (j.contains("drive")) def.drive = read_drive(r, j.at("drive"), child(path, "drive"));
    def.stiffness = stiffness();
    return def;
  };
  // One case per kind and no default: a new JointKind fails to compile (-Wswitch).
  switch (*kind_it) {
    case JointKind::Spherical: {
      no_axis_keys();
      r.check_object(j, path, "a joint object",
                     {"type", "body_a", "body_b", "anchor", "stiffness"});
      SphericalJointDef def;
      def.anchor = anchor("anchor");
      def.stiffness = stiffness();
      joint.def = def;
      break;
    }
    case JointKind::Fixed: {
      no_axis_keys();
      r.check_object(j, path, "a joint object",
                     {"type", "body_a", "body_b", "anchor", "stiffness"});
      FixedJointDef def;
      def.anchor = anchor("anchor");
      def.stiffness = stiffness();
      joint.def = def;
      break;
    }
    case JointKind::Hinge:
      r.check_object(j, path, "a joint object",
                     {"type", "body_a", "body_b", "anchor", "axis", "stiffness", "limits",
                      "limits_deg", "drive"});
      joint.def = axis_joint(HingeJointDef{});
      break;
    case JointKind::Slider:
      r.check_object(
          j, path, "a joint object",
          {"type", "body_a", "body_b", "anchor", "axis", "stiffness", "limits", "drive"});
      joint.def = axis_joint(SliderJointDef{});
      break;
    case JointKind::Spring: {
      no_axis_keys();
      r.check_object(
          j, path, "a joint object",
          {"type", "body_a", "body_b", "anchor_a", "anchor_b", "rest_length", "stiffness"});
      SpringDef def;
      def.anchor_a = anchor("anchor_a");
      def.anchor_b = anchor("anchor_b");
      def.rest_length = r.number(r.required(j, path, "rest_length", "a non-negative number"),
                                 child(path, "rest_length"), Range::NonNegative);
      def.stiffness = r.number(r.required(j, path, "stiffness", "a positive number"),
                               child(path, "stiffness"), Range::Positive);
      joint.def = def;
      break;
    }
    case JointKind::Distance: {
      no_axis_keys();
      r.check_object(j, path, "a joint object",
                     {"type", "body_a", "body_b", "anchor_a", "anchor_b", "length", "stiffness"});
      DistanceJointDef def;
      def.anchor_a = anchor("anchor_a");
      def.anchor_b = anchor("anchor_b");
      r.opt_number(j, path, "length", Range::NonNegative, def.length);
      def.stiffness = stiffness();
      joint.def = def;
      break;
    }
  }
  joint.body_a = read_end(r, j, path, "body_a", names);
  joint.body_b = read_end(r, j, path, "body_b", names);
  if (joint.body_a == joint.body_b)
    r.fail_at(child(path, "body_b"),
              "expected a body other than body_a, got '" + joint.body_b + "' for both ends");
  // A joint between two fixed ends holds nothing (the World refuses it); a spring may.
  const auto fixed = [&](const std::string& name) {
    if (name == "world") return true;
    const std::size_t k = names.at(name);
    return k == kSandBodyIndex || (k < bodies.size() && bodies[k].is_static);
  };
  if (*kind_it != JointKind::Spring && fixed(joint.body_a) && fixed(joint.body_b))
    r.fail_at(child(path, "body_b"), "expected a dynamic body at one end at least, got '" +
                                         joint.body_a + "' and '" + joint.body_b +
                                         "', both static (or the world)");
  return joint;
}

}  // namespace

Scene parse_scene(const std::string& json_text, const std::string& file_label) {
  return parse_scene_with_limits(json_text, file_label, SceneLimits{});
}

Scene parse_scene_with_limits(const std::string& json_text, const std::string& file_label,
                              const SceneLimits& limits) {
  const json root = parse_tree(json_text, file_label);
  const Reader r(file_label);
  r.check_object(root, "", "a scene object",
                 {"description", "settings", "bodies", "arrays", "models", "sand", "water", "wind",
                  "cloths", "joints"});

  Scene scene;
  scene.file = file_label;
  scene.settings = default_world_def();
  if (root.contains("description")) r.text(root.at("description"), "/description");
  if (root.contains("settings")) read_settings(r, root.at("settings"), "/settings", scene);

  // Bodies, with a name -> index map to find duplicates and resolve joint ends.
  const json& bodies = r.required(root, "", "bodies", "an array of bodies");
  if (!bodies.is_array())
    r.fail_at("/bodies", "expected an array of bodies, got " + describe(bodies));
  BodyNameIndex names;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const std::string path = child("/bodies", i);
    BodyDef body = read_body(r, bodies[i], path, i);
    const bool named = bodies[i].contains("name");
    const std::string name_path = named ? child(path, "name") : path;
    if (body.name == "world")
      r.fail_at(name_path, "expected a body name other than \"world\" (it names the fixed frame)");
    const auto [it, inserted] = names.emplace(body.name, i);
    if (!inserted)
      r.fail_at(name_path, "expected a unique body name, got '" + body.name + "'" +
                               (named ? "" : " (its default name, the index)") +
                               ", already used by /bodies/" + std::to_string(it->second));
    scene.bodies.push_back(std::move(body));
  }

  // Arrays of bodies (extension): appended after the listed ones (src/scene/scene_arrays.h).
  if (root.contains("arrays")) {
    const json& arrays = root.at("arrays");
    if (!arrays.is_array())
      r.fail_at("/arrays", "expected an array of body arrays, got " + describe(arrays));
    std::vector<BodyArray> specs;
    for (std::size_t i = 0; i < arrays.size(); ++i)
      specs.push_back(read_array(r, arrays[i], child("/arrays", i)));
    expand_body_arrays(file_label, specs, scene.bodies, names, limits.max_bodies);
  }

  // Robot models (URDF, MJCF), placed: their bodies can be joint ends below.
  if (root.contains("models")) {
    const json& models = root.at("models");
    if (!models.is_array())
      r.fail_at("/models", "expected an array of models, got " + describe(models));
    for (std::size_t i = 0; i < models.size(); ++i)
      read_model(r, models[i], child("/models", i), scene, names);
  }

  read_fields(r, root, scene, names, limits);  // sand, water, wind, cloths (scene_fields.cpp)

  if (root.contains("joints")) {
    const json& joints = root.at("joints");
    if (!joints.is_array())
      r.fail_at("/joints", "expected an array of joints, got " + describe(joints));
    for (std::size_t i = 0; i < joints.size(); ++i)
      scene.joints.push_back(read_joint(r, joints[i], child("/joints", i), names, scene.bodies));
  }
  return scene;
}

Scene load_scene(const std::string& path) {
  // Robot model files load directly, in their own frame (Z up).
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".urdf") return robot_model_scene(read_urdf_model(path));
  if (extension == ".xml" || extension == ".mjcf") return robot_model_scene(read_mjcf_model(path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SceneError(path + ": expected a readable scene file, but it cannot be opened");
  // Read at most one byte past the limit, so that /dev/zero or an endless pipe
  // ends with the size error instead of filling the memory.
  std::string text;
  char buffer[1 << 16];
  while (text.size() <= kMaxSceneBytes && in.read(buffer, sizeof buffer))
    text.append(buffer, sizeof buffer);
  if (text.size() <= kMaxSceneBytes) text.append(buffer, static_cast<std::size_t>(in.gcount()));
  if (in.bad()) throw SceneError(path + ": expected a readable scene file, but reading failed");
  return parse_scene(text, path);
}

}  // namespace pabd

// Building a World from Python: pabd.World(settings, **settings) makes an empty
// world from WorldDef's fields (one table below, read and written by name),
// add_body adds a body from BodyDef's fields and add_joint a joint of any kind
// from its definition's fields. Bodies and joints are returned as indices, the
// order of the module's arrays; bodies may be named by name or index after.
#include <pybind11/stl.h>

#include <functional>
#include <iterator>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "bind_common.h"

namespace pabd_python {

namespace {

using pabd::World;
using pabd::WorldDef;

// ---------------------------------------------------------------------------
// Settings: WorldDef's fields by name.

/// One WorldDef field as Python sees it.
struct Setting {
  const char* key;
  std::function<void(WorldDef&, const py::handle&)> set;
  std::function<py::object(const WorldDef&)> get;
};

template <typename T>
T setting_value(const py::handle& v, const std::string& what) {
  try {
    if constexpr (std::is_same_v<T, bool>) {  // True or False only, not any truthy object
      if (!py::isinstance<py::bool_>(v)) throw py::cast_error();
      return v.cast<bool>();
    } else if constexpr (std::is_same_v<T, pabd::Vec3>) {
      return to_vec3(v, what);
    } else {
      return v.cast<T>();
    }
  } catch (const py::cast_error&) {
    throw pabd::Error(what + (std::is_same_v<T, bool>  ? ": expected True or False"
                              : std::is_same_v<T, int> ? ": expected an integer"
                                                       : ": expected a number"));
  }
}

template <typename T>
Setting field(const char* key, T WorldDef::*member) {
  return {key,
          [key, member](WorldDef& d, const py::handle& v) {
            d.*member = setting_value<T>(v, std::string("World: ") + key);
          },
          [member](const WorldDef& d) -> py::object {
            if constexpr (std::is_same_v<T, pabd::Vec3>)
              return vec3_array(d.*member);
            else
              return py::cast(d.*member);
          }};
}

/// An enum field written as one of a few names.
template <typename E>
Setting choice(const char* key, E WorldDef::*member, std::vector<std::pair<const char*, E>> names) {
  return {key,
          [key, member, names](WorldDef& d, const py::handle& v) {
            const std::string text = py::isinstance<py::str>(v) ? v.cast<std::string>() : "";
            std::string expected;
            for (std::size_t i = 0; i < names.size(); ++i) {
              if (text == names[i].first) {
                d.*member = names[i].second;
                return;
              }
              expected += (i == 0                  ? ""
                           : i + 1 == names.size() ? " or "
                                                   : ", ") +
                          std::string("\"") + names[i].first + "\"";
            }
            throw pabd::Error(std::string("World: ") + key + ": expected " + expected + ", got " +
                              std::string(py::repr(v)));
          },
          [member, names](const WorldDef& d) -> py::object {
            for (const auto& [name, e] : names)
              if (d.*member == e) return py::str(name);
            return py::none();
          }};
}

const std::vector<Setting>& settings_table() {
  using pabd::AvbdStabilization;
  using pabd::IterationOrder;
  using pabd::LocalStep;
  using pabd::PredictionMode;
  using pabd::SolverKind;
  static const std::vector<Setting> table = {
      field("dt", &WorldDef::dt),
      field("iterations", &WorldDef::iterations),
      field("gravity", &WorldDef::gravity),
      field("threads", &WorldDef::threads),
      field("collisions", &WorldDef::collisions),
      field("contact_margin", &WorldDef::contact_margin),
      choice("solver", &WorldDef::solver, {{"pabd", SolverKind::Pabd}, {"avbd", SolverKind::Avbd}}),
      choice("device", &WorldDef::device,
             {{"cpu", pabd::Device::Cpu}, {"cuda", pabd::Device::Cuda}}),
      choice("iteration_order", &WorldDef::iteration_order,
             {{"colored", IterationOrder::Colored}, {"jacobi", IterationOrder::Jacobi}}),
      choice("prediction", &WorldDef::prediction,
             {{"exact", PredictionMode::Exact}, {"first_order", PredictionMode::FirstOrder}}),
      choice("local_step", &WorldDef::local_step,
             {{"rigid", LocalStep::Rigid}, {"paper", LocalStep::Paper}}),
      field("chebyshev_rho", &WorldDef::chebyshev_rho),
      field("relaxation", &WorldDef::relaxation),
      field("block_order_min_bodies", &WorldDef::block_order_min_bodies),
      field("max_rotation_per_step", &WorldDef::max_rotation_per_step),
      field("divergence_guard", &WorldDef::divergence_guard),
      field("augmented_lagrangian", &WorldDef::augmented_lagrangian),
      field("hard_stiffness_start", &WorldDef::hard_stiffness_start),
      field("hard_stiffness_growth", &WorldDef::hard_stiffness_growth),
      field("hard_lambda_decay", &WorldDef::hard_lambda_decay),
      field("hard_stiffness_decay", &WorldDef::hard_stiffness_decay),
      field("hard_stiffness_max", &WorldDef::hard_stiffness_max),
      field("hard_stiffness_mass_ratio", &WorldDef::hard_stiffness_mass_ratio),
      choice("avbd_stabilization", &WorldDef::avbd_stabilization,
             {{"post", AvbdStabilization::Post},
              {"alpha", AvbdStabilization::Alpha},
              {"off", AvbdStabilization::Off}}),
  };
  return table;
}

/// Sets the settings named in `values` (a dict); Error naming an unknown key.
void apply_settings(WorldDef& def, const py::dict& values) {
  for (const auto& [key, value] : values) {
    const std::string name = py::str(key);
    const Setting* s = nullptr;
    for (const Setting& candidate : settings_table())
      if (name == candidate.key) s = &candidate;
    if (!s) {
      std::string known;
      for (const Setting& candidate : settings_table())
        known += (known.empty() ? "" : ", ") + std::string(candidate.key);
      throw pabd::Error("World: unknown setting '" + name + "' (expected one of " + known + ")");
    }
    s->set(def, value);
  }
}

World make_world(const py::object& settings, const py::kwargs& more) {
  WorldDef def = pabd::default_world_def();
  if (!settings.is_none()) {
    if (!py::isinstance<py::dict>(settings))
      throw pabd::Error("World: settings: expected a dict or None");
    apply_settings(def, settings.cast<py::dict>());
  }
  apply_settings(def, more);  // keyword arguments win over the dict
  return World(def);
}

py::dict settings_dict(const World& w) {
  py::dict out;
  for (const Setting& s : settings_table()) out[s.key] = s.get(w.settings());
  return out;
}

// ---------------------------------------------------------------------------
// Bodies.

using Opt = std::optional<py::object>;

pabd::Mat3 to_mat3(const py::handle& value, const std::string& what) {
  using Grid = py::array_t<double, py::array::c_style | py::array::forcecast>;
  const Grid a = Grid::ensure(value);
  if (!a || a.ndim() != 2 || a.shape(0) != 3 || a.shape(1) != 3)
    throw pabd::Error(what + ": expected a 3 x 3 array of numbers");
  pabd::Mat3 m;
  const auto r = a.unchecked<2>();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m.m[i][j] = r(i, j);
  return m;
}

std::uint32_t to_bits(const py::handle& value, const std::string& what) {
  try {
    return value.cast<std::uint32_t>();
  } catch (const py::cast_error&) {
    throw pabd::Error(what + ": expected an integer in [0, 2^32)");
  }
}

int add_body(World& w, const py::object& shape, const std::string& name, const Opt& position,
             const Opt& orientation, const Opt& velocity, const Opt& angular_velocity,
             const Opt& mass, const Opt& density, const Opt& inertia, const Opt& friction,
             const Opt& restitution, const Opt& linear_damping, const Opt& angular_damping,
             const Opt& collision_group, const Opt& collision_mask, bool is_static) {
  const std::string what = name.empty() ? std::string("add_body") : "add_body '" + name + "'";
  if (name == "world")
    throw pabd::Error(what + ": name: 'world' is add_joint's name for the fixed frame");
  if (mass && density) throw pabd::Error(what + ": expected mass or density, not both");
  pabd::BodyDef def = pabd::default_body_def();
  def.name = name;
  def.shape = shape_of(shape, what + ": shape");
  def.is_static = is_static;
  if (position) def.position = to_vec3(*position, what + ": position");
  if (orientation) def.orientation = to_quat(*orientation, what + ": orientation");
  if (velocity) def.velocity = to_vec3(*velocity, what + ": velocity");
  if (angular_velocity)
    def.angular_velocity = to_vec3(*angular_velocity, what + ": angular_velocity");
  if (mass) def.mass = to_number(*mass, what + ": mass");
  if (density) def.density = to_number(*density, what + ": density");
  if (inertia) def.inertia = to_mat3(*inertia, what + ": inertia");
  if (friction) def.friction = to_number(*friction, what + ": friction");
  if (restitution) def.restitution = to_number(*restitution, what + ": restitution");
  if (linear_damping) def.linear_damping = to_number(*linear_damping, what + ": linear_damping");
  if (angular_damping)
    def.angular_damping = to_number(*angular_damping, what + ": angular_damping");
  if (collision_group) def.collision_group = to_bits(*collision_group, what + ": collision_group");
  if (collision_mask) def.collision_mask = to_bits(*collision_mask, what + ": collision_mask");
  return static_cast<int>(w.add_body(def).index);
}

// ---------------------------------------------------------------------------
// Joints.

/// A joint end: a body's name or index, or "world" for the fixed frame.
pabd::BodyId joint_end(const World& w, const py::handle& key, const char* which) {
  if (py::isinstance<py::str>(key) && key.cast<std::string>() == "world")
    return pabd::world_frame();
  try {
    return body_of(w, key);
  } catch (const pabd::Error&) {
    throw pabd::Error(std::string("add_joint: ") + which +
                      ": expected a body's name or index, or \"world\", got " +
                      std::string(py::repr(key)));
  }
}

pabd::JointLimits to_limits(const py::handle& value, const std::string& what) {
  pabd::JointLimits l;
  std::vector<double> v;
  try {
    v = value.cast<std::vector<double>>();
  } catch (const py::cast_error&) {
  }
  if (v.size() != 2) throw pabd::Error(what + ": expected (lower, upper) or None");
  l.enabled = true;
  l.lower = v[0];
  l.upper = v[1];
  return l;
}

/// The optional fields of add_joint, by name; None = not given.
using Fields = std::vector<std::pair<const char*, py::object>>;

/// Which fields each kind of joint has (its C++ definition's).
const std::vector<const char*>& fields_of(pabd::JointKind kind) {
  using K = pabd::JointKind;
  static const std::vector<const char*> spring = {"anchor_a", "anchor_b", "rest_length",
                                                  "stiffness"};
  static const std::vector<const char*> point = {"anchor", "stiffness"};
  static const std::vector<const char*> axis = {"anchor", "axis", "stiffness", "limits", "drive"};
  static const std::vector<const char*> distance = {"anchor_a", "anchor_b", "length", "stiffness"};
  switch (kind) {
    case K::Spring:
      return spring;
    case K::Distance:
      return distance;
    case K::Hinge:
    case K::Slider:
      return axis;
    case K::Spherical:
    case K::Fixed:
      break;
  }
  return point;
}

int add_joint(World& w, const std::string& kind_name, const py::object& body_a,
              const py::object& body_b, const Fields& given, const std::string& name) {
  using K = pabd::JointKind;
  const K kinds[] = {K::Spring, K::Spherical, K::Hinge, K::Fixed, K::Slider, K::Distance};
  std::optional<K> kind;
  std::string expected;
  for (std::size_t i = 0; i < std::size(kinds); ++i) {
    if (kind_name == pabd::joint_kind_name(kinds[i])) kind = kinds[i];
    expected += (i == 0                      ? ""
                 : i + 1 == std::size(kinds) ? " or "
                                             : ", ") +
                std::string("\"") + pabd::joint_kind_name(kinds[i]) + "\"";
  }
  if (!kind)
    throw pabd::Error("add_joint: kind: expected " + expected + ", got '" + kind_name + "'");
  const std::string what = "add_joint (" + kind_name + ")";

  // Fields of another kind are an error, not ignored.
  const auto& allowed = fields_of(*kind);
  for (const auto& [key, value] : given) {
    if (value.is_none()) continue;
    bool ok = false;
    for (const char* a : allowed) ok = ok || std::string(key) == a;
    if (!ok) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      throw pabd::Error(what + ": unknown field '" + key + "' (a " + kind_name + " has " + list +
                        ")");
    }
  }
  const auto get = [&given](const char* key) -> py::object {
    for (const auto& [k, v] : given)
      if (std::string(k) == key) return v;
    return py::none();
  };
  const auto opt_vec3 = [&](const char* key, pabd::Vec3& out) {
    if (!get(key).is_none()) out = to_vec3(get(key), what + ": " + key);
  };
  const auto opt_number = [&](const char* key, double& out) {
    if (!get(key).is_none()) out = to_number(get(key), what + ": " + key);
  };
  const auto opt_limits = [&](pabd::JointLimits& out) {
    if (!get("limits").is_none()) out = to_limits(get("limits"), what + ": limits");
  };
  const auto opt_drive = [&](pabd::JointDrive& out) {
    if (!get("drive").is_none()) out = to_drive(get("drive"), what + ": drive");
  };

  // A hinge and a slider take the same keys.
  auto axis_joint = [&](auto d) {
    opt_vec3("anchor", d.anchor);
    opt_vec3("axis", d.axis);
    opt_number("stiffness", d.stiffness);
    opt_limits(d.limits);
    opt_drive(d.drive);
    return pabd::JointDef(d);
  };
  pabd::JointDef def;
  switch (*kind) {
    case K::Spring: {
      pabd::SpringDef d;
      opt_vec3("anchor_a", d.anchor_a);
      opt_vec3("anchor_b", d.anchor_b);
      opt_number("rest_length", d.rest_length);
      opt_number("stiffness", d.stiffness);
      def = d;
      break;
    }
    case K::Spherical: {
      pabd::SphericalJointDef d;
      opt_vec3("anchor", d.anchor);
      opt_number("stiffness", d.stiffness);
      def = d;
      break;
    }
    case K::Hinge:
      def = axis_joint(pabd::HingeJointDef{});
      break;
    case K::Fixed: {
      pabd::FixedJointDef d;
      opt_vec3("anchor", d.anchor);
      opt_number("stiffness", d.stiffness);
      def = d;
      break;
    }
    case K::Slider:
      def = axis_joint(pabd::SliderJointDef{});
      break;
    case K::Distance: {
      pabd::DistanceJointDef d;
      opt_vec3("anchor_a", d.anchor_a);
      opt_vec3("anchor_b", d.anchor_b);
      opt_number("length", d.length);
      opt_number("stiffness", d.stiffness);
      def = d;
      break;
    }
  }
  const pabd::BodyId a = joint_end(w, body_a, "body_a"), b = joint_end(w, body_b, "body_b");
  std::visit(
      [&](auto& d) {
        d.body_a = a;
        d.body_b = b;
      },
      def);

  // A taken name is refused before the joint is added (set_joint_name would refuse it after).
  if (!name.empty()) {
    bool taken = true;
    try {
      w.find_joint(name);
    } catch (const pabd::Error&) {
      taken = false;
    }
    if (taken)
      throw pabd::Error(what + ": name: expected a unique joint name, '" + name +
                        "' is already used");
  }
  const pabd::JointId id = w.add_joint(def);
  if (!name.empty()) w.set_joint_name(id, name);
  return static_cast<int>(id.index);
}

}  // namespace

void bind_building(py::class_<World>& world) {
  world
      .def(py::init(&make_world), py::arg("settings") = py::none(),
           "An empty world. Settings are WorldDef's fields, as a dict and/or keyword arguments "
           "(keywords win): dt [s], iterations, gravity [m/s^2], threads (0 = OpenMP's "
           "default), collisions, contact_margin [m], solver ('pabd'/'avbd'), iteration_order "
           "('colored'/'jacobi'), prediction ('exact'/'first_order'), local_step "
           "('rigid'/'paper'), chebyshev_rho, relaxation, block_order_min_bodies, "
           "max_rotation_per_step [rad], "
           "divergence_guard, augmented_lagrangian, hard_stiffness_start [N/m], "
           "hard_stiffness_growth [N/m^2], hard_lambda_decay, hard_stiffness_decay, "
           "hard_stiffness_max [N/m], hard_stiffness_mass_ratio, avbd_stabilization "
           "('post'/'alpha'/'off'). An unknown key raises ValueError naming it.")
      .def_property_readonly("settings", &settings_dict,
                             "The settings as a dict of the keys pabd.World takes (a copy)")
      .def("add_body", &add_body, py::arg("shape"), py::arg("name") = "",
           py::arg("position") = py::none(), py::arg("orientation") = py::none(),
           py::arg("velocity") = py::none(), py::arg("angular_velocity") = py::none(),
           py::arg("mass") = py::none(), py::arg("density") = py::none(),
           py::arg("inertia") = py::none(), py::arg("friction") = py::none(),
           py::arg("restitution") = py::none(), py::arg("linear_damping") = py::none(),
           py::arg("angular_damping") = py::none(), py::arg("collision_group") = py::none(),
           py::arg("collision_mask") = py::none(), py::arg("static") = false,
           "Adds a body; returns its index (the row of positions, ...). shape: a pabd.Shape or "
           "a dict {'type': 'box', 'size': ...}; name: unique ('' = its index as a string); "
           "position [m] of the centre of mass; orientation (w, x, y, z); velocity [m/s]; "
           "angular_velocity [rad/s], world frame; mass [kg] or density [kg/m^3] (default "
           "1000); inertia (3 x 3 about the centre of mass, body frame [kg m^2], with mass); "
           "friction (0.5); restitution (0); linear_damping, angular_damping [1/s]; "
           "collision_group, collision_mask (bits: a and b touch when group_a & mask_b and "
           "group_b & mask_a); static. Unset fields keep BodyDef's defaults.")
      .def(
          "add_joint",
          [](World& w, const std::string& kind, const py::object& body_a, const py::object& body_b,
             const py::object& anchor, const py::object& axis, const py::object& anchor_a,
             const py::object& anchor_b, const py::object& stiffness, const py::object& rest_length,
             const py::object& length, const py::object& limits, const py::object& drive,
             const std::optional<std::string>& name) {
            const Fields given = {
                {"anchor", anchor},     {"axis", axis},           {"anchor_a", anchor_a},
                {"anchor_b", anchor_b}, {"stiffness", stiffness}, {"rest_length", rest_length},
                {"length", length},     {"limits", limits},       {"drive", drive}};
            return add_joint(w, kind, body_a, body_b, given, name.value_or(""));
          },
          py::arg("kind"), py::arg("body_a"), py::arg("body_b"), py::arg("anchor") = py::none(),
          py::arg("axis") = py::none(), py::arg("anchor_a") = py::none(),
          py::arg("anchor_b") = py::none(), py::arg("stiffness") = py::none(),
          py::arg("rest_length") = py::none(), py::arg("length") = py::none(),
          py::arg("limits") = py::none(), py::arg("drive") = py::none(),
          py::arg("name") = py::none(),
          "Adds a joint; returns its index. kind: 'spring' (anchor_a, anchor_b, rest_length, "
          "stiffness [N/m], default 1000), 'spherical' (anchor, stiffness), 'hinge' (anchor, "
          "axis, default +z, stiffness, limits, drive), 'fixed' (anchor, stiffness), 'slider' "
          "(anchor, axis, default +x, stiffness, limits, drive), 'distance' (anchor_a, "
          "anchor_b, length, 0 = the anchors' distance, stiffness). body_a, body_b: a body's "
          "name or index, or 'world' (the fixed frame). Points and axes are world coordinates "
          "now [m], default the origin. stiffness 0 (the joints' default) = hard. limits: "
          "(lower, upper) of the hinge angle [rad] or slider travel [m] (0 = now) or None. "
          "drive: None or a dict as set_joint_drive's arguments, e.g. {'mode': 'velocity', "
          "'target': 2.0, 'max_force': 50}. name: unique, for find_joint. A field that the "
          "kind has not raises ValueError.");
}

}  // namespace pabd_python

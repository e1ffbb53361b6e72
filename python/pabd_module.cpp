// The Python module `pabd` (pybind11): worlds loaded from scene files or built
// body by body, stepped, read as numpy arrays, pushed, driven through their
// joints, and snapshotted (README.md, "From Python", shows it all). This file
// holds the module, the state arrays, pushing, snapshots, raycasts and
// contacts; bind_shapes.cpp the shapes, bind_build.cpp the World constructor,
// add_body and add_joint, bind_joints.cpp the joints' names, efforts, drives
// and arrays.
//
// Arrays are copies: a World keeps its state per body in structs, and a copy
// per call is what keeps a Python array valid across steps. Errors: bad input
// (pabd::Error, SceneError) raises ValueError with its one-line message; a
// failed step raises RuntimeError naming the step and the body.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bind_common.h"
#include "pabd/scene.h"
#include "pabd/world.h"

namespace py = pybind11;

namespace {

using pabd::BodyId;
using pabd::Vec3;
using pabd::World;
using pabd_python::body_of;
using pabd_python::to_vec3;
using pabd_python::vec3_array;

/// An (n, k) float64 array filled row by row by fill(i, row).
template <typename Fill>
py::array_t<double> rows(const World& w, int k, Fill fill) {
  py::array_t<double> out({static_cast<py::ssize_t>(w.body_count()), static_cast<py::ssize_t>(k)});
  auto m = out.mutable_unchecked<2>();
  for (int i = 0; i < w.body_count(); ++i) {
    const BodyId id = w.body_at(i);
    if (w.is_valid(id)) {
      fill(w.body_state(id), &m(i, 0));
    } else {  // removed: NaN, so that no one takes it for a body at the origin
      for (int c = 0; c < k; ++c) m(i, c) = std::numeric_limits<double>::quiet_NaN();
    }
  }
  return out;
}

/// The (n, 3) array of one Vec3 field of every body's state.
py::array_t<double> vec3_rows(const World& w, Vec3 pabd::BodyState::*field) {
  return rows(w, 3, [field](const pabd::BodyState& s, double* r) {
    const Vec3 v = s.*field;
    r[0] = v.x, r[1] = v.y, r[2] = v.z;
  });
}

const char* failure_name(pabd::StepFailure f) {
  switch (f) {
    case pabd::StepFailure::NonFinite:
      return "its state became non-finite";
    case pabd::StepFailure::EnergyGrowth:
      return "the solver created energy (the divergence guard)";
    case pabd::StepFailure::SpeedGrowth:
    case pabd::StepFailure::SpinGrowth:
      return "it moved faster than the scene can make it (the divergence guard)";
    case pabd::StepFailure::None:
      break;
  }
  return "failed";
}

/// World::contact(i) for every contact of the last step, field by field.
py::dict contact_arrays(const World& w) {
  const int n = w.contact_count();
  const auto count = static_cast<py::ssize_t>(n);
  py::array_t<std::int64_t> body_a(count), body_b(count);
  py::array_t<double> point_a({count, py::ssize_t(3)}), point_b({count, py::ssize_t(3)});
  py::array_t<double> normal({count, py::ssize_t(3)}), friction({count, py::ssize_t(3)});
  py::array_t<double> separation(count), gap(count), normal_force(count);
  py::array_t<bool> sticking(count);
  auto a = body_a.mutable_unchecked<1>(), b = body_b.mutable_unchecked<1>();
  auto pa = point_a.mutable_unchecked<2>(), pb = point_b.mutable_unchecked<2>();
  auto nr = normal.mutable_unchecked<2>(), fr = friction.mutable_unchecked<2>();
  auto sep = separation.mutable_unchecked<1>(), g = gap.mutable_unchecked<1>();
  auto fn = normal_force.mutable_unchecked<1>();
  auto st = sticking.mutable_unchecked<1>();
  const auto row = [](auto& m, int i, Vec3 v) { m(i, 0) = v.x, m(i, 1) = v.y, m(i, 2) = v.z; };
  for (int i = 0; i < n; ++i) {
    const pabd::ContactInfo c = w.contact(i);
    a(i) = c.body_a.index, b(i) = c.body_b.index;
    row(pa, i, c.point_a), row(pb, i, c.point_b);
    row(nr, i, c.normal), row(fr, i, c.friction_force);
    sep(i) = c.separation, g(i) = c.gap, fn(i) = c.normal_force;
    st(i) = c.sticking;
  }
  py::dict out;
  out["body_a"] = body_a;
  out["body_b"] = body_b;
  out["point_a"] = point_a;
  out["point_b"] = point_b;
  out["normal"] = normal;
  out["separation"] = separation;
  out["gap"] = gap;
  out["normal_force"] = normal_force;
  out["friction_force"] = friction;
  out["sticking"] = sticking;
  return out;
}

World world_from(const pabd::Scene& scene, int threads) {
  pabd::WorldDef settings = scene.settings;
  if (threads >= 0) settings.threads = threads;
  return pabd::build_world(scene, settings);
}

}  // namespace

PYBIND11_MODULE(pabd, m) {
  m.doc() =
      "pabd: Projective Affine Body Dynamics. Worlds from scene files (load_scene, "
      "parse_scene) or built body by body (World, add_body, add_joint, the shape factories "
      "box, sphere, capsule, plane, convex_hull, compound, height_field, triangle_mesh); "
      "stepping; state, joints and contacts as numpy arrays (copies); pushing; joint efforts "
      "and drives; snapshots. Bad input raises ValueError with a one-line message.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const pabd::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  pabd_python::bind_shapes(m);
  py::class_<World> world(m, "World",
                          "A simulated world: pabd.World(settings) for an empty one, "
                          "load_scene or parse_scene for one from a scene");
  pabd_python::bind_building(world);
  pabd_python::bind_joints(world);
  pabd_python::bind_fields(world);
  world
      .def(
          "step",
          [](World& w, int n) {
            if (n < 0) throw pabd::Error("step: expected n >= 0");
            for (int k = 0; k < n; ++k) {
              pabd::StepResult r;
              {
                py::gil_scoped_release release;  // other Python threads run meanwhile
                r = w.step();
              }
              if (!r.ok) {
                const std::string body = r.bad_body >= 0 && r.bad_body < w.body_count()
                                             ? w.body_name(w.body_at(r.bad_body))
                                             : std::string("?");
                throw std::runtime_error("step " + std::to_string(r.step) + ": body '" + body +
                                         "': " + failure_name(r.failure));
              }
            }
          },
          py::arg("n") = 1, "Advances n steps; raises RuntimeError when a step fails")
      .def_property_readonly("body_names",
                             [](const World& w) {
                               std::vector<std::string> names;
                               for (int i = 0; i < w.body_count(); ++i) {
                                 const BodyId id = w.body_at(i);
                                 names.push_back(w.is_valid(id) ? w.body_name(id) : "");
                               }
                               return names;
                             })
      .def_property_readonly("body_count", &World::body_count)
      .def_property_readonly("joint_count", &World::joint_count)
      .def_property_readonly("contact_count", &World::contact_count)
      .def_property_readonly("time", &World::time)
      .def_property_readonly("step_count", &World::step_count)
      .def_property_readonly("dt", [](const World& w) { return w.settings().dt; })
      .def_property_readonly("masses",
                             [](const World& w) {
                               py::array_t<double> out(w.body_count());
                               auto a = out.mutable_unchecked<1>();
                               for (int i = 0; i < w.body_count(); ++i) {
                                 const BodyId id = w.body_at(i);
                                 a(i) = w.is_valid(id) ? w.body_mass(id) : 0.0;
                               }
                               return out;
                             })
      .def_property_readonly(
          "positions", [](const World& w) { return vec3_rows(w, &pabd::BodyState::position); })
      .def_property_readonly("orientations",
                             [](const World& w) {
                               return rows(w, 4, [](const pabd::BodyState& s, double* r) {
                                 r[0] = s.orientation.w, r[1] = s.orientation.x;
                                 r[2] = s.orientation.y, r[3] = s.orientation.z;
                               });
                             })
      .def_property_readonly(
          "velocities", [](const World& w) { return vec3_rows(w, &pabd::BodyState::velocity); })
      .def_property_readonly(
          "angular_velocities",
          [](const World& w) { return vec3_rows(w, &pabd::BodyState::angular_velocity); })
      .def(
          "apply_force",
          [](World& w, const py::object& body, const py::object& force,
             const std::optional<py::object>& point) {
            const BodyId id = body_of(w, body);
            w.apply_force(
                id, to_vec3(force, "apply_force: force"),
                point ? to_vec3(*point, "apply_force: point") : w.body_state(id).position);
          },
          py::arg("body"), py::arg("force"), py::arg("point") = py::none(),
          "A force [N] for the next step, at a world point (default: the centre of mass)")
      .def(
          "apply_torque",
          [](World& w, const py::object& body, const py::object& torque) {
            w.apply_torque(body_of(w, body), to_vec3(torque, "apply_torque: torque"));
          },
          py::arg("body"), py::arg("torque"))
      .def(
          "remove_body", [](World& w, const py::object& body) { w.remove_body(body_of(w, body)); },
          py::arg("body"),
          "Removes a body (by name or index) and the joints on it; its slot stays, its "
          "name reads \"\" and its rows of the state arrays read NaN")
      .def_property_readonly(
          "alive",
          [](const World& w) {
            py::array_t<bool> out(w.body_count());
            auto a = out.mutable_unchecked<1>();
            for (int i = 0; i < w.body_count(); ++i) a(i) = w.is_valid(w.body_at(i));
            return out;
          },
          "Per body slot: False once removed (a copy)")
      .def(
          "apply_impulse",
          [](World& w, const py::object& body, const py::object& impulse,
             const std::optional<py::object>& point) {
            const BodyId id = body_of(w, body);
            w.apply_impulse(
                id, to_vec3(impulse, "apply_impulse: impulse"),
                point ? to_vec3(*point, "apply_impulse: point") : w.body_state(id).position);
          },
          py::arg("body"), py::arg("impulse"), py::arg("point") = py::none())
      .def(
          "set_velocity",
          [](World& w, const py::object& body, const py::object& v, const py::object& omega) {
            w.set_velocity(body_of(w, body), to_vec3(v, "set_velocity: velocity"),
                           to_vec3(omega, "set_velocity: angular_velocity"));
          },
          py::arg("body"), py::arg("velocity"), py::arg("angular_velocity"))
      .def(
          "set_damping",
          [](World& w, const py::object& body, double linear, double angular) {
            w.set_damping(body_of(w, body), linear, angular);
          },
          py::arg("body"), py::arg("linear"), py::arg("angular"))
      .def(
          "save_state",
          [](const World& w) {
            const std::vector<std::uint8_t> s = w.save_state();
            return py::bytes(reinterpret_cast<const char*>(s.data()), s.size());
          },
          "Everything the next step reads, as bytes (World::save_state)")
      .def(
          "restore_state",
          [](World& w, const py::bytes& state) {
            const std::string_view s = state;
            w.restore_state(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
          },
          py::arg("state"),
          "Back to a save_state of this scene: the run goes on with the same bits")
      // World::raycast: None, or a dict of the body's name, the point and normal
      // (numpy 3-vectors, world frame) and the distance [m].
      .def(
          "raycast",
          [](const World& w, const py::object& origin, const py::object& direction,
             double max_distance, std::uint32_t mask) -> py::object {
            const std::optional<pabd::RayHit> hit =
                w.raycast(to_vec3(origin, "raycast: origin"),
                          to_vec3(direction, "raycast: direction"), max_distance, mask);
            if (!hit) return py::none();
            py::dict out;
            out["body"] = w.body_name(hit->body);
            out["point"] = vec3_array(hit->point);
            out["normal"] = vec3_array(hit->normal);
            out["distance"] = hit->distance;
            return out;
          },
          py::arg("origin"), py::arg("direction"), py::arg("max_distance"),
          py::arg("mask") = 0xffffffffu,
          "The first body surface along the ray within max_distance [m] (inf: no limit), "
          "skipping bodies whose collision group & mask == 0: None or a dict with body (name), "
          "point, normal (numpy 3-vectors) and distance")
      .def("contacts", &contact_arrays,
           "The last step's contact points as a dict of numpy arrays (copies), one row per "
           "contact: body_a, body_b (int64 body indices; body_a is the plane of a body-plane "
           "contact), point_a, point_b (n x 3, on each body's surface, world frame [m]), "
           "normal (n x 3, unit, from body_a toward body_b), separation (the gap along the "
           "normal at detection [m], < 0 = penetration), gap (normal . (point_b - point_a) now "
           "[m]), normal_force (the push on body_b along the normal [N]; body_a gets the "
           "opposite), friction_force (n x 3, tangential force on body_b [N]), sticking (bool: "
           "static friction held). Speculative contacts are included, with zero force.")
      .def_property_readonly("state_hash", &World::state_hash);

  m.def(
      "load_scene",
      [](const std::string& path, int threads) {
        return world_from(pabd::load_scene(path), threads);
      },
      py::arg("path"), py::arg("threads") = -1,
      "A World from a scene file (docs/scene-format.md); threads -1 = the scene's setting");
  m.def(
      "parse_scene",
      [](const std::string& text, int threads) {
        return world_from(pabd::parse_scene(text, "<string>"), threads);
      },
      py::arg("text"), py::arg("threads") = -1, "A World from scene JSON text");
}

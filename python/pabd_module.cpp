// The Python module `pabd` (pybind11): scenes loaded into Worlds, stepped,
// read as numpy arrays, pushed, and snapshotted (python/README.md lists it all).
//
// Arrays are copies: a World keeps its state per body in structs, and a copy
// per call is what keeps a Python array valid across steps. Errors: bad input
// (pabd::Error, SceneError) raises ValueError; a failed step raises
// RuntimeError naming the step and the body.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "pabd/scene.h"
#include "pabd/world.h"

namespace py = pybind11;

namespace {

using pabd::BodyId;
using pabd::Vec3;
using pabd::World;

Vec3 vec3(const std::vector<double>& v, const char* what) {
  if (v.size() != 3) throw pabd::Error(std::string(what) + ": expected 3 numbers");
  return {v[0], v[1], v[2]};
}

/// A body by name or by index.
BodyId body_of(const World& w, const py::object& key) {
  if (py::isinstance<py::str>(key)) return w.find_body(key.cast<std::string>());
  const long long i = key.cast<long long>();
  if (i < 0 || i >= w.body_count())
    throw pabd::Error("body index " + std::to_string(i) + " out of range (" +
                      std::to_string(w.body_count()) + " bodies)");
  return w.body_at(static_cast<int>(i));
}

/// An (n, k) float64 array filled row by row by fill(i, row).
template <typename Fill>
py::array_t<double> rows(const World& w, int k, Fill fill) {
  py::array_t<double> out({static_cast<py::ssize_t>(w.body_count()), static_cast<py::ssize_t>(k)});
  auto m = out.mutable_unchecked<2>();
  for (int i = 0; i < w.body_count(); ++i) fill(w.body_state(w.body_at(i)), &m(i, 0));
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

World world_from(const pabd::Scene& scene, int threads) {
  pabd::WorldDef settings = scene.settings;
  if (threads >= 0) settings.threads = threads;
  return pabd::build_world(scene, settings);
}

}  // namespace

PYBIND11_MODULE(pabd, m) {
  m.doc() = "pabd: Projective Affine Body Dynamics (scene files, stepping, state as numpy arrays)";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const pabd::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  py::class_<World>(m, "World", "A simulated world, built from a scene")
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
                               for (int i = 0; i < w.body_count(); ++i)
                                 names.push_back(w.body_name(w.body_at(i)));
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
                               for (int i = 0; i < w.body_count(); ++i)
                                 a(i) = w.body_mass(w.body_at(i));
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
          [](World& w, const py::object& body, const std::vector<double>& force,
             const std::optional<std::vector<double>>& point) {
            const BodyId id = body_of(w, body);
            w.apply_force(id, vec3(force, "apply_force: force"),
                          point ? vec3(*point, "apply_force: point") : w.body_state(id).position);
          },
          py::arg("body"), py::arg("force"), py::arg("point") = py::none(),
          "A force [N] for the next step, at a world point (default: the centre of mass)")
      .def(
          "apply_torque",
          [](World& w, const py::object& body, const std::vector<double>& torque) {
            w.apply_torque(body_of(w, body), vec3(torque, "apply_torque: torque"));
          },
          py::arg("body"), py::arg("torque"))
      .def(
          "apply_impulse",
          [](World& w, const py::object& body, const std::vector<double>& impulse,
             const std::optional<std::vector<double>>& point) {
            const BodyId id = body_of(w, body);
            w.apply_impulse(
                id, vec3(impulse, "apply_impulse: impulse"),
                point ? vec3(*point, "apply_impulse: point") : w.body_state(id).position);
          },
          py::arg("body"), py::arg("impulse"), py::arg("point") = py::none())
      .def(
          "set_velocity",
          [](World& w, const py::object& body, const std::vector<double>& v,
             const std::vector<double>& omega) {
            w.set_velocity(body_of(w, body), vec3(v, "set_velocity: velocity"),
                           vec3(omega, "set_velocity: angular_velocity"));
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
          [](const World& w, const std::vector<double>& origin,
             const std::vector<double>& direction, double max_distance,
             std::uint32_t mask) -> py::object {
            const std::optional<pabd::RayHit> hit =
                w.raycast(vec3(origin, "raycast: origin"), vec3(direction, "raycast: direction"),
                          max_distance, mask);
            if (!hit) return py::none();
            auto array = [](Vec3 v) {
              py::array_t<double> a(3);
              auto x = a.mutable_unchecked<1>();
              x(0) = v.x, x(1) = v.y, x(2) = v.z;
              return a;
            };
            py::dict out;
            out["body"] = w.body_name(hit->body);
            out["point"] = array(hit->point);
            out["normal"] = array(hit->normal);
            out["distance"] = hit->distance;
            return out;
          },
          py::arg("origin"), py::arg("direction"), py::arg("max_distance"),
          py::arg("mask") = 0xffffffffu,
          "The first body surface along the ray within max_distance [m] (inf: no limit), "
          "skipping bodies whose collision group & mask == 0: None or a dict with body (name), "
          "point, normal (numpy 3-vectors) and distance")
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

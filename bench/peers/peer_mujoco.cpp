// peer_mujoco: a pabd scene in MuJoCo (Debian's libmujoco-dev 2.2.2), written
// as the MJCF a user would write for loose bodies: each moving body a <body>
// with a <freejoint/>, an explicit <inertial> (pabd's mass and inertia) and
// one geom; static shapes are geoms of the world body; a ball joint between
// two free bodies is an <equality><connect/>, with a <contact><exclude/> so
// that joined bodies do not collide. MuJoCo's defaults otherwise: the Newton
// solver (100 iterations at most, tolerance 1e-8), pyramidal friction cones,
// Euler integration, soft constraints (solref 0.02 1). MuJoCo 2.2.2 allocates
// its contact and constraint buffers up front from <size nconmax njmax>: here
// 8 contacts per geom and 4 rows per contact (condim 3, pyramidal); when that
// allocation fails the program says so in one line. MuJoCo combines friction
// with max(f_a, f_b), not sqrt(f_a f_b): equal whenever all bodies share one
// coefficient, as in every scene of the comparison; other scenes are refused.
#include <mujoco/mujoco.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "peer_harness.h"

namespace {

using pabd::peers::EngineInfo;
using pabd::peers::PeerBody;
using pabd::peers::PeerEngine;
using pabd::peers::PeerOptions;
using pabd::peers::PeerPose;
using pabd::peers::PeerScene;

// MuJoCo's error handler must not return: one line, status 1.
void mujoco_error(const char* message) {
  std::fprintf(stderr, "peer_mujoco: MuJoCo error: %s\n", message);
  std::exit(1);
}

// Rotation taking local +Z (MuJoCo's plane normal and capsule axis) onto unit `to`.
pabd::Quat z_onto(pabd::Vec3 to) {
  const pabd::Vec3 z{0, 0, 1};
  const double c = pabd::dot(z, to);
  if (c < -1 + 1e-12) return {0, 1, 0, 0};  // half turn about X
  const pabd::Vec3 axis = pabd::cross(z, to);
  return pabd::normalized(pabd::Quat{1 + c, axis.x, axis.y, axis.z});
}

// MJCF name of moving body `index` (appended, not "b" + ...: GCC 12's -Wrestrict false positive).
std::string body_name(std::size_t index) {
  std::string name = "b";
  name += std::to_string(index);
  return name;
}

std::string v3(pabd::Vec3 v) {
  std::ostringstream s;
  s.precision(17);
  s << v.x << ' ' << v.y << ' ' << v.z;
  return s.str();
}
std::string q4(pabd::Quat q) {
  std::ostringstream s;
  s.precision(17);
  s << q.w << ' ' << q.x << ' ' << q.y << ' ' << q.z;
  return s.str();
}

// The geom element of a body's shape (in the body's frame, or the world's for static ones).
std::string geom_xml(const PeerBody& b, bool world_frame, double friction) {
  const pabd::ShapeDef& s = b.shape;
  std::ostringstream g;
  g.precision(17);
  g << "<geom friction=\"" << friction << " 0.005 0.0001\" ";
  const pabd::Quat to_y = z_onto({0, 1, 0});  // capsule axis: MuJoCo Z -> pabd Y
  switch (s.type) {
    case pabd::ShapeType::Plane:  // MuJoCo's plane is z = 0 in its frame, normal +Z
      g << "type=\"plane\" size=\"0 0 1\" pos=\"" << v3(s.offset * s.normal) << "\" quat=\""
        << q4(z_onto(s.normal)) << "\"";
      break;
    case pabd::ShapeType::Box:
      g << "type=\"box\" size=\"" << v3(0.5 * s.size) << "\"";
      break;
    case pabd::ShapeType::Sphere:
      g << "type=\"sphere\" size=\"" << s.radius << "\"";
      break;
    case pabd::ShapeType::Capsule:
      g << "type=\"capsule\" size=\"" << s.radius << ' ' << s.half_height << "\"";
      break;
    default:
      throw pabd::Error("peer_mujoco: unsupported shape");
  }
  if (s.type != pabd::ShapeType::Plane) {
    const pabd::Quat q = s.type == pabd::ShapeType::Capsule
                             ? (world_frame ? b.orientation * to_y : to_y)
                             : (world_frame ? b.orientation : pabd::Quat{});
    if (world_frame) g << " pos=\"" << v3(b.position) << "\"";
    g << " quat=\"" << q4(q) << "\"";
  }
  g << "/>";
  return g.str();
}

class MujocoEngine final : public PeerEngine {
 public:
  MujocoEngine(const PeerScene& ps, const PeerOptions& options, EngineInfo& info) {
    mju_user_error = mujoco_error;
    const double friction = ps.bodies.empty() ? 0.5 : ps.bodies.front().friction;
    for (const PeerBody& b : ps.bodies) {
      if (b.friction != friction) {
        throw pabd::Error(ps.scene.file +
                          ": peer_mujoco: bodies with different friction coefficients are not "
                          "supported (MuJoCo combines them with max, pabd with sqrt(fa fb))");
      }
    }
    const int geoms = static_cast<int>(ps.bodies.size());
    const long nconmax = 8L * geoms, njmax = 4 * nconmax + 3L * static_cast<long>(ps.joints.size());
    std::ostringstream x;
    x.precision(17);
    x << "<mujoco model=\"pabd\">\n"
      << "<option timestep=\"" << ps.scene.settings.dt << "\" gravity=\""
      << v3(ps.scene.settings.gravity) << "\"";
    if (options.iterations > 0) x << " iterations=\"" << options.iterations << "\"";
    x << "/>\n<size nconmax=\"" << nconmax << "\" njmax=\"" << njmax << "\"/>\n<worldbody>\n";
    for (std::size_t i = 0; i < ps.bodies.size(); ++i) {
      const PeerBody& b = ps.bodies[i];
      if (b.is_static) {
        x << geom_xml(b, true, friction) << "\n";
        continue;
      }
      x << "<body name=\"b" << i << "\" pos=\"" << v3(b.position) << "\" quat=\""
        << q4(b.orientation) << "\"><freejoint/><inertial pos=\"0 0 0\" mass=\"" << b.mass
        << "\" diaginertia=\"" << v3(b.inertia) << "\"/>" << geom_xml(b, false, friction)
        << "</body>\n";
    }
    x << "</worldbody>\n";
    auto name = [&](int body) {
      if (body < 0 || ps.bodies[static_cast<std::size_t>(body)].is_static) return std::string();
      return body_name(static_cast<std::size_t>(body));
    };
    if (!ps.joints.empty()) {
      x << "<contact>\n";
      for (const auto& j : ps.joints) {
        if (!name(j.body_a).empty() && !name(j.body_b).empty()) {
          x << "<exclude body1=\"" << name(j.body_a) << "\" body2=\"" << name(j.body_b) << "\"/>\n";
        }
      }
      x << "</contact>\n<equality>\n";
      for (const auto& j : ps.joints) {  // connect: anchor given in body1's frame
        const bool a_moves = !name(j.body_a).empty();
        const int body1 = a_moves ? j.body_a : j.body_b;
        const int body2 = a_moves ? j.body_b : j.body_a;
        if (name(body1).empty()) throw pabd::Error("peer_mujoco: a joint between two static ends");
        const pabd::Vec3 local = a_moves ? j.local_a : j.local_b;
        x << "<connect body1=\"" << name(body1) << "\"";
        if (!name(body2).empty()) x << " body2=\"" << name(body2) << "\"";
        x << " anchor=\"" << v3(local) << "\"/>\n";
      }
      x << "</equality>\n";
    }
    x << "</mujoco>\n";
    // MuJoCo 2.2.2 loads MJCF from a file.
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() /
        ("pabd_peer_mujoco_" + std::to_string(getpid()).append(".xml"));
    std::ofstream(path) << x.str();
    char error[1000] = "";
    model_ = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
    std::filesystem::remove(path);
    if (!model_) throw pabd::Error(ps.scene.file + ": peer_mujoco: mj_loadXML: " + error);
    data_ = mj_makeData(model_);
    if (!data_) {
      throw pabd::Error(ps.scene.file + ": peer_mujoco: MuJoCo " + mj_versionString() +
                        " could not allocate mjData for nconmax " + std::to_string(nconmax) +
                        ", njmax " + std::to_string(njmax));
    }
    // Initial velocities: a free joint's qvel is the linear velocity (world) and
    // the angular velocity in the body frame.
    adr_.assign(ps.bodies.size(), Address{});
    for (std::size_t i = 0; i < ps.bodies.size(); ++i) {
      const PeerBody& b = ps.bodies[i];
      if (b.is_static) continue;
      const int id = mj_name2id(model_, mjOBJ_BODY, body_name(i).c_str());
      const int joint = model_->body_jntadr[id];
      adr_[i] = Address{model_->jnt_qposadr[joint], model_->jnt_dofadr[joint]};
      const pabd::Vec3 w = pabd::rotate(pabd::conjugate(b.orientation), b.angular_velocity);
      double* v = data_->qvel + adr_[i].dof;
      v[0] = b.velocity.x, v[1] = b.velocity.y, v[2] = b.velocity.z;
      v[3] = w.x, v[4] = w.y, v[5] = w.z;
    }
    info.version = mj_versionString();
    info.iterations = model_->opt.iterations;
    info.threads = 1;
    info.settings = {{"solver", "Newton (default)"},
                     {"tolerance", pabd::peers::number_text(model_->opt.tolerance)},
                     {"cone", "pyramidal (default)"},
                     {"integrator", "Euler (default)"},
                     {"nconmax", std::to_string(nconmax)},
                     {"njmax", std::to_string(njmax)},
                     {"ball_joint", "equality connect, contact exclude"},
                     {"friction", "max(fa, fb) (equal coefficients only)"}};
  }
  ~MujocoEngine() override {
    if (data_) mj_deleteData(data_);
    if (model_) mj_deleteModel(model_);
  }
  MujocoEngine(const MujocoEngine&) = delete;
  MujocoEngine& operator=(const MujocoEngine&) = delete;

  void step() override {
    mj_step(model_, data_);
    if (data_->warning[mjWARN_CONTACTFULL].number > 0 ||
        data_->warning[mjWARN_CNSTRFULL].number > 0) {
      throw pabd::Error("peer_mujoco: the contact or constraint buffer is full (nconmax/njmax)");
    }
  }

  PeerPose pose(int index) const override {
    const Address a = adr_[static_cast<std::size_t>(index)];
    const double* q = data_->qpos + a.pos;
    const double* v = data_->qvel + a.dof;
    const pabd::Quat r{q[3], q[4], q[5], q[6]};
    return {{q[0], q[1], q[2]}, r, {v[0], v[1], v[2]}, pabd::rotate(r, {v[3], v[4], v[5]})};
  }

  double contact_penetration() const override {
    double deepest = 0;
    for (int i = 0; i < data_->ncon; ++i) deepest = std::max(deepest, -data_->contact[i].dist);
    return deepest;
  }

  long contact_points() const override { return data_->ncon; }

 private:
  struct Address {
    int pos = -1;  // qpos index of the free joint
    int dof = -1;  // qvel index
  };
  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
  std::vector<Address> adr_;
};

}  // namespace

int main(int argc, char** argv) {
  return pabd::peers::run_peer(argc, argv, "mujoco",
                               [](const PeerScene& ps, const PeerOptions& o,
                                  EngineInfo& info) -> std::unique_ptr<PeerEngine> {
                                 return std::make_unique<MujocoEngine>(ps, o, info);
                               });
}

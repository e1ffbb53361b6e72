// peer_ode: a pabd scene in the Open Dynamics Engine (Debian's libode-dev,
// double precision), set up as ODE's manual and demos suggest: a hash space,
// dSpaceCollide with a near callback that makes up to 4 contact joints per
// pair (dContactApprox1: friction pyramid scaled by the normal force), the
// world's default ERP 0.2 and CFM 1e-5, a 1 mm contact surface layer, and
// dWorldQuickStep at 20 iterations; auto-disable (sleeping) off and no
// damping, as in the other engines. Settings: bench/peers/README.md.
#include <ode/ode.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "peer_harness.h"

namespace {

using pabd::peers::EngineInfo;
using pabd::peers::PeerBody;
using pabd::peers::PeerEngine;
using pabd::peers::PeerOptions;
using pabd::peers::PeerPose;
using pabd::peers::PeerScene;

constexpr int kMaxContactsPerPair = 4;
constexpr dReal kSurfaceLayer = 0.001;  // [m] penetration ODE leaves uncorrected (ODE demos)

// ODE's library-wide setup, once per process.
struct OdeLibrary {
  OdeLibrary() { dInitODE2(0); }
  ~OdeLibrary() { dCloseODE(); }
  OdeLibrary(const OdeLibrary&) = delete;
  OdeLibrary& operator=(const OdeLibrary&) = delete;
};

class OdeEngine final : public PeerEngine {
 public:
  OdeEngine(const PeerScene& ps, const PeerOptions& options, EngineInfo& info) : scene_(ps) {
    world_ = dWorldCreate();
    space_ = dHashSpaceCreate(nullptr);
    contacts_ = dJointGroupCreate(0);
    const pabd::WorldDef& s = ps.scene.settings;
    dt_ = s.dt;
    dWorldSetGravity(world_, s.gravity.x, s.gravity.y, s.gravity.z);
    const int iterations = options.iterations > 0 ? options.iterations : 20;
    dWorldSetQuickStepNumIterations(world_, iterations);
    dWorldSetContactSurfaceLayer(world_, kSurfaceLayer);
    dWorldSetAutoDisableFlag(world_, 0);
    info.version = PABD_ODE_VERSION;  // pkg-config's version of ode
    info.iterations = iterations;
    info.threads = 1;
    info.settings = {{"step", "dWorldQuickStep"},
                     {"space", "dHashSpace"},
                     {"erp", pabd::peers::number_text(dWorldGetERP(world_))},
                     {"cfm", pabd::peers::number_text(dWorldGetCFM(world_))},
                     {"contact_surface_layer", pabd::peers::number_text(kSurfaceLayer)},
                     {"max_contacts_per_pair", pabd::peers::number_text(kMaxContactsPerPair)},
                     {"contact_mode", "dContactApprox1, mu = sqrt(fa fb)"},
                     {"auto_disable", "off"},
                     {"ball_joint", "dJointCreateBall, linked bodies do not collide"}};
    bodies_.assign(ps.bodies.size(), nullptr);
    geoms_.reserve(ps.bodies.size());
    for (std::size_t i = 0; i < ps.bodies.size(); ++i) add_body(static_cast<int>(i));
    for (const pabd::peers::PeerJoint& j : ps.joints) {
      const dBodyID a = j.body_a < 0 ? nullptr : bodies_[static_cast<std::size_t>(j.body_a)];
      const dBodyID b = j.body_b < 0 ? nullptr : bodies_[static_cast<std::size_t>(j.body_b)];
      if (!a && !b) throw pabd::Error("peer_ode: a joint between two static ends");
      const dJointID joint = dJointCreateBall(world_, nullptr);
      dJointAttach(joint, a, b);
      dJointSetBallAnchor(joint, j.anchor.x, j.anchor.y, j.anchor.z);
      excluded_.insert(std::minmax(j.body_a, j.body_b));
    }
  }
  ~OdeEngine() override {
    dJointGroupDestroy(contacts_);
    dSpaceDestroy(space_);  // destroys the geoms it holds
    dWorldDestroy(world_);  // and the bodies and joints
  }
  OdeEngine(const OdeEngine&) = delete;
  OdeEngine& operator=(const OdeEngine&) = delete;

  void step() override {
    deepest_ = 0;
    points_ = 0;
    dSpaceCollide(space_, this, &OdeEngine::near_callback);
    dWorldQuickStep(world_, dt_);
    dJointGroupEmpty(contacts_);
  }

  PeerPose pose(int index) const override {
    const dBodyID b = bodies_[static_cast<std::size_t>(index)];
    const dReal* p = dBodyGetPosition(b);
    const dReal* q = dBodyGetQuaternion(b);
    const dReal* v = dBodyGetLinearVel(b);
    const dReal* w = dBodyGetAngularVel(b);
    return {{p[0], p[1], p[2]}, {q[0], q[1], q[2], q[3]}, {v[0], v[1], v[2]}, {w[0], w[1], w[2]}};
  }

  double contact_penetration() const override { return deepest_; }
  long contact_points() const override { return points_; }

 private:
  void add_body(int index) {
    const PeerBody& b = scene_.bodies[static_cast<std::size_t>(index)];
    const pabd::ShapeDef& s = b.shape;
    dGeomID g = nullptr;
    switch (s.type) {
      case pabd::ShapeType::Box:
        g = dCreateBox(space_, s.size.x, s.size.y, s.size.z);
        break;
      case pabd::ShapeType::Sphere:
        g = dCreateSphere(space_, s.radius);
        break;
      case pabd::ShapeType::Capsule:
        g = dCreateCapsule(space_, s.radius, 2 * s.half_height);
        break;
      case pabd::ShapeType::Plane:  // a x + b y + c z = d, as pabd's n . x = offset
        g = dCreatePlane(space_, s.normal.x, s.normal.y, s.normal.z, s.offset);
        break;
      default:
        throw pabd::Error("peer_ode: unsupported shape");
    }
    dGeomSetData(g, reinterpret_cast<void*>(static_cast<std::intptr_t>(index)));
    geoms_.push_back(g);
    // ODE's capsule runs along local Z; pabd's along Y: turn Z onto Y (-90 deg about X).
    const pabd::Quat to_y{std::sqrt(0.5), -std::sqrt(0.5), 0, 0};
    const bool capsule = s.type == pabd::ShapeType::Capsule;
    if (b.is_static) {
      if (s.type == pabd::ShapeType::Plane) return;
      const pabd::Quat q = capsule ? b.orientation * to_y : b.orientation;
      const dQuaternion dq = {q.w, q.x, q.y, q.z};
      dGeomSetPosition(g, b.position.x, b.position.y, b.position.z);
      dGeomSetQuaternion(g, dq);
      return;
    }
    const dBodyID body = dBodyCreate(world_);
    dMass m;
    dMassSetParameters(&m, b.mass, 0, 0, 0, b.inertia.x, b.inertia.y, b.inertia.z, 0, 0, 0);
    dBodySetMass(body, &m);
    dBodySetPosition(body, b.position.x, b.position.y, b.position.z);
    const dQuaternion dq = {b.orientation.w, b.orientation.x, b.orientation.y, b.orientation.z};
    dBodySetQuaternion(body, dq);
    dBodySetLinearVel(body, b.velocity.x, b.velocity.y, b.velocity.z);
    dBodySetAngularVel(body, b.angular_velocity.x, b.angular_velocity.y, b.angular_velocity.z);
    dGeomSetBody(g, body);
    if (capsule) {
      const dQuaternion off = {to_y.w, to_y.x, to_y.y, to_y.z};
      dGeomSetOffsetQuaternion(g, off);
    }
    bodies_[static_cast<std::size_t>(index)] = body;
  }

  static void near_callback(void* data, dGeomID o1, dGeomID o2) {
    auto* self = static_cast<OdeEngine*>(data);
    const dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
    if (!b1 && !b2) return;  // two static shapes
    const int i1 = static_cast<int>(reinterpret_cast<std::intptr_t>(dGeomGetData(o1)));
    const int i2 = static_cast<int>(reinterpret_cast<std::intptr_t>(dGeomGetData(o2)));
    if (!self->excluded_.empty() && self->excluded_.count(std::minmax(i1, i2))) return;
    dContact contact[kMaxContactsPerPair];
    const int n = dCollide(o1, o2, kMaxContactsPerPair, &contact[0].geom, sizeof(dContact));
    if (n <= 0) return;
    const double mu = std::sqrt(self->scene_.bodies[static_cast<std::size_t>(i1)].friction *
                                self->scene_.bodies[static_cast<std::size_t>(i2)].friction);
    for (int k = 0; k < n; ++k) {
      contact[k].surface.mode = dContactApprox1;
      contact[k].surface.mu = mu;
      self->deepest_ = std::max(self->deepest_, static_cast<double>(contact[k].geom.depth));
      ++self->points_;
      const dJointID c = dJointCreateContact(self->world_, self->contacts_, &contact[k]);
      dJointAttach(c, b1, b2);
    }
  }

  OdeLibrary library_;
  const PeerScene& scene_;
  dWorldID world_ = nullptr;
  dSpaceID space_ = nullptr;
  dJointGroupID contacts_ = nullptr;
  dReal dt_ = 0;
  std::vector<dBodyID> bodies_;
  std::vector<dGeomID> geoms_;
  std::set<std::pair<int, int>> excluded_;  // jointed pairs (static ends included)
  double deepest_ = 0;
  long points_ = 0;  ///< contacts created in the last step
};

}  // namespace

int main(int argc, char** argv) {
  return pabd::peers::run_peer(argc, argv, "ode",
                               [](const PeerScene& ps, const PeerOptions& o,
                                  EngineInfo& info) -> std::unique_ptr<PeerEngine> {
                                 return std::make_unique<OdeEngine>(ps, o, info);
                               });
}

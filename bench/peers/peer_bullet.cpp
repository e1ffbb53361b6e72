// peer_bullet: a pabd scene in Bullet (Debian's libbullet-dev, single
// precision), set up as Bullet's own examples and most users do: a
// btDiscreteDynamicsWorld with a btDbvtBroadphase, the default collision
// configuration and a btSequentialImpulseConstraintSolver at its default 10
// iterations, default contact ERP, CFM and split impulse; sleeping switched
// off so every body is simulated every step (pabd has no sleeping either).
// Settings are listed in bench/peers/README.md and in the JSON line.
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "peer_harness.h"

namespace {

using pabd::peers::EngineInfo;
using pabd::peers::PeerBody;
using pabd::peers::PeerEngine;
using pabd::peers::PeerOptions;
using pabd::peers::PeerPose;
using pabd::peers::PeerScene;

btVector3 bt(pabd::Vec3 v) {
  return {static_cast<btScalar>(v.x), static_cast<btScalar>(v.y), static_cast<btScalar>(v.z)};
}
pabd::Vec3 from_bt(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

class BulletEngine final : public PeerEngine {
 public:
  BulletEngine(const PeerScene& ps, const PeerOptions& options, EngineInfo& info)
      : dispatcher_(&config_), world_(&dispatcher_, &broadphase_, &solver_, &config_) {
    const pabd::WorldDef& s = ps.scene.settings;
    dt_ = static_cast<btScalar>(s.dt);
    world_.setGravity(bt(s.gravity));
    btContactSolverInfo& si = world_.getSolverInfo();
    if (options.iterations > 0) si.m_numIterations = options.iterations;
    info.version = pabd::peers::number_text(BT_BULLET_VERSION / 100) + "." +
                   pabd::peers::number_text(BT_BULLET_VERSION % 100);
    info.iterations = si.m_numIterations;
    info.threads = 1;
    info.settings = {{"world", "btDiscreteDynamicsWorld"},
                     {"broadphase", "btDbvtBroadphase"},
                     {"solver", "btSequentialImpulseConstraintSolver"},
                     {"erp", pabd::peers::number_text(si.m_erp)},
                     {"erp2", pabd::peers::number_text(si.m_erp2)},
                     {"cfm", pabd::peers::number_text(si.m_globalCfm)},
                     {"split_impulse", si.m_splitImpulse ? "on" : "off"},
                     {"sleeping", "off (DISABLE_DEACTIVATION)"},
                     {"friction", "sqrt(f) per body, so Bullet's product rule gives sqrt(fa fb)"},
                     {"ball_joint", "btPoint2PointConstraint, linked bodies do not collide"},
                     {"step", "stepSimulation(dt, 0): one step of dt"}};
    bodies_.reserve(ps.bodies.size());
    for (const PeerBody& b : ps.bodies) add_body(b);
    for (const pabd::peers::PeerJoint& j : ps.joints) {
      btRigidBody* a = j.body_a < 0 ? nullptr : bodies_[static_cast<std::size_t>(j.body_a)].get();
      btRigidBody* c = j.body_b < 0 ? nullptr : bodies_[static_cast<std::size_t>(j.body_b)].get();
      std::unique_ptr<btPoint2PointConstraint> p2p;
      if (a && c) {
        p2p = std::make_unique<btPoint2PointConstraint>(*a, *c, bt(j.local_a), bt(j.local_b));
      } else if (c) {
        p2p = std::make_unique<btPoint2PointConstraint>(*c, bt(j.local_b));
      } else if (a) {
        p2p = std::make_unique<btPoint2PointConstraint>(*a, bt(j.local_a));
      } else {
        throw pabd::Error("peer_bullet: a joint between the world and the world");
      }
      world_.addConstraint(p2p.get(), true);
      joints_.push_back(std::move(p2p));
    }
  }

  ~BulletEngine() override {
    // Drop every overlapping pair first: removing a body scans all pairs, which
    // would make tearing down 125,000 bodies quadratic (minutes).
    struct RemoveAll : btOverlapCallback {
      bool processOverlap(btBroadphasePair&) override { return true; }
    } remove_all;
    broadphase_.getOverlappingPairCache()->processAllOverlappingPairs(&remove_all, &dispatcher_);
    for (auto& j : joints_) world_.removeConstraint(j.get());
    for (auto& b : bodies_) world_.removeRigidBody(b.get());
  }
  BulletEngine(const BulletEngine&) = delete;
  BulletEngine& operator=(const BulletEngine&) = delete;

  void step() override { world_.stepSimulation(dt_, 0); }

  PeerPose pose(int index) const override {
    const btRigidBody& b = *bodies_[static_cast<std::size_t>(index)];
    const btQuaternion q = b.getOrientation();
    return {from_bt(b.getCenterOfMassPosition()), pabd::Quat{q.w(), q.x(), q.y(), q.z()},
            from_bt(b.getLinearVelocity()), from_bt(b.getAngularVelocity())};
  }

  // Manifold distances are from this step's collision detection (negative = overlap).
  double contact_penetration() const override {
    double deepest = 0;
    btCollisionDispatcher& d = const_cast<btCollisionDispatcher&>(dispatcher_);
    for (int m = 0; m < d.getNumManifolds(); ++m) {
      const btPersistentManifold* pm = d.getManifoldByIndexInternal(m);
      for (int c = 0; c < pm->getNumContacts(); ++c) {
        deepest = std::max(deepest, -static_cast<double>(pm->getContactPoint(c).getDistance()));
      }
    }
    return deepest;
  }

  long contact_points() const override {
    long n = 0;
    btCollisionDispatcher& d = const_cast<btCollisionDispatcher&>(dispatcher_);
    for (int m = 0; m < d.getNumManifolds(); ++m)
      n += d.getManifoldByIndexInternal(m)->getNumContacts();
    return n;
  }

 private:
  // One collision shape per distinct geometry, shared as Bullet users do.
  btCollisionShape* shape_for(const pabd::ShapeDef& s) {
    const auto key =
        std::make_tuple(static_cast<int>(s.type), s.size.x, s.size.y, s.size.z, s.radius,
                        s.half_height, s.normal.x, s.normal.y, s.normal.z, s.offset);
    auto it = shapes_.find(key);
    if (it != shapes_.end()) return it->second.get();
    std::unique_ptr<btCollisionShape> shape;
    switch (s.type) {
      case pabd::ShapeType::Box:
        shape = std::make_unique<btBoxShape>(bt(0.5 * s.size));
        break;
      case pabd::ShapeType::Sphere:
        shape = std::make_unique<btSphereShape>(static_cast<btScalar>(s.radius));
        break;
      case pabd::ShapeType::Capsule:  // btCapsuleShape runs along local Y, as pabd's
        shape = std::make_unique<btCapsuleShape>(static_cast<btScalar>(s.radius),
                                                 static_cast<btScalar>(2 * s.half_height));
        break;
      case pabd::ShapeType::Plane:  // n . x = offset, as pabd's
        shape = std::make_unique<btStaticPlaneShape>(bt(s.normal), static_cast<btScalar>(s.offset));
        break;
      default:
        throw pabd::Error("peer_bullet: unsupported shape");
    }
    btCollisionShape* raw = shape.get();
    shapes_.emplace(key, std::move(shape));
    return raw;
  }

  void add_body(const PeerBody& b) {
    btCollisionShape* shape = shape_for(b.shape);
    const btScalar mass = b.is_static ? 0 : static_cast<btScalar>(b.mass);
    btRigidBody::btRigidBodyConstructionInfo ci(mass, nullptr, shape,
                                                b.is_static ? btVector3(0, 0, 0) : bt(b.inertia));
    const pabd::Quat q = b.orientation;
    ci.m_startWorldTransform.setOrigin(b.shape.type == pabd::ShapeType::Plane ? btVector3(0, 0, 0)
                                                                              : bt(b.position));
    if (b.shape.type != pabd::ShapeType::Plane) {
      ci.m_startWorldTransform.setRotation(
          btQuaternion(static_cast<btScalar>(q.x), static_cast<btScalar>(q.y),
                       static_cast<btScalar>(q.z), static_cast<btScalar>(q.w)));
    }
    ci.m_friction = static_cast<btScalar>(std::sqrt(b.friction));
    auto body = std::make_unique<btRigidBody>(ci);
    if (!b.is_static) {
      body->setLinearVelocity(bt(b.velocity));
      body->setAngularVelocity(bt(b.angular_velocity));
      body->setActivationState(DISABLE_DEACTIVATION);
    }
    world_.addRigidBody(body.get());
    bodies_.push_back(std::move(body));
  }

  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_;
  btDbvtBroadphase broadphase_;
  btSequentialImpulseConstraintSolver solver_;
  btDiscreteDynamicsWorld world_;
  btScalar dt_ = 0;
  std::map<std::tuple<int, double, double, double, double, double, double, double, double, double>,
           std::unique_ptr<btCollisionShape>>
      shapes_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  std::vector<std::unique_ptr<btPoint2PointConstraint>> joints_;
};

}  // namespace

int main(int argc, char** argv) {
  return pabd::peers::run_peer(argc, argv, "bullet",
                               [](const PeerScene& ps, const PeerOptions& o,
                                  EngineInfo& info) -> std::unique_ptr<PeerEngine> {
                                 return std::make_unique<BulletEngine>(ps, o, info);
                               });
}

// The device backend's step (src/device/), checked on the host: the serial
// stand-in (make_emulated_backend) copies every array to buffers of its own,
// runs the same loops the CUDA backend launches, and copies back what they
// wrote. Its end states must carry the CPU step's bits on the reference
// scenes: the kernels and their order per index are the same, so any
// difference is a mirroring fault (an array not copied, copied short, or not
// brought back), which is what these tests are for. tests/test_cuda_device.cpp
// runs the same comparison on a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "device/array_mirror.h"
#include "device/device_backend.h"
#include "device/device_step.h"
#include "model/axis_bond_data.h"
#include "pabd/scene.h"
#include "pabd/world.h"
#include "world/world_impl.h"

namespace pabd {
namespace {

const std::string kScenes = std::string(PABD_SOURCE_DIR) + "/scenes/";

/// The settings a device run is compared under: a device sweeps by body
/// colours, never by blocks (device/device_step.h), so the CPU must too.
WorldDef comparable(WorldDef d, int threads) {
  d.threads = threads;
  d.block_order_min_bodies = std::numeric_limits<int>::max();
  return d;
}

struct DeviceRun {
  const char* name;
  std::function<Scene()> scene;
  int steps;
};

Scene file(const char* name) { return load_scene(kScenes + name); }

/// Steps a CPU world and an emulated-device world side by side; the first
/// step whose state hashes differ fails the run.
void expect_same_bits(const DeviceRun& r) {
  const Scene s = r.scene();
  World cpu = build_world(s, comparable(s.settings, 2));
  World device = build_world(s, comparable(s.settings, 1));
  world_impl(device).device = make_emulated_backend();
  ASSERT_EQ(device.device_name(), "emulated on the host");
  for (int n = 1; n <= r.steps; ++n) {
    const StepResult a = cpu.step(), b = device.step();
    ASSERT_TRUE(a.ok && b.ok) << r.name << " step " << n;
    ASSERT_EQ(cpu.state_hash(), device.state_hash()) << r.name << ": bits differ at step " << n;
  }
  EXPECT_GT(device.device_peak_memory(), 0u) << r.name;
  EXPECT_GT(device.last_timings().transfer_ms, 0.0) << r.name;
}

// The reference scenes, and the kinds of step they leave out.
TEST(DeviceStep, SpringNetKeepsTheCpuBits) {
  expect_same_bits({"spring_net", [] { return file("spring_net.json"); }, 60});
}
TEST(DeviceStep, HeavyChainKeepsTheCpuBits) {  // hard joints, Chebyshev acceleration
  expect_same_bits({"heavy_chain", [] { return file("heavy_chain.json"); }, 60});
}
TEST(DeviceStep, BallIntoStackKeepsTheCpuBits) {  // contacts with a round end
  expect_same_bits({"ball_into_stack", [] { return file("ball_into_stack.json"); }, 30});
}
TEST(DeviceStep, WindmillPilesKeepTheCpuBits) {  // a motor and welds among contacts
  expect_same_bits({"windmill_piles", [] { return file("windmill_piles.json"); }, 30});
}
TEST(DeviceStep, Pile20KeepsTheCpuBits) {  // 8000 boxes: the scene a CPU sweeps in blocks
  expect_same_bits({"pile_20", [] { return file("pile_20.json"); }, 3});
}
TEST(DeviceStep, RobotDogKeepsTheCpuBits) {  // limits and position drives
  expect_same_bits({"robot_dog", [] { return file("robot_dog.json"); }, 30});
}
TEST(DeviceStep, SailboatKeepsTheCpuBits) {  // water, wind and a cloth: forces every step
  expect_same_bits({"sailboat", [] { return file("sailboat.json"); }, 20});
}
TEST(DeviceStep, CollisionsOffKeepTheCpuBits) {  // no detector: no contact arrays at all
  expect_same_bits({"chain_without_collisions",
                    [] {
                      Scene s = file("chain.json");
                      s.settings.collisions = false;
                      return s;
                    },
                    60});
}
TEST(DeviceStep, ARebuiltBondColouringReachesTheDevice) {
  // Without contacts the sweeps use the bonds' colouring, which the device
  // keeps while the bonds hold (Colouring::bond_builds). Removing joints
  // rebuilds it with other colours in arrays of the same size: the device
  // must take the new one, or its sweeps and bits part from the CPU's.
  const Scene s = [] {
    Scene scene = file("chain.json");
    scene.settings.collisions = false;
    return scene;
  }();
  World cpu = build_world(s, comparable(s.settings, 2));
  World device = build_world(s, comparable(s.settings, 1));
  world_impl(device).device = make_emulated_backend();
  ASSERT_GE(cpu.joint_count(), 4);
  for (int n = 1; n <= 40; ++n) {
    if (n == 10 || n == 20) {  // the second and third joints
      cpu.remove_joint(cpu.joint_at(n / 10));
      device.remove_joint(device.joint_at(n / 10));
    }
    ASSERT_TRUE(cpu.step().ok && device.step().ok) << "step " << n;
    ASSERT_EQ(cpu.state_hash(), device.state_hash()) << "bits differ at step " << n;
  }
}
TEST(DeviceStep, ANewDriveTargetReachesTheDevice) {
  // A motor's target and mode change between steps (World::set_joint_drive)
  // in arrays of the same size: the device keeps the joints' limits and
  // drives while their version holds, and the bonds' state while the state
  // version does, so it must take the new ones, or its bits part from the
  // CPU's. A wheel on a motor hinged to the world, then to a
  // second wheel, no contacts.
  WorldDef def = comparable(default_world_def(), 1);
  def.collisions = false;
  World cpu(comparable(def, 2)), device(def);
  world_impl(device).device = make_emulated_backend();
  std::vector<JointId> motor;  // the CPU's, the device's
  for (World* w : {&cpu, &device}) {
    BodyDef wheel = default_body_def();
    wheel.shape = box_shape({0.4, 0.4, 0.1});
    const BodyId first = w->add_body(wheel);
    wheel.position = {1, 0, 0};
    const BodyId second = w->add_body(wheel);
    HingeJointDef axle;
    axle.body_b = first;
    axle.drive.mode = DriveMode::Velocity;
    axle.drive.target = 1;
    motor.push_back(w->add_hinge_joint(axle));
    HingeJointDef link;
    link.body_a = first;
    link.body_b = second;
    link.anchor = {0.5, 0, 0};
    w->add_hinge_joint(link);
  }
  for (int n = 1; n <= 40; ++n) {
    // Faster at step 10, off at 20, back on at 25: a new mode starts from a
    // fresh multiplier and penalty (the bonds' state, written on the host).
    if (n == 10 || n == 20 || n == 25) {
      JointDrive faster;
      faster.mode = n == 20 ? DriveMode::Off : DriveMode::Velocity;
      faster.target = n == 25 ? -2 : 3;
      cpu.set_joint_drive(motor[0], faster);
      device.set_joint_drive(motor[1], faster);
    }
    ASSERT_TRUE(cpu.step().ok && device.step().ok) << "step " << n;
    ASSERT_EQ(cpu.state_hash(), device.state_hash()) << "bits differ at step " << n;
    // The motor drives the wheel at 3 rad/s from step 10 until it is
    // switched off (a hard drive: its speed to the iterations' tolerance,
    // well within 10%).
    if (n == 19) {
      EXPECT_NEAR(device.body_state(device.body_at(0)).angular_velocity.z, 3, 0.3);
    }
  }
}

TEST(DeviceStep, HostWritesBetweenStepsReachTheDevice) {
  // The device keeps the state it brought back while the host leaves it
  // alone (Copy::Kept): every write of the API between steps must send it
  // up again, or the device's bits part from the CPU's. A pendulum on a
  // world anchor, a box on the ground, a free box; one write every few steps.
  WorldDef def = comparable(default_world_def(), 1);
  World cpu(comparable(def, 2)), device(def);
  world_impl(device).device = make_emulated_backend();
  std::vector<BodyId> box, free_box;
  std::vector<JointId> hinge;
  for (World* w : {&cpu, &device}) {
    BodyDef ground = default_body_def();
    ground.is_static = true;
    ground.shape = plane_shape({0, 1, 0}, 0);
    w->add_body(ground);
    BodyDef b = default_body_def();
    b.shape = box_shape({0.5, 0.5, 0.5});
    b.position = {0, 0.25, 0};
    box.push_back(w->add_body(b));
    b.position = {3, 2, 0};
    free_box.push_back(w->add_body(b));
    b.position = {-3, 1, 0};
    const BodyId bob = w->add_body(b);
    HingeJointDef j;
    j.body_b = bob;
    j.anchor = {-3, 2, 0};
    hinge.push_back(w->add_hinge_joint(j));
  }
  for (int n = 1; n <= 30; ++n) {
    for (int k = 0; k < 2; ++k) {
      World& w = k == 0 ? cpu : device;
      if (n == 5) {
        BodyState s = w.body_state(free_box[k]);
        s.position.y += 0.5;
        s.angular_velocity = {0, 2, 0};
        w.set_body_state(free_box[k], s);
      }
      if (n == 9) w.apply_impulse(box[k], {3, 0, 0}, {0, 0.4, 0});
      if (n == 13) w.set_velocity(free_box[k], {0, 4, 1}, {1, 0, 0});
      if (n == 17) w.set_world_anchor(hinge[k], {-3, 2.2, 0.1});
      if (n == 21) {
        JointDrive motor;
        motor.mode = DriveMode::Velocity;
        motor.target = 2;
        w.set_joint_drive(hinge[k], motor);
      }
    }
    ASSERT_TRUE(cpu.step().ok && device.step().ok) << "step " << n;
    ASSERT_EQ(cpu.state_hash(), device.state_hash()) << "bits differ at step " << n;
  }
}

TEST(DeviceStep, JacobiSweepsKeepTheCpuBits) {  // the paper's order: pairs evaluated apart
  expect_same_bits({"ball_into_stack_jacobi",
                    [] {
                      Scene s = file("ball_into_stack.json");
                      s.settings.iteration_order = IterationOrder::Jacobi;
                      return s;
                    },
                    20});
}

/// The most a device step may upload per body: what its loops read of a
/// body (model, pose, velocities, its bond-end range), and what its detection
/// reads besides (shape, friction, restitution, collision filter): the two
/// share one upload of the pose, velocities, mass and static flags. The
/// step's inputs (applied loads, damping: the host's external velocity reads
/// them) and what predict writes (start and target poses, motion) are not
/// uploaded.
constexpr std::size_t kLoopBytesPerBody = sizeof(Real) + sizeof(Mat3) + sizeof(std::uint8_t) +
                                          sizeof(Vec3) + sizeof(Mat3) + sizeof(Quat) +
                                          2 * sizeof(Vec3) + sizeof(int);
constexpr std::size_t kDetectOnlyBytesPerBody =
    sizeof(ShapeDef) + 2 * sizeof(Real) + 2 * sizeof(std::uint32_t);
/// The most it may bring back per body, where its velocities and the
/// divergence guard's carried speeds are found on the device: the state
/// (pose, orientation, velocities) and the speed the contacts carry to it;
/// not the pairs' graph.
constexpr std::size_t kStateBytesPerBody =
    sizeof(Vec3) + sizeof(Mat3) + sizeof(Quat) + 2 * sizeof(Vec3) + sizeof(double);
/// After the first step, the model stays on the device (Copy::Model); the
/// state goes up only in steps the host wrote it before (Copy::Kept: an
/// applied force's external velocity stage, set_body_state): pose,
/// orientation, velocities.
constexpr std::size_t kStateUpBytesPerBody =
    sizeof(Vec3) + sizeof(Mat3) + sizeof(Quat) + 2 * sizeof(Vec3);

TEST(DeviceStep, CopiesWhatTheStepReadsOnly) {
  // No bond and no restitution: the velocities stage runs on the device, so
  // the start and target poses stay there too.
  const Scene s = file("ball_into_stack.json");
  World w = build_world(s, comparable(s.settings, 1));
  world_impl(w).device = make_emulated_backend();
  const std::size_t bodies = static_cast<std::size_t>(w.body_count());
  for (int n = 1; n <= 3; ++n) {
    ASSERT_TRUE(w.step().ok);
    // + 1 KB in the first step: the bond-end range's last entry, the colours'
    // sizes and the scalars copied with the launches. After it nothing goes
    // up a body: the device keeps the state it brought back (Copy::Kept)
    // while the host leaves it alone, the model and the contact topology
    // until they change. 256 bytes is less than a byte a body.
    const std::size_t up_per_body = n == 1 ? kLoopBytesPerBody + kDetectOnlyBytesPerBody : 0;
    const double up_mb = double(bodies * up_per_body + (n == 1 ? 1024 : 256)) * 1e-6;
    const double down_mb = double(bodies * kStateBytesPerBody + 1024) * 1e-6;
    EXPECT_LE(w.last_timings().uploaded_mb, up_mb) << "step " << n;
    EXPECT_LE(w.last_timings().downloaded_mb, down_mb) << "step " << n;
    EXPECT_GT(w.last_timings().downloaded_mb, double(bodies * sizeof(Vec3)) * 1e-6) << "step " << n;
  }
}

TEST(DeviceStep, BringsBackEveryBodysStartAndTarget) {
  // Copy::Out: the device's copies are not uploaded, so predict must write
  // every body's, the static ones' too, or the host would get the stand-in's
  // NaN bits back.
  const Scene s = file("windmill_piles.json");  // static ground and posts
  World w = build_world(s, comparable(s.settings, 1));
  world_impl(w).device = make_emulated_backend();
  ASSERT_TRUE(w.step().ok);
  const BodyStorage& b = world_impl(w).bodies;
  int statics = 0;
  for (std::size_t i = 0; i < b.mass.size(); ++i) {
    statics += b.is_static[i];
    const Real values[] = {b.start_position[i].x, b.start_orientation[i].w,
                           b.start_affine[i].m[1][1], b.target_position[i].y,
                           b.target_affine[i].m[2][2]};
    for (const Real v : values) ASSERT_TRUE(std::isfinite(v)) << "body " << i;
  }
  EXPECT_GT(statics, 0);
}

TEST(DeviceStep, VelocitiesOnTheDeviceStillBringBackTheStartTheAuditReads) {
  // ball_into_stack has no bond and no restitution: its velocities stage runs
  // on the device, and the start pose stays there, unless a load was applied
  // (the energy audit's work of the load reads it on the host).
  const Scene s = file("ball_into_stack.json");
  World cpu = build_world(s, comparable(s.settings, 1));
  World device = build_world(s, comparable(s.settings, 1));
  world_impl(device).device = make_emulated_backend();
  const int box = 500;  // a box of the stack (a new body's generation is 1)
  for (int n = 1; n <= 3; ++n) {
    const Vec3 before = world_impl(device).bodies.position[box];
    for (World* w : {&cpu, &device})
      w->apply_force(BodyId{box, 1}, Vec3{0, 0, 50.0 * n}, before + Vec3{0, 0.25, 0});
    ASSERT_TRUE(cpu.step().ok && device.step().ok) << "step " << n;
    ASSERT_EQ(cpu.state_hash(), device.state_hash()) << "bits differ at step " << n;
    const Vec3 start = world_impl(device).bodies.start_position[box];
    EXPECT_TRUE(start.x == before.x && start.y == before.y && start.z == before.z) << "step " << n;
  }
}

/// What a device step brings back per bond: the writable arrays of
/// BondArrays (the ends' anchors, the joint-axis state, penalty, multiplier).
constexpr std::size_t kBondStateBytes =
    2 * sizeof(Vec3) + sizeof(AxisBondState) + sizeof(Real) + sizeof(Vec3);
/// What goes up per bond in a step whose model and joint settings did not
/// change: the state above. Not the bond's kind, ends, stiffness, rest
/// length, axis, mass behind, nor its limits and drives (`hard`, the axis
/// model: World::set_joint_drive changes them).
constexpr std::size_t kBondUpBytes = kBondStateBytes;

TEST(DeviceStep, IslandMomentumRunsOnTheDevice) {
  // Three islands on ball joints: a free chain in the air, a light box
  // pushed at its end (unconverged joints: the stage has work); a V whose
  // arms touch each other (a contact inside its island: still free); a
  // chain lying on the ground (held by its contacts). The device builds no
  // graph on the host and brings back only the state: island momentum,
  // velocities and restitution run there, and the bits stay the CPU's. The
  // V loses a joint at step 20: its new islands' lists (Copy::Model) must
  // reach the device.
  WorldDef def = comparable(default_world_def(), 1);
  World cpu(comparable(def, 2)), device(def);
  world_impl(device).device = make_emulated_backend();
  std::vector<BodyId> free_chain;
  std::vector<JointId> v_joint;  // the CPU's, the device's
  for (World* w : {&cpu, &device}) {
    BodyDef ground = default_body_def();
    ground.is_static = true;
    ground.shape = plane_shape({0, 1, 0}, 0);
    w->add_body(ground);
    const auto chain = [&](Vec3 start, Vec3 step, int links, Real first_mass) {
      std::vector<BodyId> ids;
      for (int i = 0; i < links; ++i) {
        BodyDef b = default_body_def();
        b.shape = box_shape({0.2, 0.2, 0.2});
        b.mass = i == 0 ? first_mass : 0.05;
        b.position = start + Real(i) * step;
        ids.push_back(w->add_body(b));
        if (i > 0) {
          SphericalJointDef j;
          j.body_a = ids[std::size_t(i - 1)];
          j.body_b = ids.back();
          j.anchor = start + (Real(i) - Real(0.5)) * step;
          w->add_spherical_joint(j);
        }
      }
      return ids;
    };
    free_chain = chain({0, 20, 0}, {0.45, 0, 0}, 5, 10);
    const std::vector<BodyId> v = chain({5, 20, 0}, {0.4, 0.3, 0}, 2, 1);
    BodyDef arm = default_body_def();  // the V's second arm, closing on the first
    arm.shape = box_shape({0.2, 0.2, 0.2});
    arm.mass = 0.05;
    arm.position = {5.8, 20, 0};
    const BodyId closing = w->add_body(arm);
    SphericalJointDef j;
    j.body_a = v[0];
    j.body_b = closing;
    j.anchor = {5.4, 20, 0};
    v_joint.push_back(w->add_spherical_joint(j));
    chain({-5, 0.2, 0}, {0.45, 0, 0}, 3, 1);
  }
  const Vec3 push{0, 5, 3};
  const std::size_t bodies = std::size_t(device.body_count());
  const std::size_t bonds = std::size_t(world_impl(device).bonds.kind.size());
  for (int n = 1; n <= 30; ++n) {
    if (n == 20) {
      cpu.remove_joint(v_joint[0]);
      device.remove_joint(v_joint[1]);
    }
    for (World* w : {&cpu, &device})
      w->apply_force(free_chain.back(), push, w->body_state(free_chain.back()).position);
    ASSERT_TRUE(cpu.step().ok && device.step().ok) << "step " << n;
    ASSERT_EQ(cpu.state_hash(), device.state_hash()) << "bits differ at step " << n;
    // The state, the start pose the audit reads (a force was applied), the
    // bonds' state, + 1 KB; not the start and target poses island momentum
    // reads (224 bytes a body) nor the pairs' graph.
    const std::size_t down = bodies * (kStateBytesPerBody + sizeof(Vec3) + sizeof(Quat)) +
                             bonds * kBondStateBytes + 1024;
    EXPECT_LE(device.last_timings().downloaded_mb, double(down) * 1e-6) << "step " << n;
    // Up, where the model did not change: the state (the push is written
    // to the velocities on the host each step) and the bonds' state, + 128
    // bytes, less than the bonds' model (60 bytes a bond) or their joint
    // settings (sizeof(AxisBondModel) + 1 a bond).
    const std::size_t up = bodies * kStateUpBytesPerBody + bonds * kBondUpBytes + 128;
    if (n != 1 && n != 20) {
      EXPECT_LE(device.last_timings().uploaded_mb, double(up) * 1e-6) << "step " << n;
    }
  }
  EXPECT_GT(device.contact_count(), 0);
  // The free chain's momentum is the impulse of the push and gravity: the
  // stage ran (round-off only, as tests/test_island_momentum.cpp).
  Vec3 p, mass_times_g;
  for (const BodyId id : free_chain) {
    p += device.body_mass(id) * device.body_state(id).velocity;
    mass_times_g += device.body_mass(id) * def.gravity;
  }
  const Vec3 impulse = (30 * def.dt) * (push + mass_times_g);
  EXPECT_NEAR(p.x, impulse.x, 1e-9);
  EXPECT_NEAR(p.y, impulse.y, 1e-9 * std::fabs(impulse.y));
  EXPECT_NEAR(p.z, impulse.z, 1e-9 * impulse.z);
}

TEST(DeviceStep, CarriedSpeedsOnTheDeviceAreTheCpus) {
  // The divergence guard's speeds carried over the contacts: on the device
  // (DeviceBackend::carry_contact_speeds) where the step's velocities were
  // found there, on the host otherwise; the same kernel, so the same bits.
  const Scene s = file("ball_into_stack.json");
  World cpu = build_world(s, comparable(s.settings, 2));
  World device = build_world(s, comparable(s.settings, 1));
  world_impl(device).device = make_emulated_backend();
  for (int n = 1; n <= 20; ++n) ASSERT_TRUE(cpu.step().ok && device.step().ok) << "step " << n;
  const std::vector<double>& a = world_impl(cpu).energy_audit.carried_speed;
  const std::vector<double>& b = world_impl(device).energy_audit.carried_speed;
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0);
  // The 100 kg ball hits the 1 kg boxes at 20 m/s by then: it carries speed.
  EXPECT_GT(*std::max_element(b.begin(), b.end()), 1.0);
  EXPECT_EQ(world_impl(device).energy_audit.device_carried_speed.size(), a.size());
}

TEST(DeviceStep, RefusesIterationObservers) {
  Scene s = file("spring_pair.json");
  World w = build_world(s, s.settings);
  world_impl(w).device = make_emulated_backend();
  w.set_iteration_observer([](int) {});
  try {
    w.step();
    FAIL() << "an observer on a device step was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("iteration observers need the CPU"), std::string::npos)
        << e.what();
  }
}

TEST(DeviceStep, CudaWithoutCudaIsAOneLineError) {
  WorldDef d = default_world_def();
  d.device = Device::Cuda;
#ifdef PABD_WITH_CUDA
  GTEST_SKIP() << "this build has the CUDA backend (tests/test_cuda_device.cpp checks it)";
#else
  try {
    World w(d);
    FAIL() << "Device::Cuda was accepted by a build without CUDA";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("built without CUDA"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
#endif
}

TEST(DeviceStep, AvbdOnADeviceIsRefused) {
  WorldDef d = default_world_def();
  d.device = Device::Cuda;
  d.solver = SolverKind::Avbd;
  try {
    World w(d);
    FAIL() << "the AVBD baseline on a device was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("AVBD baseline runs on the CPU only"), std::string::npos)
        << e.what();
  }
}

/// A DeviceMemory of host buffers that counts its calls.
class CountingMemory final : public DeviceMemory {
 public:
  int allocations = 0, uploads = 0, downloads = 0, scribbles = 0;
  void* allocate(std::size_t bytes) override {
    ++allocations;
    return ::operator new(bytes);
  }
  void release(void* device) override { ::operator delete(device); }
  void copy_to_device(void* device, const void* host, std::size_t bytes) override {
    ++uploads;
    std::memcpy(device, host, bytes);
  }
  void copy_to_host(void* host, const void* device, std::size_t bytes) override {
    ++downloads;
    std::memcpy(host, device, bytes);
  }
  void scribble(void* device, std::size_t bytes) override {
    ++scribbles;
    std::memset(device, 0xff, bytes);
  }
};

TEST(ArrayMirror, BringsBackOnlyWhatTheViewMayWrite) {
  CountingMemory memory;
  ArrayMirror mirror(memory);
  std::vector<double> state = {1, 2, 3};
  const std::vector<int> model = {7, 8};
  double* state_view = state.data();
  const int* model_view = model.data();
  mirror.begin_pass();
  mirror.map(state_view, state.size());
  mirror.map(model_view, model.size());
  ASSERT_NE(state_view, state.data());  // the view now names the copies
  ASSERT_NE(model_view, model.data());
  state_view[1] = 20;                    // "kernels" write the device copy
  const_cast<int*>(model_view)[0] = 70;  // a write a const view cannot make
  EXPECT_EQ(state[1], 2);                // the host sees nothing before the download
  mirror.download_writable();
  EXPECT_EQ(state, (std::vector<double>{1, 20, 3}));
  EXPECT_EQ(model, (std::vector<int>{7, 8}));
  EXPECT_EQ(memory.downloads, 1);
}

TEST(ArrayMirror, ScratchTravelsNeitherWay) {
  CountingMemory memory;
  ArrayMirror mirror(memory);
  std::vector<double> scratch = {1, 2};
  double* view = scratch.data();
  mirror.begin_pass();
  mirror.map(view, scratch.size(), ArrayMirror::Copy::None);
  EXPECT_TRUE(std::isnan(view[0]));  // scribbled on, not uploaded
  view[0] = 10;
  mirror.download_writable();
  EXPECT_EQ(scratch, (std::vector<double>{1, 2}));  // and not brought back
  EXPECT_EQ(memory.uploads + memory.downloads, 0);
  EXPECT_EQ(memory.scribbles, 1);
}

TEST(ArrayMirror, InGoesUpOnlyAndOutComesBackOnly) {
  CountingMemory memory;
  ArrayMirror mirror(memory);
  std::vector<double> read = {1, 2}, written = {3, 4};
  double* read_view = read.data();
  double* written_view = written.data();
  mirror.begin_pass();
  mirror.map(read_view, read.size(), ArrayMirror::Copy::In);
  mirror.map(written_view, written.size(), ArrayMirror::Copy::Out);
  EXPECT_EQ(read_view[1], 2.0);              // uploaded
  EXPECT_TRUE(std::isnan(written_view[0]));  // scribbled on, not uploaded
  read_view[0] = 10;                         // a write the host does not want back
  written_view[0] = 30;
  written_view[1] = 40;
  mirror.download_writable();
  EXPECT_EQ(read, (std::vector<double>{1, 2}));
  EXPECT_EQ(written, (std::vector<double>{30, 40}));
  EXPECT_EQ(memory.uploads, 1);
  EXPECT_EQ(memory.downloads, 1);
  EXPECT_EQ(memory.copied().up, 2 * sizeof(double));
  EXPECT_EQ(memory.copied().down, 2 * sizeof(double));
  EXPECT_EQ(memory.copied().uploads + memory.copied().downloads, 2u);
}

TEST(ArrayMirror, ModelGoesUpAfterAChangeOnly) {
  CountingMemory memory;
  ArrayMirror mirror(memory);
  const std::vector<double> mass = {1, 2};
  std::vector<double> scratch = {0, 0, 0};
  // One pass per step: versions 7, 7, 8, unversioned, 8.
  const std::uint64_t versions[] = {7, 7, 8, ArrayMirror::kUnversioned, 8};
  const int expected_uploads[] = {1, 1, 2, 3, 4};
  for (int pass = 0; pass < 5; ++pass) {
    const double* view = mass.data();
    mirror.begin_pass(versions[pass]);
    mirror.map(view, mass.size(), ArrayMirror::Copy::Model);
    EXPECT_EQ(view[1], 2.0) << "pass " << pass;
    EXPECT_EQ(memory.uploads, expected_uploads[pass]) << "pass " << pass;
  }
  // An unversioned pass uploads whatever it held (pass 3), and records no
  // version the next pass could trust (pass 4 uploads again). A slot that
  // held other bytes meanwhile is uploaded again too.
  double* other = scratch.data();
  mirror.begin_pass(8);
  mirror.map(other, scratch.size(), ArrayMirror::Copy::None);
  const double* view = mass.data();
  mirror.begin_pass(8);
  mirror.map(view, mass.size(), ArrayMirror::Copy::Model);
  EXPECT_EQ(view[0], 1.0);
  EXPECT_EQ(memory.uploads, 5);
}

TEST(ArrayMirror, ModelWithItsOwnVersionGoesUpWhenThatChangesOnly) {
  // The contact topology's arrays change with its rebuilds, not with the
  // World's model version: map_model goes by the version it is given.
  CountingMemory memory;
  ArrayMirror mirror(memory);
  const std::vector<std::uint8_t> jointed = {0, 1, 1};
  // One pass per step: (pass version, own version) pairs.
  const std::uint64_t pass_versions[] = {7, 8, 8, ArrayMirror::kUnversioned, 9};
  const std::uint64_t own_versions[] = {1, 1, 2, 2, 2};
  const int expected_uploads[] = {1, 1, 2, 2, 2};
  for (int pass = 0; pass < 5; ++pass) {
    const std::uint8_t* view = jointed.data();
    mirror.begin_pass(pass_versions[pass]);
    mirror.map_model(view, jointed.size(), own_versions[pass]);
    EXPECT_EQ(view[1], 1) << "pass " << pass;
    EXPECT_EQ(memory.uploads, expected_uploads[pass]) << "pass " << pass;
  }
}

TEST(ArrayMirror, KeptStateGoesUpAfterTheHostWroteItOrAPassWasMissed) {
  CountingMemory memory;
  ArrayMirror mirror(memory);
  std::vector<double> state = {1, 2};
  std::vector<double> other = {0, 0};
  // One pass over `array` at `state_version`: the "loops" add `device_adds`
  // to its first element; `brought_back`: the pass ends with the download.
  const auto pass = [&](std::vector<double>& array, std::uint64_t state_version, double device_adds,
                        bool brought_back = true) {
    double* view = array.data();
    mirror.begin_pass(5, state_version);
    mirror.map(view, array.size(), ArrayMirror::Copy::Kept);
    view[0] += device_adds;
    if (brought_back) mirror.download_writable();
  };
  pass(state, 1, 10);  // up (first), back: 11
  EXPECT_EQ(memory.uploads, 1);
  EXPECT_EQ(state[0], 11.0);
  pass(state, 1, 10);  // held: the device's 11 + 10
  EXPECT_EQ(memory.uploads, 1);
  EXPECT_EQ(state[0], 21.0);
  state[0] = 100;  // the host writes, and says so
  pass(state, 2, 1);
  EXPECT_EQ(memory.uploads, 2);
  EXPECT_EQ(state[0], 101.0);
  // A pass that maps the slot to another array: the next one uploads.
  pass(other, 2, 0);
  pass(state, 2, 1);
  EXPECT_EQ(memory.uploads, 4);
  EXPECT_EQ(state[0], 102.0);
  // A pass that maps it (held: no upload) but ends before bringing it back
  // (an error mid-step): the device's copy may have moved on, so the next
  // pass uploads.
  pass(state, 2, 0, false);
  EXPECT_EQ(memory.uploads, 4);
  pass(state, 2, 0);
  EXPECT_EQ(memory.uploads, 5);
}

TEST(ArrayMirror, SharedArraysShareOneBufferAndBuffersOutliveThePass) {
  CountingMemory memory;
  ArrayMirror mirror(memory);
  std::vector<double> sums(8, 1.0);
  for (int pass = 0; pass < 3; ++pass) {
    double* writer = sums.data();
    const double* reader = sums.data();
    const double* absent = nullptr;
    mirror.begin_pass();
    mirror.map(writer, sums.size());
    mirror.map(absent, 5);  // null stays null, and keeps its slot
    mirror.map(reader, sums.size());
    ASSERT_EQ(absent, nullptr);
    ASSERT_EQ(reader, writer) << "one host array, two device buffers";
    writer[0] += 1;
    mirror.download_writable();
  }
  EXPECT_EQ(sums[0], 4.0);
  EXPECT_EQ(memory.allocations, 1);  // grown once, then reused
  EXPECT_EQ(memory.uploads, 3);
  EXPECT_EQ(mirror.peak_bytes(), 2 * sums.size() * sizeof(double));  // twice the asked size
}

}  // namespace
}  // namespace pabd

// The scene format's array generator ("arrays", docs/scene-format.md) and the
// scenes built with it: expansion (count, order, names, positions, template
// fields), every error with its JSON path, joints between generated bodies, the
// generated paper scenes (ball_into_stack, pile_20, pile_50's parse time), the
// windmill sweeping its piles, and the gears' transmission ratio.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <variant>
#include <vector>

#include "pabd/scene.h"

namespace pabd {
namespace {

constexpr const char* kFile = "test.json";

std::string scene_path(const char* name) {
  return std::string(PABD_SOURCE_DIR) + "/scenes/" + name;
}

/// The message of the SceneError that parsing `text` throws ("" if none).
std::string error_of(const std::string& text) {
  try {
    parse_scene(text, kFile);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

/// A scene whose "arrays" holds `array` (JSON text of one array object).
std::string one_array(const std::string& array) {
  return R"({"bodies": [{"name": "ground", "static": true, "shape": {"type": "plane"}}],
             "arrays": [)" +
         array + "]}";
}

constexpr const char* kBox = R"("shape": {"type": "box", "size": [0.5, 0.5, 0.5]})";

// ---------------------------------------------------------------------------
// Expansion.

TEST(SceneArrays, ExpandsInDocumentedOrderWithNamesAndPositions) {
  // Origin and spacing are exact binary fractions, so origin + index * spacing is
  // exact and the positions compare with ==.
  const Scene s = parse_scene(R"({
    "bodies": [{"name": "ground", "static": true, "shape": {"type": "plane"}},
               {"name": "ball", "shape": {"type": "sphere", "radius": 0.25}}],
    "arrays": [
      {"name": "box", "count": [3, 2, 4], "spacing": [2, 0.25, 4], "origin": [1, 0.5, -2],
       "shape": {"type": "box", "size": [0.5, 0.5, 0.5]}, "mass": 3, "friction": 0.25,
       "velocity": [1, 2, 3], "angular_velocity": [0, 0, 7], "orientation": [2, 0, 0, 0]},
      {"name": "pin", "count": [1, 1, 2], "spacing": [1, 1, 1], "static": true,
       "shape": {"type": "capsule", "radius": 0.1, "half_height": 0.2}}
    ]})",
                              kFile);
  // 2 listed + 3 * 2 * 4 + 1 * 1 * 2.
  ASSERT_EQ(s.bodies.size(), 2u + 24u + 2u);
  EXPECT_EQ(s.bodies[0].name, "ground");
  EXPECT_EQ(s.bodies[1].name, "ball");
  // x fastest, then z, then y.
  std::size_t index = 2;
  for (int j = 0; j < 2; ++j)
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < 3; ++i, ++index) {
        const BodyDef& b = s.bodies[index];
        const std::string name =
            "box_" + std::to_string(i) + "_" + std::to_string(j) + "_" + std::to_string(k);
        EXPECT_EQ(b.name, name) << "index " << index;
        EXPECT_EQ(b.position.x, 1 + 2.0 * i) << name;
        EXPECT_EQ(b.position.y, 0.5 + 0.25 * j) << name;
        EXPECT_EQ(b.position.z, -2 + 4.0 * k) << name;
        // The template's values, on every body.
        EXPECT_EQ(b.shape.type, ShapeType::Box);
        EXPECT_EQ(b.shape.size.y, 0.5);
        EXPECT_EQ(b.mass, 3.0);
        EXPECT_EQ(b.friction, 0.25);
        EXPECT_EQ(b.velocity.z, 3.0);
        EXPECT_EQ(b.angular_velocity.z, 7.0);
        EXPECT_EQ(b.orientation.w, 1.0);  // [2,0,0,0] normalised exactly
        EXPECT_FALSE(b.is_static);
      }
  // The second array: origin defaults to 0, static template, capsule shape.
  EXPECT_EQ(s.bodies[26].name, "pin_0_0_0");
  EXPECT_EQ(s.bodies[27].name, "pin_0_0_1");
  EXPECT_EQ(s.bodies[27].position.z, 1.0);
  EXPECT_EQ(s.bodies[27].position.x, 0.0);
  EXPECT_TRUE(s.bodies[27].is_static);
  EXPECT_EQ(s.bodies[27].shape.type, ShapeType::Capsule);
  EXPECT_EQ(s.bodies[27].density, 1000.0);  // the body default
}

TEST(SceneArrays, JointsReferenceGeneratedBodies) {
  // A chain of three boxes hung from the world by generated names.
  const Scene s = parse_scene(R"({
    "bodies": [],
    "arrays": [{"name": "link", "count": [3, 1, 1], "spacing": [1, 1, 1], "origin": [0.5, 4, 0],
                "shape": {"type": "box", "size": [1, 0.2, 0.2]}, "mass": 1}],
    "joints": [
      {"type": "spherical", "body_a": "world", "body_b": "link_0_0_0", "anchor": [0, 4, 0]},
      {"type": "spherical", "body_a": "link_0_0_0", "body_b": "link_1_0_0", "anchor": [1, 4, 0]},
      {"type": "hinge", "body_a": "link_1_0_0", "body_b": "link_2_0_0", "anchor": [2, 4, 0],
       "axis": [0, 0, 1]}
    ]})",
                              kFile);
  ASSERT_EQ(s.bodies.size(), 3u);
  ASSERT_EQ(s.joints.size(), 3u);
  World world = build_world(s, s.settings);
  EXPECT_EQ(world.body_count(), 3);
  EXPECT_EQ(world.joint_count(), 3);
  const JointInfo last = world.joint_info(world.joint_at(2));
  EXPECT_EQ(world.body_name(last.body_a), "link_1_0_0");
  EXPECT_EQ(world.body_name(last.body_b), "link_2_0_0");
  // The chain hangs: after a few steps every link is still finite and below its start.
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(world.step().ok);
  EXPECT_LT(world.body_state(world.find_body("link_2_0_0")).position.y, 4.0);

  // A name outside the grid is an unknown body.
  EXPECT_EQ(error_of(R"({"bodies": [],
    "arrays": [{"name": "link", "count": [2, 1, 1], "spacing": [1, 1, 1], )" +
                     std::string(kBox) + R"(}],
    "joints": [{"type": "spherical", "body_a": "link_0_0_0", "body_b": "link_2_0_0",
                "anchor": [0, 0, 0]}]})"),
            "test.json: /joints/0/body_b: expected the name of a body or \"world\", got an "
            "unknown body 'link_2_0_0'");
}

// ---------------------------------------------------------------------------
// Errors: one line, file and JSON pointer, what was expected.

TEST(SceneArrays, ErrorsNameTheirPath) {
  const std::string box = kBox;
  const struct {
    std::string array;  // JSON text of the one array entry
    std::string message;
  } cases[] = {
      {R"({"name": "b", "count": [2, 0, 2], "spacing": [1, 1, 1], )" + box + "}",
       "test.json: /arrays/0/count/1: expected an integer from 1 to 10000000, got 0"},
      {R"({"name": "b", "count": [2, 2, -3], "spacing": [1, 1, 1], )" + box + "}",
       "test.json: /arrays/0/count/2: expected an integer from 1 to 10000000, got -3"},
      {R"({"name": "b", "count": [2.0, 2, 2], "spacing": [1, 1, 1], )" + box + "}",
       "test.json: /arrays/0/count/0: expected an integer from 1 to 10000000, got 2.0"},
      {R"({"name": "b", "count": [2, 2], "spacing": [1, 1, 1], )" + box + "}",
       "test.json: /arrays/0/count: expected an array [nx, ny, nz] of 3 positive integers, got "
       "an array of 2"},
      {R"({"count": [2, 2, 2], "spacing": [1, 1, 1], )" + box + "}",
       "test.json: /arrays/0/name: expected a string (the bodies' name prefix), but the key is "
       "missing"},
      {R"({"name": "b", "spacing": [1, 1, 1], )" + box + "}",
       "test.json: /arrays/0/count: expected an array [nx, ny, nz] of 3 positive integers, but "
       "the key is missing"},
      {R"({"name": "b", "count": [2, 2, 2], )" + box + "}",
       "test.json: /arrays/0/spacing: expected an array of 3 positive numbers, but the key is "
       "missing"},
      {R"({"name": "b", "count": [2, 2, 2], "spacing": [1, 0, 1], )" + box + "}",
       "test.json: /arrays/0/spacing/1: expected a positive finite number, got 0"},
      {R"({"name": "b", "count": [1, 1, 1], "spacing": [1, 1, 1]})",
       "test.json: /arrays/0/shape: expected a shape object, but the key is missing"},
      {R"({"name": "b", "count": [1, 1, 1], "spacing": [1, 1, 1], "mass": -1, )" + box + "}",
       "test.json: /arrays/0/mass: expected a positive finite number, got -1"},
      {R"({"name": "b", "count": [1, 1, 1], "spacing": [1, 1, 1], "position": [0, 0, 0], )" + box +
           "}",
       "test.json: /arrays/0/position: expected one of the keys name, count, spacing, origin, "
       "shape, orientation, velocity, angular_velocity, mass, density, friction, restitution, "
       "linear_damping, angular_damping, collision_group, collision_mask, static, got an unknown "
       "key"},
      {R"({"name": 7, "count": [1, 1, 1], "spacing": [1, 1, 1], )" + box + "}",
       "test.json: /arrays/0/name: expected a string, got 7"},
      // A plane needs a static body, in an array as in a body.
      {R"({"name": "b", "count": [1, 1, 1], "spacing": [1, 1, 1], "shape": {"type": "plane"}})",
       "test.json: /arrays/0/shape/type: expected a plane only on a static body (add \"static\": "
       "true)"},
      // 1000^3 is over the limit (the product is checked without overflow).
      {R"({"name": "b", "count": [1000, 1000, 1000], "spacing": [1, 1, 1], )" + box + "}",
       "test.json: /arrays/0/count: expected at most 10000000 bodies in the scene, got 1000 x "
       "1000 x 1000 more after 1"},
      // 10^7 generated plus the listed ground is one too many.
      {R"({"name": "b", "count": [10000000, 1, 1], "spacing": [1, 1, 1], )" + box + "}",
       "test.json: /arrays/0/count: expected at most 10000000 bodies in the scene, got 10000000 "
       "x 1 x 1 more after 1"},
      // The last position overflows: 1e308 + 9 * 1e308.
      {R"({"name": "b", "count": [1, 10, 1], "spacing": [1, 1e308, 1], "origin": [0, 1e308, 0], )" +
           box + "}",
       "test.json: /arrays/0/spacing: expected positions that stay finite, got origin + (count - "
       "1) spacing non-finite along y"},
      // The World API rejects the template (its mass overflows): reported at the array.
      {R"({"name": "b", "count": [2, 2, 2], "spacing": [1, 1, 1], "density": 1e300,
           "shape": {"type": "box", "size": [1e10, 1e10, 1e10]}})",
       "test.json: /arrays/0: body 'b_0_0_0': mass: expected a finite number > 0"},
      // A prefix equal to a listed body's name is fine: "ground_0_0_0" is not "ground".
      {R"({"name": "ground", "count": [1, 1, 1], "spacing": [1, 1, 1], )" + box + "}", ""},
  };
  for (const auto& c : cases) {
    const std::string got = error_of(one_array(c.array));
    EXPECT_EQ(got, c.message) << c.array;
    EXPECT_EQ(got.find('\n'), std::string::npos);  // one line
  }

  // "arrays" must be an array of objects.
  EXPECT_EQ(error_of(R"({"bodies": [], "arrays": {}})"),
            "test.json: /arrays: expected an array of body arrays, got an object");
  EXPECT_EQ(error_of(R"({"bodies": [], "arrays": [3]})"),
            "test.json: /arrays/0: expected an array object, got 3");
}

TEST(SceneArrays, NameClashesAreErrors) {
  const std::string box = kBox;
  // With a listed body.
  EXPECT_EQ(error_of(R"({"bodies": [{"name": "x", "static": true, "shape": {"type": "plane"}},
                                    {"name": "b_1_0_0", )" +
                     box + R"(}],
    "arrays": [{"name": "b", "count": [2, 1, 1], "spacing": [1, 1, 1], )" +
                     box + "}]}"),
            "test.json: /arrays/0/name: expected a unique body name, got 'b_1_0_0' (element "
            "[1,0,0] of this array), already used by /bodies/1");
  // Between two arrays: the second's first body is the first's.
  EXPECT_EQ(error_of(R"({"bodies": [],
    "arrays": [{"name": "b", "count": [2, 1, 1], "spacing": [1, 1, 1], )" +
                     box + R"(},
               {"name": "c", "count": [1, 1, 1], "spacing": [1, 1, 1], )" +
                     box + R"(},
               {"name": "b", "count": [1, 1, 1], "spacing": [1, 1, 1], "origin": [0, 5, 0], )" +
                     box + "}]}"),
            "test.json: /arrays/2/name: expected a unique body name, got 'b_0_0_0' (element "
            "[0,0,0] of this array), already used by /arrays/0");
  // Prefixes that look alike do not clash: "b" makes three indices, "b_1" four.
  EXPECT_EQ(error_of(R"({"bodies": [],
    "arrays": [{"name": "b", "count": [2, 2, 2], "spacing": [1, 1, 1], )" +
                     box + R"(},
               {"name": "b_1", "count": [2, 2, 2], "spacing": [1, 1, 1], "origin": [9, 0, 0], )" +
                     box + "}]}"),
            "");
}

// ---------------------------------------------------------------------------
// The generated scenes.

TEST(SceneArrays, BallIntoStackIsTheTenCubedStack) {
  const Scene s = load_scene(scene_path("ball_into_stack.json"));
  // Ground, ball, then 10 x 10 x 10 boxes.
  ASSERT_EQ(s.bodies.size(), 1002u);
  EXPECT_EQ(s.bodies[0].name, "ground");
  EXPECT_TRUE(s.bodies[0].is_static);
  const BodyDef& ball = s.bodies[1];
  EXPECT_EQ(ball.name, "ball");
  EXPECT_EQ(ball.shape.type, ShapeType::Sphere);
  EXPECT_EQ(ball.shape.radius, 0.75);  // 1.5 m diameter
  EXPECT_EQ(ball.mass, 100.0);
  EXPECT_EQ(ball.velocity.x, 20.0);
  EXPECT_EQ(s.settings.iterations, 20);
  EXPECT_DOUBLE_EQ(s.settings.dt, 1.0 / 60);
  // Box (x, y, z) at (1.02 x, 0.5 + y, 1.02 (z - 4.5)): layers resting on each other,
  // 2 cm gaps in a layer, centred on z = 0. 1e-12 m: the decimal origin and spacing
  // round to doubles, a few ulps of 10 m.
  std::size_t index = 2;
  for (int y = 0; y < 10; ++y)
    for (int z = 0; z < 10; ++z)
      for (int x = 0; x < 10; ++x, ++index) {
        const BodyDef& b = s.bodies[index];
        ASSERT_EQ(b.name,
                  "box_" + std::to_string(x) + "_" + std::to_string(y) + "_" + std::to_string(z));
        EXPECT_NEAR(b.position.x, 1.02 * x, 1e-12);
        EXPECT_NEAR(b.position.y, 0.5 + y, 1e-12);
        EXPECT_NEAR(b.position.z, 1.02 * (z - 4.5), 1e-12);
        EXPECT_EQ(b.mass, 1.0);
        EXPECT_EQ(b.shape.size.x, 1.0);
        EXPECT_FALSE(b.is_static);
      }
}

TEST(SceneArrays, Pile20StartsWithoutContact) {
  const Scene s = load_scene(scene_path("pile_20.json"));
  const int n = 20;
  ASSERT_EQ(s.bodies.size(), std::size_t(n * n * n + 2));  // ground, ball, boxes
  const BodyDef& ball = s.bodies[1];
  ASSERT_EQ(ball.name, "ball");
  const Real pitch = 1.001;  // 1 m boxes, 1 mm apart
  Real lowest = 1e9, min_gap = 1e9;
  std::size_t index = 2;
  for (int y = 0; y < n; ++y)
    for (int z = 0; z < n; ++z)
      for (int x = 0; x < n; ++x, ++index) {
        const BodyDef& b = s.bodies[index];
        ASSERT_EQ(b.name,
                  "box_" + std::to_string(x) + "_" + std::to_string(y) + "_" + std::to_string(z));
        // 1e-12 m: decimal inputs rounded to doubles, a few ulps of 20 m.
        EXPECT_NEAR(b.position.x, pitch * x, 1e-12);
        EXPECT_NEAR(b.position.y, 0.5005 + pitch * y, 1e-12);
        EXPECT_NEAR(b.position.z, pitch * (z - (n - 1) / 2.0), 1e-12);
        EXPECT_EQ(b.mass, 1.0);
        lowest = std::min(lowest, b.position.y - 0.5);
        if (x > 0) min_gap = std::min(min_gap, b.position.x - s.bodies[index - 1].position.x - 1);
      }
  std::printf("pile_20: %zu bodies, lowest box bottom %.4g m, smallest side gap %.4g m\n",
              s.bodies.size(), lowest, min_gap);
  // Nothing starts in contact: 0.5 mm above the ground, 1 mm between neighbours
  // (0.4 mm: well above the 1e-12 rounding, well below the 0.5 mm design gap).
  EXPECT_GT(lowest, 0.4e-3);
  EXPECT_GT(min_gap, 0.9e-3);
  // The ball clears the pile's face (x = -0.5) and flies at it.
  EXPECT_LT(ball.position.x + ball.shape.radius, -0.5);
  EXPECT_GT(ball.velocity.x, 0);
}

TEST(SceneArrays, Pile50ParsesAndBuildsInLinearTime) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  const Scene s = load_scene(scene_path("pile_50.json"));
  const auto t1 = Clock::now();
  const World world = build_world(s, s.settings);
  const auto t2 = Clock::now();
  const double parse_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  const double build_ms = std::chrono::duration<double, std::milli>(t2 - t1).count();
  std::printf("pile_50: %zu bodies, parse + expand %.1f ms, build_world %.1f ms\n", s.bodies.size(),
              parse_ms, build_ms);
  RecordProperty("pile50_parse_ms", std::to_string(parse_ms));
  RecordProperty("pile50_build_ms", std::to_string(build_ms));
  // 50^3 boxes + the ball are the paper's 125,001 moving bodies; plus the ground.
  ASSERT_EQ(world.body_count(), 125002);
  EXPECT_EQ(world.body_name(world.body_at(125001)), "box_49_49_49");
  EXPECT_NEAR(world.body_state(world.body_at(125001)).position.y, 0.5005 + 49 * 1.001, 1e-12);
  // Linear work is well under a second here; a quadratic expansion (a linear name
  // search per body) would do ~8e9 string comparisons, minutes. 20 s leaves room for
  // a loaded machine and a sanitizer build (5-10x slower).
  EXPECT_LT(parse_ms + build_ms, 20000.0);
}

// ---------------------------------------------------------------------------
// Windmill and piles: the blades sweep the boxes.

struct SweepFigures {
  int moved = 0;              // boxes more than 5 cm from where they started
  Real max_displacement = 0;  // [m]
  Real max_speed = 0;         // fastest box [m/s]
  Real lowest = 1e9;          // lowest box centre [m]
  Real hub_angle = 0;         // hub's hinge angle [rad]
  bool finite = true;
};

/// Runs windmill_piles for `steps` steps with the hub's drive at `speed` rad/s.
SweepFigures sweep(int steps, Real speed) {
  Scene s = load_scene(scene_path("windmill_piles.json"));
  std::get<HingeJointDef>(s.joints[0].def).drive.target =
      speed;  // the hub's hinge, the scene's first joint
  WorldDef settings = s.settings;
  settings.threads = 1;  // results do not depend on it (determinism); timing does, on a shared box
  World world = build_world(s, settings);
  std::vector<BodyId> boxes;
  std::vector<Vec3> start;
  for (int i = 0; i < world.body_count(); ++i) {
    const std::string& name = world.body_name(world.body_at(i));
    if (name.rfind("left_", 0) == 0 || name.rfind("right_", 0) == 0) {
      boxes.push_back(world.body_at(i));
      start.push_back(world.body_state(boxes.back()).position);
    }
  }
  EXPECT_EQ(boxes.size(), 510u);  // two piles of 5 x 5 x 9 + 3 x 2 x 5
  SweepFigures f;
  for (int step = 0; step < steps && f.finite; ++step) f.finite = world.step().ok;
  for (std::size_t b = 0; b < boxes.size(); ++b) {
    const BodyState st = world.body_state(boxes[b]);
    const Real d = length(st.position - start[b]);
    f.finite = f.finite && std::isfinite(d) && std::isfinite(length(st.velocity));
    f.moved += d > 0.05;
    f.max_displacement = std::max(f.max_displacement, d);
    f.max_speed = std::max(f.max_speed, length(st.velocity));
    f.lowest = std::min(f.lowest, st.position.y);
  }
  f.hub_angle = world.joint_info(world.joint_at(0)).coordinate;
  return f;
}

TEST(SceneArrays, WindmillBladesSweepThePiles) {
  // The blades turn 1 rad per second, into both piles (they reach 3.1 m from the hub,
  // down to 0.9 m above the ground; the piles stand 2.8 m high from 0.5 m beside
  // the post's axis).
  const SweepFigures still = sweep(60, 0);
  // 2.5 s driven: long enough for boxes thrown off the top to land (a box that
  // flipped within a step fell through the ground after 1.9 s before the
  // rotation cap, WorldDef::max_rotation_per_step).
  const SweepFigures driven = sweep(150, 1);
  std::printf(
      "windmill_piles: driven 2.5 s: %d of 510 boxes moved > 5 cm, max displacement %.3g m, "
      "max speed %.3g m/s, lowest centre %.4g m, hub %.4g rad; drive at 0, 1 s: %d moved, max "
      "displacement %.3g m, max speed %.3g m/s\n",
      driven.moved, driven.max_displacement, driven.max_speed, driven.lowest, driven.hub_angle,
      still.moved, still.max_displacement, still.max_speed);
  ASSERT_TRUE(still.finite);
  ASSERT_TRUE(driven.finite);
  // With the windmill held still the piles stand: no box moves 5 cm (a few mm of
  // settling into the 1 mm gaps and of Jacobi breathing, docs/collision.md).
  EXPECT_EQ(still.moved, 0);
  // Turning, the blades sweep the piles: many boxes move, thrown at about the blade
  // tips' 3.1 m/s. At least 50 boxes and 1 m/s: a blade sweeping through one
  // column of 7 boxes on each side would already pass 10; the upper bound on the
  // speed (15 m/s) is the tips' 3.1 m/s plus a fall from the pile's top, 7.4 m/s,
  // with room: anything faster is an explosion.
  EXPECT_GE(driven.moved, 50);
  EXPECT_GT(driven.max_speed, 1.0);
  EXPECT_LT(driven.max_speed, 15.0);
  // The drive keeps turning through the piles: 2.5 rad at 1 rad/s if
  // unhindered; a stalled windmill would stay near 0.5 rad (it jammed within
  // half a second before the jointed blades stopped loading the boxes'
  // penalties, contacts/contact_load.h). Measured about 0.2 rad behind.
  EXPECT_GT(driven.hub_angle, 2.0);
  // No box is pushed into the ground by more than a quarter of its 0.4 m (it rests
  // at y = 0.2).
  EXPECT_GT(driven.lowest, 0.1);
}

// ---------------------------------------------------------------------------
// Gears: the free gear turns at -(N_driven / N_free) times the driven one.

/// Rotation angle about +z of an orientation that only turns about z [rad], in (-pi, pi].
Real angle_about_z(Quat q) { return 2 * std::atan2(q.z, q.w); }

TEST(SceneArrays, GearsTurnAtTheToothRatio) {
  // scenes/gears.json (scripts/make_scenes.py, gears()): 12 teeth driven at 1 rad/s,
  // 18 teeth free, both on hinges about z to the world.
  const int n_driven = 12, n_free = 18;
  const Scene s = load_scene(scene_path("gears.json"));
  World world = build_world(s, s.settings);
  const BodyId driven = world.find_body("driven"), free = world.find_body("free");
  const Real speed = std::get<HingeJointDef>(s.joints[0].def).drive.target;
  ASSERT_EQ(speed, 1.0);
  const Real ratio = -Real(n_driven) / n_free;
  // Both start at the identity; angles unwrapped step by step (a step turns them
  // far less than pi).
  Real a_driven = 0, a_free = 0, prev_driven = 0, prev_free = 0, worst = 0;
  const auto unwrap = [](Real& total, Real& prev, Real now) {
    total += std::remainder(now - prev, 2 * std::numbers::pi);
    prev = now;
  };
  const int steps = 300;  // 5 s: the driven gear turns 5 rad, 9.5 teeth of it pass the mesh
  for (int step = 1; step <= steps; ++step) {
    ASSERT_TRUE(world.step().ok) << "step " << step;
    unwrap(a_driven, prev_driven, angle_about_z(world.body_state(driven).orientation));
    unwrap(a_free, prev_free, angle_about_z(world.body_state(free).orientation));
    worst = std::max(worst, std::fabs(a_free - ratio * a_driven));
  }
  const Real t = steps * s.settings.dt;
  std::printf(
      "gears, %.1f s: driven %.5g rad (drive: %.5g), free %.5g rad, ratio %.5f (expected "
      "%.5f), largest |free - ratio * driven| over the run %.3g rad\n",
      t, a_driven, speed * t, a_free, a_free / a_driven, ratio, worst);
  // Sanity: the driven gear turns with its drive. The drive's accuracy is tested in
  // test_limits_drives (0.01% unloaded); here the meshing teeth's contact pulses
  // load it, so 5%: a stalled or runaway gear is off by far more.
  EXPECT_NEAR(a_driven, speed * t, 0.05 * speed * t);
  // Meshing teeth make the free gear follow at -12/18 of the driven angle, up to the
  // play between the teeth and the pins' non-involute profile: well under half a
  // tooth pitch of the free gear (pi / 18 = 0.175 rad). A tooth that slips or skips
  // shifts it by a whole pitch (0.349 rad), and a free gear left behind by 5 rad
  // misses by 3.3 rad; either fails, at every step of the run.
  const Real half_pitch = std::numbers::pi / n_free;
  EXPECT_LT(worst, half_pitch);
  EXPECT_NEAR(a_free, ratio * a_driven, half_pitch);
}

}  // namespace
}  // namespace pabd

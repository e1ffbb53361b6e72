// Scene files: a valid file fills every Scene field (defaults included), and each
// kind of bad input throws SceneError with "FILE: /json/pointer: expected ...".
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "pabd/scene.h"
#include "scene/scene_limits.h"
#include "world/world_validation.h"

namespace pabd {
namespace {

constexpr const char* kFile = "test.json";

/// A scene whose only body is `body` (JSON text of one object).
std::string one_body(const std::string& body) { return R"({"bodies": [)" + body + "]}"; }

/// The message of the SceneError that parsing `text` throws ("" if none).
std::string error_of(const std::string& text) {
  try {
    parse_scene(text, kFile);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(SceneParse, ValidSceneFillsEveryField) {
  const Scene s = parse_scene(R"({
    "description": "every key once",
    "settings": {"dt": 0.01, "iterations": 7, "gravity": [0, 0, -1.5], "steps": 42},
    "bodies": [
      {"name": "ground", "static": true, "shape": {"type": "plane", "normal": [0, 2, 0], "offset": 4}},
      {"name": "box", "shape": {"type": "box", "size": [1, 2, 3]}, "position": [0.1, 0.2, 0.3],
       "orientation": [2, 0, 0, 0], "velocity": [1, 2, 3], "angular_velocity": [4, 5, 6],
       "mass": 2.5, "friction": 0.25},
      {"name": "ball", "shape": {"type": "sphere", "radius": 0.5}, "density": 500},
      {"shape": {"type": "capsule", "radius": 0.2, "half_height": 0.7}}
    ],
    "joints": [
      {"type": "spherical", "body_a": "world", "body_b": "ball", "anchor": [0, 4, 0], "stiffness": 100},
      {"type": "hinge", "body_a": "box", "body_b": "ball", "anchor": [0, 1, 0], "axis": [0, 0, 3]},
      {"type": "slider", "body_a": "box", "body_b": "3", "anchor": [1, 1, 0], "axis": [1, 0, 0]},
      {"type": "fixed", "body_a": "ground", "body_b": "box", "anchor": [0, 0, 0]},
      {"type": "spring", "body_a": "box", "body_b": "ball", "anchor_a": [0, 1, 0],
       "anchor_b": [0, 2.5, 0], "rest_length": 1.0, "stiffness": 1000}
    ]})",
                              kFile);
  // Values are copied from decimal text, so exact equality is right for every value
  // that is not the result of arithmetic.
  EXPECT_EQ(s.file, kFile);
  EXPECT_EQ(s.settings.dt, 0.01);
  EXPECT_EQ(s.settings.iterations, 7);
  EXPECT_EQ(s.settings.gravity.z, -1.5);
  ASSERT_TRUE(s.steps.has_value());  // the "steps" extension is read into Scene::steps
  EXPECT_EQ(*s.steps, 42);
  ASSERT_EQ(s.bodies.size(), 4u);

  const BodyDef& ground = s.bodies[0];
  EXPECT_TRUE(ground.is_static);
  EXPECT_EQ(ground.shape.type, ShapeType::Plane);
  // n.x = 4 with n = (0,2,0) is the plane y = 2: normal and offset are both divided by |n|.
  EXPECT_EQ(ground.shape.normal.y, 1.0);
  EXPECT_EQ(ground.shape.offset, 2.0);

  const BodyDef& box = s.bodies[1];
  EXPECT_EQ(box.name, "box");
  EXPECT_EQ(box.shape.type, ShapeType::Box);
  EXPECT_EQ(box.shape.size.z, 3.0);
  EXPECT_EQ(box.position.x, 0.1);
  EXPECT_EQ(box.orientation.w, 1.0);  // [2,0,0,0] normalised exactly (2/2)
  EXPECT_EQ(box.velocity.y, 2.0);
  EXPECT_EQ(box.angular_velocity.z, 6.0);
  EXPECT_EQ(box.mass, 2.5);
  EXPECT_EQ(box.friction, 0.25);
  EXPECT_FALSE(box.is_static);

  EXPECT_EQ(s.bodies[2].shape.radius, 0.5);
  EXPECT_EQ(s.bodies[2].density, 500.0);
  EXPECT_EQ(s.bodies[2].mass, 0.0);  // 0 tells the World to use the density
  EXPECT_EQ(s.bodies[3].shape.type, ShapeType::Capsule);
  EXPECT_EQ(s.bodies[3].shape.half_height, 0.7);
  EXPECT_EQ(s.bodies[3].name, "3");  // unnamed: its index, so joints can refer to it

  ASSERT_EQ(s.joints.size(), 5u);
  const auto& j0 = std::get<SphericalJointDef>(s.joints[0].def);
  EXPECT_EQ(s.joints[0].body_a, "world");
  EXPECT_EQ(j0.anchor.y, 4.0);
  EXPECT_EQ(j0.stiffness, 100.0);
  EXPECT_EQ(s.joints[0].json_path, "/joints/0");  // build_world's messages point here
  const auto& j1 = std::get<HingeJointDef>(s.joints[1].def);
  EXPECT_EQ(j1.axis.z, 1.0);     // [0,0,3] normalised exactly
  EXPECT_EQ(j1.stiffness, 0.0);  // default: a hard constraint
  EXPECT_EQ(s.joints[2].kind(), JointKind::Slider);
  EXPECT_EQ(s.joints[2].body_b, "3");
  EXPECT_EQ(s.joints[3].kind(), JointKind::Fixed);
  const auto& j4 = std::get<SpringDef>(s.joints[4].def);
  EXPECT_EQ(j4.anchor_b.y, 2.5);
  EXPECT_EQ(j4.rest_length, 1.0);
  EXPECT_EQ(j4.stiffness, 1000.0);
}

TEST(SceneParse, DefaultsAreFilledIn) {
  const Scene s = parse_scene(one_body(R"({"shape": {"type": "box", "size": [1, 1, 1]}})"), kFile);
  // The contract's defaults: gravity [0,-9.81,0], density 1000, friction 0.5, name = index.
  EXPECT_EQ(s.settings.gravity.x, 0.0);
  EXPECT_EQ(s.settings.gravity.y, -9.81);
  EXPECT_EQ(s.settings.gravity.z, 0.0);
  // dt and iterations default to default_world_def()'s values (one source of defaults).
  EXPECT_EQ(s.settings.dt, default_world_def().dt);
  EXPECT_EQ(s.settings.iterations, default_world_def().iterations);
  EXPECT_FALSE(s.steps.has_value());  // the CLI then uses its own default (300)
  ASSERT_EQ(s.bodies.size(), 1u);
  const BodyDef& b = s.bodies[0];
  EXPECT_EQ(b.name, "0");
  EXPECT_EQ(b.density, 1000.0);
  EXPECT_EQ(b.mass, 0.0);
  EXPECT_EQ(b.friction, 0.5);
  EXPECT_FALSE(b.is_static);
  EXPECT_EQ(b.orientation.w, 1.0);
  EXPECT_EQ(b.position.y, 0.0);
  EXPECT_TRUE(s.joints.empty());  // "joints" is optional
}

TEST(SceneParse, OrientationIsNormalised) {
  const Scene s = parse_scene(
      one_body(R"({"shape": {"type": "sphere", "radius": 1}, "orientation": [1, 1, 0, 0]})"),
      kFile);
  const Quat q = s.bodies[0].orientation;
  // [1,1,0,0]/sqrt(2): two roundings (sqrt, divide) are within 2 ulp of 1/sqrt(2).
  EXPECT_NEAR(q.w, std::sqrt(0.5), 4e-16);
  EXPECT_NEAR(q.x, std::sqrt(0.5), 4e-16);
  EXPECT_NEAR(q.w * q.w + q.x * q.x, 1.0, 4e-16);
}

TEST(SceneParse, TinyComponentsStillNormalise) {
  // Scaling by the largest component first keeps 1e-200^2 from underflowing to a zero norm.
  const Scene s = parse_scene(
      one_body(R"({"shape": {"type": "sphere", "radius": 1}, "orientation": [0, 0, 1e-200, 0]})"),
      kFile);
  EXPECT_EQ(s.bodies[0].orientation.y, 1.0);
}

struct BadCase {
  const char* what;  // the kind of error
  std::string text;  // the whole file
  const char* path;  // the JSON Pointer the message must name
};

const std::string kBox = R"("shape": {"type": "box", "size": [1, 1, 1]})";
const std::string kTwoBodies =
    R"("bodies": [{"name": "a", )" + kBox + R"(}, {"name": "b", )" + kBox + "}]";
std::string joint(const std::string& j) { return "{" + kTwoBodies + R"(, "joints": [)" + j + "]}"; }

std::vector<BadCase> bad_cases() {
  return {
      {"unknown top-level key", R"({"bodies": [], "gravity": [0, 0, 0]})", "/gravity"},
      {"unknown settings key", R"({"settings": {"dt": 0.1, "substeps": 2}, "bodies": []})",
       "/settings/substeps"},
      {"unknown body key", one_body("{" + kBox + R"(, "colour": "red"})"), "/bodies/0/colour"},
      {"key of another shape",
       one_body(R"({"shape": {"type": "box", "size": [1,1,1], "radius": 1}})"),
       "/bodies/0/shape/radius"},
      {"'/' in a key is escaped", one_body("{" + kBox + R"(, "a/b": 1})"), "/bodies/0/a~1b"},
      {"missing bodies", R"({"settings": {}})", "/bodies"},
      {"missing shape", one_body(R"({"name": "x"})"), "/bodies/0/shape"},
      {"missing size", one_body(R"({"shape": {"type": "box"}})"), "/bodies/0/shape/size"},
      {"missing shape type", one_body(R"({"shape": {"radius": 1}})"), "/bodies/0/shape/type"},
      {"missing spring key", joint(R"({"type": "spring", "body_a": "a", "body_b": "b",
        "anchor_a": [0,0,0], "rest_length": 1, "stiffness": 1})"),
       "/joints/0/anchor_b"},
      {"root is not an object", "[1, 2]", "/"},
      {"bodies is not an array", R"({"bodies": {}})", "/bodies"},
      {"mass is a string", one_body("{" + kBox + R"(, "mass": "1"})"), "/bodies/0/mass"},
      {"static is a number", one_body("{" + kBox + R"(, "static": 1})"), "/bodies/0/static"},
      {"name is a number", one_body("{" + kBox + R"(, "name": 3})"), "/bodies/0/name"},
      {"vector of 2", one_body("{" + kBox + R"(, "position": [1, 2]})"), "/bodies/0/position"},
      {"string in a vector", one_body("{" + kBox + R"(, "velocity": [1, "2", 3]})"),
       "/bodies/0/velocity/1"},
      {"iterations not an integer", R"({"settings": {"iterations": 2.5}, "bodies": []})",
       "/settings/iterations"},
      {"iterations above the maximum", R"({"settings": {"iterations": 2147483647}, "bodies": []})",
       "/settings/iterations"},
      {"joint between a static body and the world",
       R"({"bodies": [{"name": "a", "static": true, )" + kBox +
           R"(}], "joints": [{"type": "spherical", "body_a": "world", "body_b": "a",
           "anchor": [0,0,0]}]})",
       "/joints/0/body_b"},
      {"1e999 overflows to infinity", one_body("{" + kBox + R"(, "position": [0, 1e999, 0]})"),
       "/bodies/0/position/1"},
      {"-1e999 as dt", R"({"settings": {"dt": -1e999}, "bodies": []})", "/settings/dt"},
      {"zero dt", R"({"settings": {"dt": 0}, "bodies": []})", "/settings/dt"},
      {"zero iterations", R"({"settings": {"iterations": 0}, "bodies": []})",
       "/settings/iterations"},
      {"zero steps", R"({"settings": {"steps": 0}, "bodies": []})", "/settings/steps"},
      {"negative size", one_body(R"({"shape": {"type": "box", "size": [1, -2, 1]}})"),
       "/bodies/0/shape/size/1"},
      {"zero radius", one_body(R"({"shape": {"type": "sphere", "radius": 0}})"),
       "/bodies/0/shape/radius"},
      {"negative half_height",
       one_body(R"({"shape": {"type": "capsule", "radius": 1, "half_height": -1}})"),
       "/bodies/0/shape/half_height"},
      {"negative mass", one_body("{" + kBox + R"(, "mass": -1})"), "/bodies/0/mass"},
      {"zero mass", one_body("{" + kBox + R"(, "mass": 0})"), "/bodies/0/mass"},
      {"zero density", one_body("{" + kBox + R"(, "density": 0})"), "/bodies/0/density"},
      {"mass and density", one_body("{" + kBox + R"(, "mass": 1, "density": 1})"),
       "/bodies/0/density"},
      {"negative friction", one_body("{" + kBox + R"(, "friction": -0.1})"), "/bodies/0/friction"},
      {"zero quaternion", one_body("{" + kBox + R"(, "orientation": [0, 0, 0, 0]})"),
       "/bodies/0/orientation"},
      {"unknown shape type", one_body(R"({"shape": {"type": "cone"}})"), "/bodies/0/shape/type"},
      {"plane on a dynamic body", one_body(R"({"shape": {"type": "plane"}})"),
       "/bodies/0/shape/type"},
      {"zero plane normal",
       one_body(R"({"static": true, "shape": {"type": "plane", "normal": [0,0,0]}})"),
       "/bodies/0/shape/normal"},
      {"duplicate name",
       R"({"bodies": [{"name": "a", )" + kBox + R"(}, {"name": "a", )" + kBox + "}]}",
       "/bodies/1/name"},
      {"duplicate default name", R"({"bodies": [{"name": "1", )" + kBox + "}, {" + kBox + "}]}",
       "/bodies/1"},
      {"body named world", one_body("{" + kBox + R"(, "name": "world"})"), "/bodies/0/name"},
      {"key written twice", R"({"settings": {"dt": 0.1, "dt": 0.2}, "bodies": []})",
       "/settings/dt"},
      {"unknown body name", joint(R"({"type": "spherical", "body_a": "a", "body_b": "ghost",
        "anchor": [0,0,0]})"),
       "/joints/0/body_b"},
      {"joint to itself", joint(R"({"type": "spherical", "body_a": "a", "body_b": "a",
        "anchor": [0,0,0]})"),
       "/joints/0/body_b"},
      {"world to world", joint(R"({"type": "fixed", "body_a": "world", "body_b": "world",
        "anchor": [0,0,0]})"),
       "/joints/0/body_b"},
      {"unknown joint type", joint(R"({"type": "weld", "body_a": "a", "body_b": "b"})"),
       "/joints/0/type"},
      {"zero axis", joint(R"({"type": "hinge", "body_a": "a", "body_b": "b", "anchor": [0,0,0],
        "axis": [0,0,0]})"),
       "/joints/0/axis"},
      {"negative rest_length", joint(R"({"type": "spring", "body_a": "a", "body_b": "b",
        "anchor_a": [0,0,0], "anchor_b": [1,0,0], "rest_length": -1, "stiffness": 1})"),
       "/joints/0/rest_length"},
      {"zero spring stiffness", joint(R"({"type": "spring", "body_a": "a", "body_b": "b",
        "anchor_a": [0,0,0], "anchor_b": [1,0,0], "rest_length": 1, "stiffness": 0})"),
       "/joints/0/stiffness"},
      {"negative joint stiffness", joint(R"({"type": "spherical", "body_a": "a", "body_b": "b",
        "anchor": [0,0,0], "stiffness": -5})"),
       "/joints/0/stiffness"},
  };
}

TEST(SceneParse, EachErrorNamesFilePathAndExpectation) {
  for (const BadCase& c : bad_cases()) {
    SCOPED_TRACE(c.what);
    const std::string message = error_of(c.text);
    // The contract: one line naming the file, the JSON path and what was expected.
    // The path is followed by ": " so that "/bodies/1" cannot match "/bodies/10".
    EXPECT_EQ(message.rfind(std::string(kFile) + ": " + c.path + ": ", 0), 0u) << message;
    EXPECT_NE(message.find("expected"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(SceneParse, MalformedJsonGivesLineAndColumn) {
  // The comma is missing at the end of line 2; the parser stops at the next key on line 3.
  const std::string message = error_of("{\n  \"bodies\": []\n  \"joints\": []\n}");
  EXPECT_EQ(message.rfind(std::string(kFile) + ": line 3, column ", 0), 0u) << message;
  EXPECT_NE(message.find("expected valid JSON"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  // Truncated input (an editor crash, a partial copy) is also a syntax error, not a crash.
  EXPECT_NE(error_of("{\"bodies\": [").find("expected valid JSON"), std::string::npos);
  EXPECT_NE(error_of("").find("expected valid JSON"), std::string::npos);
}

TEST(SceneLoad, MissingFileIsASceneError) {
  const std::string path = std::string(PABD_TEST_OUTPUT_DIR) + "/no_such_scene.json";
  try {
    load_scene(path);
    FAIL() << "no SceneError for a missing file";
  } catch (const SceneError& e) {
    // The message starts with the file so the user sees which path was wrong.
    EXPECT_EQ(std::string(e.what()).rfind(path + ": ", 0), 0u) << e.what();
  }
}

TEST(SceneLoad, FileLabelIsThePath) {
  const std::string path = std::string(PABD_TEST_OUTPUT_DIR) + "/scene_parse_label.json";
  std::ofstream(path) << R"({"bodies": [{"shape": {"type": "sphere", "radius": -1}}]})";
  try {
    load_scene(path);
    FAIL() << "no SceneError for a negative radius";
  } catch (const SceneError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ": /bodies/0/shape/radius: expected", 0), 0u)
        << e.what();
  }
}

TEST(SceneBuild, BuildsBodiesAndJointsInOrder) {
  const Scene s = parse_scene(joint(R"({"type": "spherical", "body_a": "world", "body_b": "a",
      "anchor": [0, 1, 0]}, {"type": "spring", "body_a": "a", "body_b": "b",
      "anchor_a": [0, 0, 0], "anchor_b": [1, 0, 0], "rest_length": 0.5, "stiffness": 10})"),
                              kFile);
  const World world = build_world(s, s.settings);
  // Bodies keep file order and names; both joints are created (springs count as joints).
  ASSERT_EQ(world.body_count(), 2);
  EXPECT_EQ(world.body_name(world.body_at(0)), "a");
  EXPECT_EQ(world.body_name(world.body_at(1)), "b");
  EXPECT_EQ(world.joint_count(), 2);
}

TEST(SceneBuild, EveryJointTypeIsBuilt) {
  Scene s = parse_scene(joint(R"({"type": "hinge", "body_a": "world", "body_b": "a",
      "anchor": [0, 1, 0], "axis": [0, 0, 2]}, {"type": "fixed", "body_a": "a", "body_b": "b",
      "anchor": [0, 1, 0]}, {"type": "slider", "body_a": "a", "body_b": "b", "anchor": [0, 0, 0],
      "axis": [1, 0, 0], "stiffness": 100}, {"type": "distance", "body_a": "world", "body_b": "b",
      "anchor_a": [0, 3, 0], "anchor_b": [0, 0, 0], "length": 2.5})"),
                        kFile);
  const World world = build_world(s, s.settings);
  ASSERT_EQ(world.joint_count(), 4);
  EXPECT_EQ(world.joint_info(world.joint_at(0)).kind, JointKind::Hinge);
  EXPECT_EQ(world.joint_info(world.joint_at(1)).kind, JointKind::Fixed);
  EXPECT_EQ(world.joint_info(world.joint_at(2)).kind, JointKind::Slider);
  EXPECT_EQ(world.joint_info(world.joint_at(3)).kind, JointKind::Distance);
  EXPECT_TRUE(world.joint_info(world.joint_at(0)).hard);   // no stiffness: hard
  EXPECT_FALSE(world.joint_info(world.joint_at(2)).hard);  // a stiffness: a penalty
  EXPECT_DOUBLE_EQ(std::get<DistanceJointDef>(s.joints[3].def).length, 2.5);
}

TEST(SceneParse, EveryJointKindIsReadUnderItsName) {
  // joint_kind_name is the one name of a kind: a scene joint of that type must
  // parse into a definition of that kind, and no two kinds share a name.
  const std::map<JointKind, std::string> entry = {
      {JointKind::Spring,
       R"("anchor_a": [0, 1, 0], "anchor_b": [0, 0, 0], "rest_length": 1, "stiffness": 10)"},
      {JointKind::Spherical, R"("anchor": [0, 1, 0])"},
      {JointKind::Hinge, R"("anchor": [0, 1, 0], "axis": [0, 0, 1])"},
      {JointKind::Fixed, R"("anchor": [0, 1, 0])"},
      {JointKind::Slider, R"("anchor": [0, 1, 0], "axis": [1, 0, 0])"},
      {JointKind::Distance, R"("anchor_a": [0, 1, 0], "anchor_b": [0, 0, 0])"},
  };
  std::set<std::string> names;
  for (const auto& [kind, fields] : entry) {
    const std::string name = joint_kind_name(kind);
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(names.insert(name).second) << name << " names two kinds";
    const Scene s = parse_scene(
        joint(R"({"type": ")" + name + R"(", "body_a": "world", "body_b": "a", )" + fields + "}"),
        kFile);
    ASSERT_EQ(s.joints.size(), 1u);
    EXPECT_EQ(s.joints[0].kind(), kind) << name;
    const World world = build_world(s, s.settings);
    EXPECT_EQ(world.joint_info(world.joint_at(0)).kind, kind) << name;
  }
  EXPECT_EQ(names.size(), 6u);  // every JointKind above
  // The parser's messages list the names in the format's order.
  EXPECT_EQ(error_of(joint(R"({"type": "weld", "body_a": "a", "body_b": "b"})")),
            "test.json: /joints/0/type: expected one of spherical, hinge, slider, fixed, "
            "spring, distance, got \"weld\"");
  EXPECT_EQ(error_of(joint(R"({"body_a": "a", "body_b": "b"})")),
            "test.json: /joints/0/type: expected a joint type (spherical, hinge, slider, fixed, "
            "spring, distance), but the key is missing");
}

TEST(SceneParse, AugmentedLagrangianSetting) {
  // Defaults to on; settings.augmented_lagrangian: false turns it off (Fig. 8c).
  EXPECT_TRUE(parse_scene(one_body("{" + kBox + "}"), kFile).settings.augmented_lagrangian);
  const Scene off =
      parse_scene(R"({"settings": {"augmented_lagrangian": false}, )" + kTwoBodies + "}", kFile);
  EXPECT_FALSE(off.settings.augmented_lagrangian);
  EXPECT_THROW(
      parse_scene(R"({"settings": {"augmented_lagrangian": 1}, )" + kTwoBodies + "}", kFile),
      SceneError);  // a number is not a boolean
}

TEST(SceneBuild, WorldApiErrorsArePrefixedWithFileAndPath) {
  Scene s = parse_scene(one_body("{" + kBox + "}"), kFile);
  WorldDef settings = s.settings;
  settings.dt = -1;  // the CLI validates its flags; a program calling build_world may not
  try {
    build_world(s, settings);
    FAIL() << "World accepted dt = -1";
  } catch (const SceneError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("test.json: /settings: ", 0), 0u) << e.what();
  }
}

TEST(SceneBuild, EveryDemoSceneLoadsAndBuilds) {
  // The shipped scenes are part of the interface (README, CLI tests): they must stay valid.
  for (const char* name : {"pendulum", "spring_pair", "chain", "spinning_top", "demo"}) {
    SCOPED_TRACE(name);
    const Scene s = load_scene(std::string(PABD_SOURCE_DIR) + "/scenes/" + name + ".json");
    const World world = build_world(s, s.settings);
    EXPECT_EQ(world.body_count(), static_cast<int>(s.bodies.size()));
    EXPECT_EQ(world.joint_count(), static_cast<int>(s.joints.size()));
  }
}

// ---------------------------------------------------------------------------
// Hostile files: each ends in one line, quickly and in bounded memory.

/// The process's peak resident memory so far [MiB].
double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;  // Linux reports KiB
}

TEST(SceneHostile, FortyThousandNestedArraysStopAtTheDepthLimit) {
  // 80 KB of "[[[[...]]]]": before the depth limit this took 1.9 GB (a path string
  // per level, quadratic) and 4.5 s before its error.
  const std::string text = std::string(40'000, '[') + std::string(40'000, ']');
  const auto start = std::chrono::steady_clock::now();
  const std::string message = error_of(text);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string pointer;
  for (int i = 0; i < kMaxJsonDepth; ++i) pointer += "/0";  // the first value too deep
  EXPECT_EQ(message, std::string(kFile) + ": " + pointer +
                         ": expected arrays and objects nested at most 64 deep, got deeper");
  // Generous bounds (a shared 2-core VM, sanitizer builds) that the old parser
  // broke by far: 1.9 GB, 4.5 s.
  EXPECT_LT(peak_rss_mib(), 256) << "peak memory of the test process";
  EXPECT_LT(seconds, 1.0);
}

TEST(SceneHostile, DepthLimitIsExactlySixtyFour) {
  // 64 levels are read (the error is then about the content), 65 are not.
  const auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  EXPECT_EQ(error_of(nested(64)),
            std::string(kFile) + ": /: expected a scene object, got an array of 1");
  EXPECT_NE(error_of(nested(65)).find("nested at most 64 deep"), std::string::npos);
  // The same through objects: depth counts both kinds of container.
  std::string objects;
  for (int i = 0; i < 65; ++i) objects += R"({"a":)";
  objects += "0" + std::string(65, '}');
  EXPECT_NE(error_of(objects).find(": /a/a/"), std::string::npos) << error_of(objects);
  EXPECT_NE(error_of(objects).find("nested at most 64 deep"), std::string::npos);
}

TEST(SceneHostile, LongKeysAreNotCopiedPerLevel) {
  // A 4 MB key above 63 levels of nesting: a path string per level would take
  // 63 x 4 MB = 252 MB; the error's line is cut to a bounded length.
  const std::string key(4 << 20, 'k');
  const std::string text =
      R"({")" + key + R"(": )" + std::string(63, '[') + std::string(63, ']') + "}";
  const std::string message = error_of(text);
  EXPECT_EQ(message.rfind("test.json: /kkkk", 0), 0u) << message.substr(0, 80);
  EXPECT_LT(message.size(), 500u);  // one_line's 400 characters and "..."
  EXPECT_LT(peak_rss_mib(), 200) << "the text, the tree and one copy of the key fit in 200 MB";
}

TEST(SceneHostile, NulByteAndGarbageAfterAValidSceneAreRefused) {
  const std::string valid = R"({"bodies": [])" + std::string("}");
  EXPECT_EQ(error_of(valid), "");  // the scene itself is fine
  // The JSON library stops at a NUL as if the input ended there: refused before it.
  const std::string with_nul = valid + std::string(1, '\0') + "garbage{{{";
  EXPECT_EQ(error_of(with_nul),
            std::string(kFile) + ": line 1, column 15: expected valid JSON (a NUL byte at byte " +
                "14, which JSON text never contains)");
  // Garbage without a NUL, and a second document, are syntax errors too.
  EXPECT_NE(error_of(valid + " garbage").find("expected valid JSON"), std::string::npos);
  EXPECT_NE(error_of(valid + valid).find("expected valid JSON"), std::string::npos);
  // A NUL inside a string is no more JSON than one outside.
  EXPECT_NE(error_of(std::string(R"({"description": "a)") + '\0' + R"(b", "bodies": []})")
                .find("a NUL byte at byte 18"),
            std::string::npos);
  // Trailing white space is allowed (RFC 8259).
  EXPECT_EQ(error_of(valid + " \n\t\r\n"), "");
}

TEST(SceneHostile, SceneTextLargerThanTheLimitIsRefused) {
  // 64 MiB of spaces and one more byte: refused before parsing, at "/".
  const std::string text(kMaxSceneBytes + 1, ' ');
  EXPECT_EQ(error_of(text), std::string(kFile) + ": /: expected a scene of at most 64 MiB, got " +
                                std::to_string(kMaxSceneBytes + 1) + " bytes");
}

TEST(SceneHostile, EndlessScenePathsEndAtTheSizeLimit) {
  // /dev/zero never ends: the loader stops one byte past 64 MiB.
  for (const char* path : {"/dev/zero", "/dev/urandom"}) {
    SCOPED_TRACE(path);
    try {
      load_scene(path);
      FAIL() << "no SceneError";
    } catch (const SceneError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(
                    std::string(path) + ": /: expected a scene of at most 64 MiB", 0),
                0u)
          << e.what();
    }
  }
  EXPECT_LT(peak_rss_mib(), 512) << "64 MiB read once, plus the test process";
}

TEST(SceneHostile, IterationsHaveAMaximum) {
  const auto with = [](const std::string& iterations) {
    return R"({"settings": {"iterations": )" + iterations + R"(}, "bodies": []})";
  };
  EXPECT_EQ(parse_scene(with("10000"), kFile).settings.iterations, 10000);  // the maximum itself
  EXPECT_EQ(error_of(with("10001")),
            "test.json: /settings/iterations: expected an integer from 1 to 10000, got 10001");
  EXPECT_EQ(error_of(with("2147483647")),
            "test.json: /settings/iterations: expected an integer from 1 to 10000, got 2147483647");
  // The C++ API refuses the same (a program may set WorldDef directly).
  WorldDef def = default_world_def();
  def.iterations = kMaxIterations;
  EXPECT_NO_THROW(World{def});
  def.iterations = kMaxIterations + 1;
  const Scene s = parse_scene(one_body("{" + kBox + "}"), kFile);
  try {
    build_world(s, def);
    FAIL() << "World accepted 10001 iterations";
  } catch (const SceneError& e) {
    EXPECT_STREQ(e.what(),
                 "test.json: /settings: WorldDef.iterations: expected an integer from 1 to 10000");
  }
}

TEST(SceneParse, JointsNeedADynamicBody) {
  const std::string bodies = R"("bodies": [{"name": "s", "static": true, )" + kBox +
                             R"(}, {"name": "t", "static": true, )" + kBox +
                             R"(}, {"name": "d", )" + kBox + "}]";
  const auto scene = [&](const std::string& j) {
    return "{" + bodies + R"(, "joints": [)" + j + "]}";
  };
  // Two static bodies, a static body and the world: one line at body_b.
  EXPECT_EQ(error_of(scene(R"({"type": "hinge", "body_a": "s", "body_b": "t",
      "anchor": [0,0,0], "axis": [0,0,1]})")),
            "test.json: /joints/0/body_b: expected a dynamic body at one end at least, got 's' "
            "and 't', both static (or the world)");
  EXPECT_EQ(error_of(scene(R"({"type": "distance", "body_a": "s", "body_b": "world",
      "anchor_a": [0,0,0], "anchor_b": [0,1,0]})")),
            "test.json: /joints/0/body_b: expected a dynamic body at one end at least, got 's' "
            "and 'world', both static (or the world)");
  // One dynamic end is enough; a spring between static bodies is allowed (as in the World API).
  EXPECT_EQ(
      error_of(scene(R"({"type": "fixed", "body_a": "s", "body_b": "d", "anchor": [0,0,0]})")), "");
  const Scene springs = parse_scene(scene(R"({"type": "spring", "body_a": "s", "body_b": "t",
      "anchor_a": [0,0,0], "anchor_b": [1,0,0], "rest_length": 1, "stiffness": 10})"),
                                    kFile);
  EXPECT_EQ(build_world(springs, springs.settings).joint_count(), 1);
}

TEST(SceneBuild, AvbdRefusesLimitsAndDrivesAtTheJoint) {
  // The AVBD baseline solves no limit or drive bonds: refused at the joint before
  // anything is built, whether the scene or the caller (pabd run --solver) picks avbd.
  const std::string hinge = joint(R"({"type": "spherical", "body_a": "world", "body_b": "a",
      "anchor": [0, 1, 0]}, {"type": "hinge", "body_a": "a", "body_b": "b", "anchor": [0, 0, 0],
      "axis": [0, 0, 1], "limits_deg": [-30, 30]}, {"type": "slider", "body_a": "a", "body_b": "b",
      "anchor": [0, 0, 0], "axis": [1, 0, 0], "drive": {"mode": "velocity", "target": 1}})");
  const Scene s = parse_scene(hinge, kFile);
  EXPECT_EQ(build_world(s, s.settings).joint_count(), 3);  // solver pabd: fine
  WorldDef avbd = s.settings;
  avbd.solver = SolverKind::Avbd;
  const auto message = [&](const Scene& scene) {
    try {
      build_world(scene, avbd);
    } catch (const SceneError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message(s),
            "test.json: /joints/1: expected a joint solver avbd supports (no limits or drive: "
            "those need solver pabd), got a hinge joint with limits");
  Scene drive_only = s;
  drive_only.joints.erase(drive_only.joints.begin() + 1);  // the slider is now /joints/2
  EXPECT_EQ(message(drive_only),
            "test.json: /joints/2: expected a joint solver avbd supports (no limits or drive: "
            "those need solver pabd), got a slider joint with a drive");
  // The scene's own "solver": "avbd" is checked the same way.
  const std::string in_file = R"({"settings": {"solver": "avbd"}, )" + hinge.substr(1);
  const Scene from_file = parse_scene(in_file, kFile);
  EXPECT_THROW(build_world(from_file, from_file.settings), SceneError);
}

}  // namespace
}  // namespace pabd

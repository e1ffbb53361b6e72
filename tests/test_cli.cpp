// The `pabd` program as a user or script sees it: exit statuses, one-line errors
// naming the file, the states CSV and the stats JSON of the contract
// (the shared contract, docs/scene-format.md). Runs the built binary.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "pabd/scene.h"

namespace pabd {
namespace {

const std::string kOut = PABD_TEST_OUTPUT_DIR;
const std::string kSource = PABD_SOURCE_DIR;
const std::string kBad = kSource + "/tests/data/bad/";

using test::quote;
using test::read_file;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// A unique file name in the test output directory (tests may run in parallel).
std::string out_path(const std::string& suffix) { return test::out_path("cli", suffix); }

std::string write_scene(const std::string& text, const std::string& suffix = ".json") {
  const std::string path = out_path(suffix);
  std::ofstream(path) << text;
  return path;
}

using test::one_line;
using test::Outcome;

Outcome run_pabd(const std::string& args) { return test::run_pabd("cli", args); }

// ---------------------------------------------------------------------------
// Bad input: status 2, one line naming the file, nothing simulated.

TEST(Cli, BadSceneFilesExitTwoWithOneLine) {
  struct Case {
    const char* file;
    const char* rest;  // what must follow "FILE: " on the line
  };
  const Case cases[] = {
      {"unknown_key.json", "/bodies/0/colour: expected"},
      {"missing_key.json", "/bodies/0/shape: expected"},
      {"wrong_type.json", "/bodies/0/mass: expected"},
      {"huge_number.json", "/bodies/0/position/1: expected a finite number"},
      {"negative_mass.json", "/bodies/1/mass: expected a positive"},
      {"zero_size.json", "/bodies/0/shape/size/1: expected a positive"},
      {"unknown_body.json", "/joints/0/body_b: expected"},
      {"duplicate_name.json", "/bodies/1/name: expected a unique"},
      {"malformed.json", "line 5, column"},
      {"plane_not_static.json", "/bodies/0/shape/type: expected"},
      {"zero_quaternion.json", "/bodies/0/orientation: expected"},
      {"self_joint.json", "/joints/0/body_b: expected"},
      {"zero_dt.json", "/settings/dt: expected"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string path = kBad + c.file;
    const Outcome r = run_pabd("run " + quote(path) + " --steps 2");
    EXPECT_EQ(r.status, 2);  // the contract's status for bad input
    EXPECT_TRUE(one_line(r.err)) << r.err;
    // The line starts with the file as given, then the location of the problem.
    EXPECT_EQ(r.err.rfind(path + ": " + c.rest, 0), 0u) << r.err;
    EXPECT_EQ(r.out, "");  // no timing summary: nothing was simulated
  }
}

// Hostile files (nested, NUL and garbage, huge iterations, meshes that are devices,
// FIFOs or name /dev/zero as their material library): status 2 and one line,
// quickly. Before the loader's limits these took 1.9 GB, were accepted, ran
// "forever", or blocked.
TEST(Cli, HostileSceneFilesExitTwoWithOneLine) {
  const std::string fifo = out_path(".fifo");
  std::remove(fifo.c_str());
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string mesh = R"({"bodies": [{"static": true, "shape": {"type": "triangle_mesh",
      "file": ")";
  const std::string box = R"("shape": {"type": "box", "size": [1, 1, 1]})";
  struct Case {
    std::string name, text, flags;
    std::string rest;  // what must follow "FILE: " on the line
  };
  const Case cases[] = {
      {"nested", std::string(40'000, '[') + std::string(40'000, ']'), "",
       "/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/"
       "0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0: expected arrays and objects nested at most "
       "64 deep"},
      {"nul", R"({"bodies": []})" + std::string(1, '\0') + "garbage", "",
       "line 1, column 15: expected valid JSON (a NUL byte"},
      {"iterations", R"({"settings": {"iterations": 2147483647}, "bodies": []})", "",
       "/settings/iterations: expected an integer from 1 to 10000, got 2147483647"},
      {"mesh_zero", mesh + R"(/dev/zero"}}]})", "",
       "/bodies/0/shape/file: expected a readable OBJ file of triangles, got \"/dev/zero\" "
       "(expected a regular file, got a character device)"},
      {"mesh_urandom", mesh + R"(/dev/urandom"}}]})", "",
       "/bodies/0/shape/file: expected a readable OBJ file of triangles, got \"/dev/urandom\""},
      {"mesh_fifo", mesh + fifo + R"("}}]})", "",
       "/bodies/0/shape/file: expected a readable OBJ file of triangles, got \"" + fifo +
           "\" (expected a regular file, got a FIFO)"},
      {"static_joint",
       R"({"bodies": [{"name": "s", "static": true, )" + box +
           R"(}], "joints": [{"type": "spherical", "body_a": "world", "body_b": "s",
           "anchor": [0, 0, 0]}]})",
       "", "/joints/0/body_b: expected a dynamic body at one end at least"},
      {"avbd_limits",
       R"({"bodies": [{"name": "a", )" + box +
           R"(}], "joints": [{"type": "hinge", "body_a": "world", "body_b": "a",
           "anchor": [0, 1, 0], "axis": [0, 0, 1], "limits": [-1, 1]}]})",
       "--solver avbd",
       "/joints/0: expected a joint solver avbd supports (no limits or drive: those need solver "
       "pabd), got a hinge joint with limits"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = write_scene(c.text, "_" + c.name + ".json");
    const auto start = std::chrono::steady_clock::now();
    const Outcome r = run_pabd("run " + quote(path) + " --steps 2 " + c.flags);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_EQ(r.err.rfind(path + ": " + c.rest, 0), 0u) << r.err;
    EXPECT_EQ(r.out, "");     // nothing was simulated
    EXPECT_LT(seconds, 5.0);  // milliseconds of work; 5 s for a loaded 2-core VM
  }
  std::remove(fifo.c_str());

  // "mtllib /dev/zero" is not followed: the mesh loads and the run succeeds.
  const std::string obj = out_path("_mtllib.obj");
  std::ofstream(obj) << "mtllib /dev/zero\nv -1 0 -1\nv -1 0 1\nv 1 0 1\nf 1 2 3\n";
  const std::string scene = write_scene(mesh + obj + R"("}}]})", "_mtllib.json");
  const Outcome ok = run_pabd("run " + quote(scene) + " --steps 2 --quiet");
  EXPECT_EQ(ok.status, 0) << ok.err;

  // --iterations has the same maximum as the scene's key.
  const Outcome flag =
      run_pabd("run " + quote(kSource + "/scenes/pendulum.json") + " --iterations 10001");
  EXPECT_EQ(flag.status, 2);
  EXPECT_EQ(flag.err, "pabd run: --iterations: expected an integer from 1 to 10000, got 10001\n");
}

TEST(Cli, MissingSceneFileExitsTwo) {
  const std::string path = kOut + "/no_such_scene.json";
  const Outcome r = run_pabd("run " + quote(path));
  EXPECT_EQ(r.status, 2);  // a wrong path is bad input, like a bad file
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_EQ(r.err.rfind(path + ": ", 0), 0u) << r.err;
}

TEST(Cli, RobotModelFilesRunDirectlyAndBadOnesExitTwo) {
  const std::string robots = std::string(PABD_SOURCE_DIR) + "/tests/data/robots/";
  for (const char* good : {"pendulum.urdf", "pendulum.xml"}) {
    const Outcome r = run_pabd("run " + quote(robots + good) + " --steps 5 --quiet");
    EXPECT_EQ(r.status, 0) << good << ": " << r.err;
  }
  for (const char* bad : {"bad_element.xml", "planar.urdf"}) {
    const std::string path = robots + bad;
    const Outcome r = run_pabd("run " + quote(path) + " --steps 5");
    EXPECT_EQ(r.status, 2) << r.err;  // a model pabd does not load is bad input
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_EQ(r.err.rfind(path + ": ", 0), 0u) << r.err;
  }
}

TEST(Cli, BadFlagsExitTwoWithOneLine) {
  const std::string scene = quote(kSource + "/scenes/pendulum.json");
  const std::vector<std::string> bad = {
      "run " + scene + " --steps 0",
      "run " + scene + " --steps -3",
      "run " + scene + " --steps 1.5",
      "run " + scene + " --steps abc",
      "run " + scene + " --dt 0",
      "run " + scene + " --dt -0.01",
      "run " + scene + " --dt nan",
      "run " + scene + " --dt inf",
      "run " + scene + " --iterations 0",
      "run " + scene + " --threads -1",
      "run " + scene + " --every 0",
      "run " + scene + " --bogus",
      "run " + scene + " --states ''",
      "run " + scene + " --iteration-order gauss",
      "run " + scene + " --local-step affine",
      "run " + scene + " --chebyshev-rho 1",
      "converge " + scene + " --local-step affine",
      "converge " + scene + " --chebyshev-rho -0.5",
      "run",
      "",
      "frobnicate",
  };
  for (const std::string& args : bad) {
    SCOPED_TRACE(args);
    const Outcome r = run_pabd(args);
    EXPECT_EQ(r.status, 2);  // a bad flag is bad input
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_EQ(r.out, "");  // nothing ran
  }
}

// --device and settings.device: a bad value is bad input, and so is a device
// this build or machine does not have (one line naming it, nothing run).
TEST(Cli, DeviceIsCheckedAndAnAbsentOneIsOneLine) {
  const std::string scene = quote(kSource + "/scenes/pendulum.json");
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"run " + scene + " --quiet --device gpu",
       "pabd run: --device: expected cpu or cuda, got 'gpu'"},
      {"run " + scene + " --quiet --device ''", "pabd run: --device: expected cpu or cuda"},
      {"bench " + scene + " --quiet --device tpu", "pabd bench: --device: expected cpu or cuda"},
      {"view " + scene + " --device tpu", "pabd view: --device: expected cpu or cuda"},
  };
  for (const auto& [args, starts] : bad) {
    SCOPED_TRACE(args);
    const Outcome r = run_pabd(args);
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_EQ(r.err.rfind(starts, 0), 0u) << r.err;
  }
  const std::string tpu = write_scene(
      R"({"settings": {"device": "tpu"}, "bodies": [{"name": "b", "shape": {"type": "sphere",
          "radius": 0.1}}]})",
      ".tpu.json");
  const Outcome file = run_pabd("run " + quote(tpu) + " --steps 1 --quiet");
  EXPECT_EQ(file.status, 2);
  EXPECT_NE(file.err.find("/settings/device: expected \"cpu\" or \"cuda\""), std::string::npos)
      << file.err;
  // CUDA: runs where this build and machine have it, else one line naming why.
  const Outcome cuda = run_pabd("run " + scene + " --steps 2 --quiet --device cuda");
  if (cuda.status != 0) {
    EXPECT_EQ(cuda.status, 2);
    EXPECT_TRUE(one_line(cuda.err)) << cuda.err;
    EXPECT_NE(cuda.err.find("device cuda: "), std::string::npos) << cuda.err;
    EXPECT_EQ(cuda.out, "");
  }
  // The CPU, named in the stats.
  const std::string stats = out_path(".device.stats.json");
  const Outcome cpu =
      run_pabd("run " + scene + " --steps 2 --quiet --device cpu --stats " + quote(stats));
  ASSERT_EQ(cpu.status, 0) << cpu.err;
  const nlohmann::json j = nlohmann::json::parse(read_file(stats));
  EXPECT_EQ(j.at("device"), "CPU");
  EXPECT_EQ(j.at("device_peak_mb"), 0);
}

TEST(Cli, MethodFlagsOverrideTheSceneSettings) {
  // The same 30 steps of the hanging chain with method flags: the paper's
  // local step and Jacobi sweeps change the states written (each takes
  // another path to the step's solution), and giving the defaults' own values
  // changes nothing.
  const std::string scene = quote(kSource + "/scenes/chain.json");
  auto states = [&](const std::string& flags) {
    const std::string csv = out_path(".csv");
    const Outcome r = run_pabd("run " + scene + " --steps 30 --threads 1 --quiet --states " +
                               quote(csv) + " " + flags);
    EXPECT_EQ(r.status, 0) << r.err;
    return read_file(csv);
  };
  const std::string plain = states("");
  EXPECT_EQ(states("--iteration-order colored --local-step rigid --chebyshev-rho 0.95"), plain);
  EXPECT_NE(states("--local-step paper"), plain);
  EXPECT_NE(states("--iteration-order jacobi"), plain);
}

TEST(Cli, VersionAndHelpExitZero) {
  const Outcome version = run_pabd("--version");
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.out.rfind("pabd ", 0), 0u) << version.out;
  const Outcome help = run_pabd("run --help");
  EXPECT_EQ(help.status, 0);
  // The help lists every flag of the contract plus --quiet.
  for (const char* flag : {"--steps", "--dt", "--iterations", "--threads", "--states", "--every",
                           "--stats", "--quiet"}) {
    EXPECT_NE(help.out.find(flag), std::string::npos) << flag;
  }
}

// ---------------------------------------------------------------------------
// A valid run: states CSV, stats JSON, summary.

const char* kPendulumScene = R"({
  "settings": {"dt": 0.01, "iterations": 10, "gravity": [0, -9.81, 0]},
  "bodies": [
    {"name": "ground", "static": true, "shape": {"type": "plane"}},
    {"name": "bob", "shape": {"type": "box", "size": [0.2, 0.2, 0.2]}, "position": [0.1, 2, 0],
     "mass": 1},
    {"name": "ball", "shape": {"type": "sphere", "radius": 0.1}, "position": [1.1, 2, 0.3]}
  ],
  "joints": [
    {"type": "spherical", "body_a": "world", "body_b": "bob", "anchor": [0.1, 3, 0]},
    {"type": "spring", "body_a": "bob", "body_b": "ball", "anchor_a": [0.1, 2, 0],
     "anchor_b": [1.1, 2, 0.3], "rest_length": 0.5, "stiffness": 50}
  ]
})";

/// Shortest round-trip text of a double, as the CLI must write it.
std::string shortest(double x) {
  char buf[64];
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
}

TEST(Cli, StatesCsvHasHeaderRowsAndExactNumbers) {
  const std::string scene = write_scene(kPendulumScene);
  const std::string csv = out_path(".csv");
  const Outcome r = run_pabd("run " + quote(scene) +
                             " --steps 10 --every 3 --threads 1 --quiet --states " + quote(csv));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");  // --quiet and no failure: nothing on stderr

  const std::vector<std::string> lines = lines_of(read_file(csv));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz");  // exact header
  // Steps 0, 3, 6, 9 (every 3rd of 10, plus the initial state) x 2 moving bodies; the
  // static ground is never written.
  ASSERT_EQ(lines.size(), 1u + 4u * 2u);

  // Replay the same scene in-process, single-threaded like the CLI run: every number
  // in the file must be bit-identical to the state the World reports at that step.
  Scene s = load_scene(scene);
  WorldDef settings = s.settings;
  settings.threads = 1;
  World world = build_world(s, settings);
  std::size_t row = 1;
  for (long step = 0; step <= 9; ++step) {
    if (step > 0) {
      ASSERT_TRUE(world.step().ok);
    }
    if (step % 3 != 0) continue;
    for (int b = 1; b <= 2; ++b, ++row) {
      SCOPED_TRACE(lines[row]);
      std::vector<std::string> fields;
      std::istringstream in(lines[row]);
      for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
      ASSERT_EQ(fields.size(), 16u);
      const BodyId id = world.body_at(b);
      const BodyState st = world.body_state(id);
      EXPECT_EQ(fields[0], std::to_string(step));
      EXPECT_EQ(fields[2], world.body_name(id));
      const double expected[14] = {
          world.time(),          st.position.x,        st.position.y,    st.position.z,
          st.orientation.w,      st.orientation.x,     st.orientation.y, st.orientation.z,
          st.velocity.x,         st.velocity.y,        st.velocity.z,    st.angular_velocity.x,
          st.angular_velocity.y, st.angular_velocity.z};
      for (int k = 0; k < 14; ++k) {
        const std::string& text = fields[k == 0 ? 1 : k + 2];
        // Round trip: the text reads back as exactly the World's double, and is the
        // shortest such text (so "0.1" stays "0.1", not 0.10000000000000001).
        EXPECT_EQ(std::strtod(text.c_str(), nullptr), expected[k]) << "column " << k;
        EXPECT_EQ(text, shortest(expected[k])) << "column " << k;
      }
    }
  }
  // The initial position was written from the file's decimal text unchanged.
  EXPECT_EQ(lines[1].rfind("0,0,bob,0.1,2,0,1,0,0,0,", 0), 0u) << lines[1];
}

TEST(Cli, StatsJsonHasTheContractKeys) {
  const std::string scene = write_scene(kPendulumScene);
  const std::string stats = out_path(".stats.json");
  const Outcome r =
      run_pabd("run " + quote(scene) + " --steps 5 --threads 1 --quiet --stats " + quote(stats));
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(read_file(stats));
  // Counts are those of the scene and flags: 3 bodies (static included), 2 joints.
  EXPECT_EQ(j.at("bodies"), 3);
  EXPECT_EQ(j.at("joints"), 2);
  EXPECT_EQ(j.at("steps"), 5);
  EXPECT_EQ(j.at("iterations"), 10);
  EXPECT_EQ(j.at("threads"), 1);
  EXPECT_EQ(j.at("dt"), 0.01);
  const auto& ms = j.at("ms_per_step");
  // Order statistics of the same samples: min <= median <= max, and time is non-negative.
  EXPECT_LE(0.0, ms.at("min").get<double>());
  EXPECT_LE(ms.at("min").get<double>(), ms.at("median").get<double>());
  EXPECT_LE(ms.at("median").get<double>(), ms.at("max").get<double>());
  EXPECT_GE(j.at("collision_ms").get<double>(), 0.0);
  EXPECT_GE(j.at("solve_ms").get<double>(), 0.0);
  for (const char* stage :
       {"detect_ms", "broadphase_ms", "narrowphase_ms", "contact_setup_ms", "contact_load_ms",
        "predict_ms", "bonds_ms", "solve_ms", "dual_ms", "velocities_ms", "total_ms"}) {
    EXPECT_TRUE(j.at("stages").contains(stage)) << stage;
  }
  // The summary on stdout carries the same figures for a human.
  EXPECT_NE(r.out.find("ms/step"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("velocities"), std::string::npos) << r.out;
}

TEST(Cli, StatsCountContacts) {
  // A 1 m box resting on the ground touches it at its four bottom corners.
  const std::string scene = write_scene(
      R"({"bodies": [{"static": true, "shape": {"type": "plane"}},
                     {"shape": {"type": "box", "size": [1, 1, 1]}, "position": [0, 0.5, 0]}]})",
      ".contacts.json");
  const std::string stats = out_path(".contacts.stats.json");
  const Outcome r =
      run_pabd("run " + quote(scene) + " --steps 5 --threads 1 --quiet --stats " + quote(stats));
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(read_file(stats));
  EXPECT_EQ(j.at("contacts").at("median").get<double>(), 4.0);
  EXPECT_EQ(j.at("contacts").at("max").get<double>(), 4.0);
}

TEST(Cli, StepsComeFromFlagThenSceneThenDefault) {
  const std::string with_steps = write_scene(
      R"({"settings": {"steps": 4}, "bodies": [{"shape": {"type": "sphere", "radius": 1}}]})",
      ".steps.json");
  const std::string without =
      write_scene(R"({"bodies": [{"shape": {"type": "sphere", "radius": 1}}]})", ".nosteps.json");
  const std::string stats = out_path(".stats.json");
  const auto steps_of = [&](const std::string& args) {
    const Outcome r = run_pabd("run " + args + " --quiet --stats " + quote(stats));
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(read_file(stats)).at("steps").get<long>();
  };
  EXPECT_EQ(steps_of(quote(with_steps)), 4);                 // settings.steps
  EXPECT_EQ(steps_of(quote(with_steps) + " --steps 2"), 2);  // the flag overrides it
  EXPECT_EQ(steps_of(quote(without)), 300);                  // the contract's default
}

TEST(Cli, FlagsOverrideSettingsAndThreadsZeroReportsTheRealCount) {
  const std::string scene = write_scene(kPendulumScene);
  const std::string stats = out_path(".stats.json");
  const Outcome r =
      run_pabd("run " + quote(scene) + " --steps 2 --dt 0.005 --iterations 3 --threads 0" +
               " --quiet --stats " + quote(stats));
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(read_file(stats));
  EXPECT_EQ(j.at("dt"), 0.005);
  EXPECT_EQ(j.at("iterations"), 3);
  EXPECT_GE(j.at("threads").get<int>(), 1);  // 0 means "OpenMP's default", reported as used
}

TEST(Cli, BodyNamesAreQuotedInCsv) {
  const std::string scene = write_scene(
      R"({"bodies": [{"name": "odd, \"name\"", "shape": {"type": "sphere", "radius": 1}}]})");
  const std::string csv = out_path(".csv");
  const Outcome r = run_pabd("run " + quote(scene) + " --steps 1 --quiet --states " + quote(csv));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<std::string> lines = lines_of(read_file(csv));
  ASSERT_EQ(lines.size(), 3u);
  // RFC 4180: a field with a comma or quote is quoted and its quotes doubled.
  EXPECT_EQ(lines[1].rfind(R"(0,0,"odd, ""name""",)", 0), 0u) << lines[1];
}

// ---------------------------------------------------------------------------
// Failures other than bad input: status 1.

TEST(Cli, NonFiniteStateExitsOneNamingStepAndBody) {
  // 1e300 m/s for 1e10 s puts the body at 1e310 m, beyond the largest double, in the
  // first step: the values are all finite and accepted, the state is not.
  const std::string scene = write_scene(R"({
    "settings": {"dt": 1e10, "gravity": [0, 0, 0]},
    "bodies": [{"name": "rocket", "shape": {"type": "sphere", "radius": 0.1},
                "velocity": [1e300, 0, 0]}]})");
  const Outcome r = run_pabd("run " + quote(scene) + " --steps 5");
  EXPECT_EQ(r.status, 1);  // a simulation failure, not bad input
  EXPECT_EQ(r.err, scene + ": step 1: body 'rocket' state became non-finite\n");
}

TEST(Cli, UnwritableOutputExitsOne) {
  const std::string scene = quote(kSource + "/scenes/pendulum.json");
  for (const char* flag : {"--states", "--stats"}) {
    SCOPED_TRACE(flag);
    const std::string path = kOut + "/no_such_dir/out.txt";
    const Outcome r = run_pabd("run " + scene + " --steps 2 " + flag + " " + quote(path));
    EXPECT_EQ(r.status, 1);  // an environment problem (docs/scene-format.md), not bad input
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");  // checked before simulating
  }
}

TEST(Cli, SaveStateAndResumeGiveTheSameBitsAsOneRun) {
  // jeep_bridge: contacts, friction, hard joints and drives, whose warm starts
  // the snapshot must carry. 120 steps in one run against 60 + 60 resumed:
  // the rows of step 120 must be the same text (round-trip numbers, so the
  // same bits), and the resumed run's steps and times go on from 61.
  const std::string scene = quote(kSource + "/scenes/jeep_bridge.json");
  const std::string full = out_path("_full.csv"), part = out_path("_part.csv");
  const std::string snap = out_path("_60.state");
  ASSERT_EQ(run_pabd("run " + scene + " --steps 120 --quiet --states " + quote(full)).status, 0);
  ASSERT_EQ(run_pabd("run " + scene + " --steps 60 --quiet --save-state " + quote(snap)).status, 0);
  const Outcome resumed = run_pabd("run " + scene + " --steps 60 --quiet --resume " + quote(snap) +
                                   " --states " + quote(part));
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  const auto rows_of_step = [](const std::string& csv, const std::string& step) {
    std::vector<std::string> rows;
    for (const std::string& line : lines_of(read_file(csv)))
      if (line.rfind(step + ",", 0) == 0) rows.push_back(line);
    return rows;
  };
  const std::vector<std::string> expected = rows_of_step(full, "120");
  ASSERT_EQ(expected.size(), 57u);  // the jeep's 7 bodies and 50 boards
  EXPECT_EQ(rows_of_step(part, "120"), expected);
  EXPECT_EQ(rows_of_step(part, "60").size(), 57u);  // the resumed run starts at step 60
  EXPECT_EQ(rows_of_step(part, "60"), rows_of_step(full, "60"));

  // A file that is not a snapshot, a cut one, and one of another scene: bad input.
  const std::string garbage = write_scene("not a snapshot", ".state");
  const std::string bytes = read_file(snap);
  const std::string cut = out_path("_cut.state");
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  const std::string pendulum = out_path("_pendulum.state");
  ASSERT_EQ(run_pabd("run " + quote(kSource + "/scenes/pendulum.json") +
                     " --steps 2 --quiet --save-state " + quote(pendulum))
                .status,
            0);
  for (const auto& [file, why] :
       {std::pair{garbage, "not a pabd snapshot"}, std::pair{cut, "truncated snapshot"},
        std::pair{pendulum, "the snapshot is of another world"},
        std::pair{kOut + "/no_such.state", "not a readable file"}}) {
    SCOPED_TRACE(file);
    const Outcome r = run_pabd("run " + scene + " --steps 2 --resume " + quote(file));
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find("--resume"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
  }
}

TEST(Cli, EveryShippedSceneRunsItsFullLength) {
  // Each scene's own settings.steps: the scenes are valid, use only supported features,
  // and the README demo and examples finish (status 1 would mean a non-finite state).
  for (const char* name : {"pendulum", "spring_pair", "chain", "spinning_top", "demo", "robot_dog",
                           "gear_linkage", "jeep_bridge"}) {
    SCOPED_TRACE(name);
    const Outcome r = run_pabd("run " + quote(kSource + "/scenes/" + name + ".json") + " --quiet");
    EXPECT_EQ(r.status, 0) << r.err;
  }
}

// ---------------------------------------------------------------------------
// `pabd bench`: the paper's Table 2 for several scenes and thread counts, and its CSV.

/// A CSV line's fields (RFC 4180: a quoted field may hold commas and doubled quotes).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

const char* kBenchCsvHeader =
    "scene,bodies,joints,iterations,threads,steps,collision_ms,solve_ms,total_ms,contacts,"
    "outcome,commit,machine,compiler,stage_detect_ms,stage_broadphase_ms,stage_narrowphase_ms,"
    "stage_contact_setup_ms,stage_contact_load_ms,stage_predict_ms,stage_bonds_ms,"
    "stage_solve_ms,stage_dual_ms,stage_velocities_ms,stage_total_ms,stage_fields_ms,device,"
    "device_peak_mb,transfer_ms,uploaded_mb,downloaded_mb,copies";

/// The CSV's data rows as maps from column name to text; the header is checked.
std::vector<std::map<std::string, std::string>> bench_rows(const std::string& csv_path) {
  const std::vector<std::string> lines = lines_of(read_file(csv_path));
  std::vector<std::map<std::string, std::string>> rows;
  if (lines.empty()) return rows;
  EXPECT_EQ(lines[0], kBenchCsvHeader);
  const std::vector<std::string> names = csv_fields(lines[0]);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> fields = csv_fields(lines[i]);
    EXPECT_EQ(fields.size(), names.size()) << lines[i];
    std::map<std::string, std::string> row;
    for (std::size_t k = 0; k < names.size() && k < fields.size(); ++k) row[names[k]] = fields[k];
    rows.push_back(row);
  }
  return rows;
}

// A box hung from the world by a spherical joint (10 iterations), well above the ground.
const char* kBenchPendulum = R"({
  "settings": {"dt": 0.01, "iterations": 10},
  "bodies": [
    {"name": "ground", "static": true, "shape": {"type": "plane"}},
    {"name": "bob", "shape": {"type": "box", "size": [0.2, 0.2, 0.2]}, "position": [0.5, 2, 0]}
  ],
  "joints": [{"type": "spherical", "body_a": "world", "body_b": "bob", "anchor": [0, 2, 0]}]
})";
// A 1 m box resting on the ground: four corner contacts; default settings (20 iterations).
const char* kBenchBox = R"({"bodies": [{"static": true, "shape": {"type": "plane"}},
  {"shape": {"type": "box", "size": [1, 1, 1]}, "position": [0, 0.5, 0]}]})";

TEST(Cli, BenchTimesEachSceneAtEachThreadCount) {
  const std::string pendulum = write_scene(kBenchPendulum, ".pendulum.json");
  const std::string box = write_scene(kBenchBox, ".box.json");
  const std::string csv = out_path(".bench.csv");
  const Outcome r = run_pabd("bench " + quote(pendulum) + " " + quote(box) +
                             " --threads 1,2 --steps 3 --quiet --csv " + quote(csv));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");  // --quiet and no failure: nothing on stderr
  std::printf("%s", r.out.c_str());

  const auto rows = bench_rows(csv);
  ASSERT_EQ(rows.size(), 4u);  // (2 scenes) x (2 thread counts), in that order
  const std::string names[2] = {"cli_Cli_BenchTimesEachSceneAtEachThreadCount.pendulum",
                                "cli_Cli_BenchTimesEachSceneAtEachThreadCount.box"};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    SCOPED_TRACE(row.at("scene") + " threads " + row.at("threads"));
    const bool is_box = i >= 2;
    EXPECT_EQ(row.at("scene"), names[i / 2]);  // the file name without folders and .json
    EXPECT_EQ(row.at("bodies"), "1");          // moving bodies: the static ground is not counted
    EXPECT_EQ(row.at("joints"), is_box ? "0" : "1");
    EXPECT_EQ(row.at("iterations"), is_box ? "20" : "10");  // settings.iterations, else 20
    EXPECT_EQ(row.at("threads"), i % 2 == 0 ? "1" : "2");
    EXPECT_EQ(row.at("steps"), "3");
    // The box touches the ground at its four bottom corners; the hung box touches nothing.
    EXPECT_EQ(row.at("contacts"), is_box ? "4" : "0");
    EXPECT_EQ(row.at("outcome"), "ok");
    EXPECT_FALSE(row.at("commit").empty());
    EXPECT_FALSE(row.at("machine").empty());
    const double collision = std::stod(row.at("collision_ms"));
    const double solve = std::stod(row.at("solve_ms"));
    const double total = std::stod(row.at("total_ms"));
    std::printf("%s threads %s: collision %.4f ms, solve %.4f ms, step %.4f ms\n",
                row.at("scene").c_str(), row.at("threads").c_str(), collision, solve, total);
    for (const double ms : {collision, solve, total}) {
      EXPECT_TRUE(std::isfinite(ms));
      EXPECT_GE(ms, 0.0);
    }
    // The stages run inside the timed World::step() call, so each step's wall time is
    // at least each stage's, and medians keep that order.
    EXPECT_GE(total, collision);
    EXPECT_GE(total, solve);
    // Per-stage medians: the collision stage's is collision_ms; its parts are
    // laps of one clock inside it, so each part's median is at most its median.
    EXPECT_EQ(row.at("stage_detect_ms"), row.at("collision_ms"));
    for (const char* part : {"stage_broadphase_ms", "stage_narrowphase_ms",
                             "stage_contact_setup_ms", "stage_contact_load_ms"}) {
      EXPECT_GE(std::stod(row.at(part)), 0.0) << part;
      EXPECT_LE(std::stod(row.at(part)), collision) << part;
    }
  }
  // The table on stdout names the build and has the same four rows.
  EXPECT_NE(r.out.find("commit " + rows[0].at("commit")), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("machine   " + rows[0].at("machine")), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("compiler  "), std::string::npos) << r.out;
  std::size_t ok_rows = 0;
  for (const std::string& line : lines_of(r.out))
    if (line.rfind("| cli_Cli_Bench", 0) == 0 && line.ends_with("| ok |")) ++ok_rows;
  EXPECT_EQ(ok_rows, 4u);
}

TEST(Cli, BenchStepsComeFromTheSceneAndStopOnTheTimeBudget) {
  const std::string scene = write_scene(
      R"({"settings": {"steps": 4}, "bodies": [{"shape": {"type": "sphere", "radius": 1}}]})",
      ".steps4.json");
  const std::string long_scene = write_scene(
      R"({"settings": {"steps": 100000000}, "bodies": [{"shape": {"type": "sphere", "radius": 1}}]})",
      ".long.json");
  const std::string csv = out_path(".bench.csv");
  const auto steps_of = [&](const std::string& args) {
    const Outcome r = run_pabd("bench " + args + " --threads 1,2 --quiet --csv " + quote(csv));
    EXPECT_EQ(r.status, 0) << r.err;
    std::vector<std::string> steps;
    for (const auto& row : bench_rows(csv)) steps.push_back(row.at("steps"));
    return steps;
  };
  using Steps = std::vector<std::string>;
  // No --steps and no budget: settings.steps for every thread count.
  EXPECT_EQ(steps_of(quote(scene) + " --max-seconds 0"), (Steps{"4", "4"}));
  // A budget of 1 us is spent by the first step: the first run stops at the minimum
  // of 3 steps, and the other thread count takes the same steps.
  EXPECT_EQ(steps_of(quote(long_scene) + " --max-seconds 0.000001"), (Steps{"3", "3"}));
  // 0.2 s of a 1-sphere scene: far more than 3 steps, far fewer than 1e8, same for both.
  const Steps budget = steps_of(quote(long_scene) + " --max-seconds 0.2");
  ASSERT_EQ(budget.size(), 2u);
  std::printf("steps in 0.2 s: %s\n", budget[0].c_str());
  EXPECT_GT(std::stol(budget[0]), 3);
  EXPECT_LT(std::stol(budget[0]), 100000000);
  EXPECT_EQ(budget[0], budget[1]);
}

// --warmup N: N steps taken before the timed ones, untimed and not counted in
// --steps. A 1 kg body moving 7e307 m per step leaves the doubles in step 3
// (its momentum m c stays finite until then): after
// 2 warm-up steps the first timed step is step 3; with 5 the run fails in its
// warm-up, at the same step.
TEST(Cli, BenchWarmupStepsAreTakenButNotTimed) {
  const std::string box = quote(write_scene(kBenchBox, ".box.json"));
  const std::string rocket = quote(write_scene(R"({"settings": {"dt": 1e10, "gravity": [0, 0, 0]},
    "bodies": [{"shape": {"type": "sphere", "radius": 0.1}, "mass": 1,
                "velocity": [7e297, 0, 0]}]})",
                                               ".rocket3.json"));
  const std::string csv = out_path(".bench.csv");
  Outcome r = run_pabd("bench " + box + " --warmup 2 --steps 3 --threads 1 --csv " + quote(csv));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("--steps 3 per run, after 2 untimed warm-up steps"), std::string::npos)
      << r.out;
  ASSERT_EQ(bench_rows(csv).size(), 1u);
  EXPECT_EQ(bench_rows(csv)[0].at("steps"), "3");
  for (const char* warmup : {"2", "5"}) {
    r = run_pabd("bench " + rocket + " --warmup " + warmup +
                 " --steps 4 --threads 1 --quiet --csv " + quote(csv));
    EXPECT_EQ(r.status, 1) << "--warmup " << warmup;
    const auto rows = bench_rows(csv);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].at("outcome"), "non-finite at step 3") << "--warmup " << warmup;
  }
}

TEST(Cli, BenchBadFlagsAndNamedScenesExitTwoWithOneLine) {
  const std::string box = quote(write_scene(kBenchBox, ".box.json"));
  const std::string missing = kOut + "/no_such_bench_scene.json";
  const std::string malformed = kBad + "malformed.json";
  struct Case {
    std::string args;
    std::string starts;  // what stderr's one line starts with
  };
  const std::vector<Case> cases = {
      {"bench " + box + " --threads 0", "pabd bench: --threads: expected"},
      {"bench " + box + " --threads -1", "pabd bench: --threads: expected"},
      {"bench " + box + " --threads 1,x", "pabd bench: --threads: expected"},
      {"bench " + box + " --threads 1.5", "pabd bench: --threads: expected"},
      {"bench " + box + " --threads 1,,2", "pabd bench: --threads: expected"},
      {"bench " + box + " --threads ''", "pabd bench: --threads: expected"},
      {"bench " + box + " --steps 0", "pabd bench: --steps: expected"},
      {"bench " + box + " --steps abc", "pabd: "},
      {"bench " + box + " --repeat 0", "pabd bench: --repeat: expected"},
      {"bench " + box + " --warmup -1", "pabd bench: --warmup: expected"},
      {"bench " + box + " --max-seconds -1", "pabd bench: --max-seconds: expected"},
      {"bench " + box + " --csv ''", "pabd bench: --csv: expected"},
      {"bench " + box + " --bogus", "pabd: "},
      {"bench --scenes " + quote(missing), "pabd bench: --scenes: " + missing},
      // Named files are loaded before anything runs: the good one is not timed.
      {"bench " + box + " " + quote(missing), missing + ": "},
      {"bench " + box + " " + quote(malformed), malformed + ": line 5, column"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const Outcome r = run_pabd(c.args + " --quiet");
    EXPECT_EQ(r.status, 2);  // bad input, as for `pabd run`
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_EQ(r.err.rfind(c.starts, 0), 0u) << r.err;
    EXPECT_EQ(r.out, "");  // nothing was timed or printed
  }
}

TEST(Cli, BenchSweepReportsBadScenesAndGoesOn) {
  // A scenes folder with a good scene, a malformed one, one whose state becomes
  // non-finite in step 1, and one above --max-bodies.
  const std::string dir = out_path(".scenes");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/a_box.json") << kBenchBox;
  std::ofstream(dir + "/b_malformed.json") << read_file(kBad + "malformed.json");
  std::ofstream(dir + "/c_rocket.json") << R"({"settings": {"dt": 1e10, "gravity": [0, 0, 0]},
    "bodies": [{"shape": {"type": "sphere", "radius": 0.1}, "velocity": [1e300, 0, 0]}]})";
  std::ofstream(dir + "/d_two.json") << R"({"bodies": [
    {"shape": {"type": "sphere", "radius": 1}}, {"shape": {"type": "sphere", "radius": 1},
     "position": [5, 0, 0]}]})";
  std::ofstream(dir + "/notes.txt") << "not a scene";
  const std::string csv = out_path(".bench.csv");
  const Outcome r = run_pabd("bench --scenes " + quote(dir) +
                             " --threads 1 --steps 2 --max-bodies 1 --quiet --csv " + quote(csv));
  std::printf("%s", r.out.c_str());
  EXPECT_EQ(r.status, 1);  // a row failed, the others ran
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_EQ(r.err.rfind("pabd bench: 2 rows failed", 0), 0u) << r.err;
  const auto rows = bench_rows(csv);
  ASSERT_EQ(rows.size(), 4u);  // one per *.json, sorted by name; notes.txt is not a scene
  EXPECT_EQ(rows[0].at("scene"), "a_box");
  EXPECT_EQ(rows[0].at("outcome"), "ok");
  EXPECT_EQ(rows[0].at("steps"), "2");
  EXPECT_EQ(rows[1].at("scene"), "b_malformed");
  EXPECT_EQ(rows[1].at("outcome").rfind("error: line 5, column", 0), 0u) << rows[1].at("outcome");
  EXPECT_EQ(rows[1].at("threads"), "");  // not run
  EXPECT_EQ(rows[2].at("scene"), "c_rocket");
  // 1e300 m/s for 1e10 s leaves the doubles in step 1 (as in `pabd run`'s test).
  EXPECT_EQ(rows[2].at("outcome"), "non-finite at step 1");
  EXPECT_EQ(rows[2].at("steps"), "0");
  EXPECT_EQ(rows[3].at("scene"), "d_two");
  EXPECT_EQ(rows[3].at("bodies"), "2");
  EXPECT_EQ(rows[3].at("outcome"), "skipped (2 bodies > --max-bodies 1)");
  // The table on stdout shows the same outcomes.
  EXPECT_NE(r.out.find("| error: line 5, column"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| non-finite at step 1 |"), std::string::npos) << r.out;
}

TEST(Cli, BenchWithoutScenesSweepsTheSourceScenesFolder) {
  // ./scenes if the test runs where there is one, else the source tree's (ctest runs
  // in the build tree, which has none).
  const std::string dir =
      std::filesystem::is_directory("scenes") ? std::string("scenes") : kSource + "/scenes";
  std::size_t json_files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    json_files += entry.path().extension() == ".json" ? 1 : 0;
  const std::string csv = out_path(".bench.csv");
  // --max-bodies 1 times only the one-body scenes, so the sweep stays fast.
  const Outcome r =
      run_pabd("bench --threads 1 --steps 1 --max-bodies 1 --quiet --csv " + quote(csv));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(std::to_string(json_files) + " files in " + dir + ";"), std::string::npos)
      << r.out;
  const auto rows = bench_rows(csv);
  EXPECT_EQ(rows.size(), json_files);  // one thread count: one row per scene
  std::size_t timed = 0;
  for (const auto& row : rows) timed += row.at("outcome") == "ok" ? 1 : 0;
  EXPECT_GE(timed, 1u);  // pendulum.json has one moving body
}

}  // namespace
}  // namespace pabd

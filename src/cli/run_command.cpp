// `pabd run SCENE.json`: load, build, step, and report (docs/scene-format.md).
//
// Order matters for the exit-status contract: flags are checked, the scene is
// loaded and the output files are opened before the World is built, and the
// World is built before the first step, so every input problem ends the run
// (status 2, or 1 for an unwritable output) before anything is simulated.

#include "cli/run_command.h"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/command_support.h"
#include "cli/device_flag.h"
#include "cli/method_flags.h"
#include "output/recording.h"
#include "pabd/scene.h"
#include "world/world_validation.h"  // kMaxIterations

namespace pabd::cli {
namespace {

using Clock = std::chrono::steady_clock;  // monotonic, as the contract asks

/// The scene file's name without its folders, for titles.
std::string scene_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// Default step count when neither --steps nor settings.steps is given.
constexpr long long kDefaultSteps = 300;

/// Command-line values; the Option pointers tell whether a flag was given.
struct RunArgs {
  std::string scene_path;
  long long steps = 0;
  double dt = 0;
  long long iterations = 0;
  long long threads = 0;
  std::string states_path;
  long long every = 1;
  std::string stats_path;
  std::string gltf_path;
  std::string html_path;
  bool html_contacts = false;  ///< --html-contacts: the player also shows contacts
  bool quiet = false;
  std::string solver;           ///< --solver: pabd or avbd; empty = the scene's settings.solver
  std::string save_state_path;  ///< --save-state: the snapshot after the last step
  std::string resume_path;      ///< --resume: a snapshot to continue from
  MethodFlags method;           ///< --iteration-order, --local-step
  DeviceFlag device;            ///< --device
  CLI::Option* steps_opt = nullptr;
  CLI::Option* dt_opt = nullptr;
  CLI::Option* iterations_opt = nullptr;
  CLI::Option* threads_opt = nullptr;
};

/// The value the user typed for an option (for messages).
std::string typed(const CLI::Option* opt) {
  return opt->results().empty() ? std::string() : opt->results().back();
}

// ---------------------------------------------------------------------------
// Flags.

void check_flags(const RunArgs& a, const CLI::App& cmd) {
  const auto bad = [](const std::string& flag, const std::string& what, const std::string& got) {
    throw CommandFailure{kExitBadInput,
                         "pabd run: " + flag + ": expected " + what + ", got " + got};
  };
  if (a.steps_opt->count() > 0 && a.steps < 1)
    bad("--steps", "an integer >= 1", typed(a.steps_opt));
  if (a.dt_opt->count() > 0 && !(std::isfinite(a.dt) && a.dt > 0))
    bad("--dt", "a positive finite number of seconds", typed(a.dt_opt));
  if (a.iterations_opt->count() > 0 && (a.iterations < 1 || a.iterations > kMaxIterations))
    bad("--iterations", "an integer from 1 to " + std::to_string(kMaxIterations),
        typed(a.iterations_opt));
  if (a.threads_opt->count() > 0 && (a.threads < 0 || a.threads > 1'000'000))
    bad("--threads", "an integer >= 0 (0 = OpenMP's default)", typed(a.threads_opt));
  const CLI::Option* every = cmd.get_option("--every");
  if (every->count() > 0 && a.every < 1) bad("--every", "an integer >= 1", typed(every));
  if (a.states_path.empty() && cmd.get_option("--states")->count() > 0)
    bad("--states", "a file name", "an empty string");
  if (a.stats_path.empty() && cmd.get_option("--stats")->count() > 0)
    bad("--stats", "a file name", "an empty string");
  if (a.html_contacts && a.html_path.empty())
    throw CommandFailure{kExitBadInput, "pabd run: --html-contacts: needs --html FILE"};
  if (a.save_state_path.empty() && cmd.get_option("--save-state")->count() > 0)
    bad("--save-state", "a file name", "an empty string");
  if (cmd.get_option("--solver")->count() > 0 && a.solver != "pabd" && a.solver != "avbd")
    bad("--solver", "pabd or avbd", "'" + a.solver + "'");
  a.method.check("pabd run");
  a.device.check("pabd run");
}

// ---------------------------------------------------------------------------
// Progress on stderr: a carriage-return line on a terminal; elsewhere (logs,
// pipes) a plain line per quarter, and only for runs long enough to need one.

class Progress {
 public:
  Progress(long long total, bool quiet)
      : total_(total), enabled_(!quiet), tty_(isatty(fileno(stderr)) != 0) {}

  void update(long long step) {
    if (!enabled_) return;
    const double elapsed = seconds_since(start_);
    if (tty_) {
      if (step != total_ && seconds_since(last_) < 0.1) return;
      last_ = Clock::now();
      std::fprintf(stderr, "\rpabd run: step %lld/%lld (%3d%%) %.1f s", step, total_, percent(step),
                   elapsed);
      drawn_ = true;
    } else if (elapsed >= 2.0 && step * 4 >= (quarter_ + 1) * total_ && quarter_ < 3) {
      while (step * 4 >= (quarter_ + 1) * total_ && quarter_ < 3) ++quarter_;
      std::fprintf(stderr, "pabd run: step %lld/%lld (%d%%) %.1f s\n", step, total_, percent(step),
                   elapsed);
    }
    std::fflush(stderr);
  }

  /// Ends the carriage-return line so the next message starts on its own line.
  void finish() {
    if (drawn_) std::fputc('\n', stderr);
    drawn_ = false;
  }

 private:
  static double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
  }
  int percent(long long step) const {
    return static_cast<int>(100.0 * static_cast<double>(step) / static_cast<double>(total_));
  }

  long long total_;
  bool enabled_;
  bool tty_;
  bool drawn_ = false;
  int quarter_ = 0;  // plain mode: quarters already reported
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = start_;
};

// Timing statistics: StepSamples and median() (command_support.h), shared with
// `pabd bench`.

using Samples = StepSamples;

// ---------------------------------------------------------------------------
// Outputs.

/// Appends one CSV row per non-static body at the world's current step.
void write_states(std::ostream& out, const World& world, const std::vector<BodyId>& moving) {
  std::string line;
  const std::string step = std::to_string(world.step_count());
  const std::string time = format_number(world.time());
  for (const BodyId id : moving) {
    const BodyState s = world.body_state(id);
    // Appends only: GCC 12 warns (-Wrestrict, a false positive) on "," + std::string at -O2.
    line.assign(step).append(",").append(time).append(",").append(csv_field(world.body_name(id)));
    for (const double x :
         {s.position.x, s.position.y, s.position.z, s.orientation.w, s.orientation.x,
          s.orientation.y, s.orientation.z, s.velocity.x, s.velocity.y, s.velocity.z,
          s.angular_velocity.x, s.angular_velocity.y, s.angular_velocity.z})
      line.append(",").append(format_number(x));
    line += '\n';
    out << line;
  }
}

struct RunInfo {
  std::string scene;
  int bodies = 0, moving = 0, joints = 0, iterations = 0, threads = 0;
  long long steps = 0;
  double dt = 0;
  std::string device;         ///< World::device_name()
  double device_peak_mb = 0;  ///< World::device_peak_memory(), after the run
};

nlohmann::json stats_json(const RunInfo& info, const Samples& samples) {
  nlohmann::json stages = nlohmann::json::object();
  for (const auto& [name, values] : samples.stages())
    stages[std::string(name) + "_ms"] = median(*values);
  const auto& ms = samples.step_ms;
  return {{"scene", info.scene},
          {"bodies", info.bodies},
          {"dynamic_bodies", info.moving},
          {"joints", info.joints},
          {"steps", info.steps},
          {"iterations", info.iterations},
          {"threads", info.threads},
          {"device", info.device},
          {"device_peak_mb", info.device_peak_mb},
          {"dt", info.dt},
          {"ms_per_step",
           {{"median", median(ms)},
            {"min", ms.empty() ? 0 : *std::min_element(ms.begin(), ms.end())},
            {"max", ms.empty() ? 0 : *std::max_element(ms.begin(), ms.end())}}},
          {"collision_ms", median(samples.detect)},
          {"solve_ms", median(samples.solver)},
          {"contacts",
           {{"median", median(samples.contacts)},
            {"max", samples.contacts.empty()
                        ? 0
                        : *std::max_element(samples.contacts.begin(), samples.contacts.end())}}},
          {"stages", stages}};
}

void print_summary(const RunInfo& info, const Samples& samples) {
  const auto& ms = samples.step_ms;
  std::printf("pabd run %s\n", info.scene.c_str());
  std::printf("  bodies      %d (%d moving)\n", info.bodies, info.moving);
  std::printf("  joints      %d\n", info.joints);
  std::printf("  steps       %lld of %s s, %d iterations, %d threads\n", info.steps,
              format_number(info.dt).c_str(), info.iterations, info.threads);
  if (info.device != "CPU")
    std::printf("  device      %s, %.1f MB at most\n", info.device.c_str(), info.device_peak_mb);
  std::printf("  ms/step     median %.4f  min %.4f  max %.4f\n", median(ms),
              *std::min_element(ms.begin(), ms.end()), *std::max_element(ms.begin(), ms.end()));
  std::printf("  stage         median ms\n");
  for (const auto& [name, values] : samples.stages())
    std::printf("    %-14s  %10.4f\n", name, median(*values));
}

// ---------------------------------------------------------------------------
// The command.

/// --resume FILE: the snapshot's bytes into the world (World::restore_state);
/// a missing, unreadable or wrong file is bad input (status 2).
void resume_from(World& world, const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw CommandFailure{kExitBadInput, "pabd run: --resume: " + path + ": not a readable file"};
  std::ifstream in(path, std::ios::binary);
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  if (!in && !in.eof())
    throw CommandFailure{kExitBadInput, "pabd run: --resume: " + path + ": read failed"};
  try {
    world.restore_state(bytes);
  } catch (const Error& e) {
    throw CommandFailure{kExitBadInput, "pabd run: --resume: " + path + ": " + e.what()};
  }
}

/// --save-state FILE: the world's snapshot after the last step.
void save_state_to(const World& world, std::ofstream& out, const std::string& path) {
  const std::vector<std::uint8_t> bytes = world.save_state();
  if (!out.write(reinterpret_cast<const char*>(bytes.data()),
                 static_cast<std::streamsize>(bytes.size()))
           .flush())
    throw CommandFailure{kExitFailure, "pabd run: " + path + ": write failed"};
}

int run(const RunArgs& args, const CLI::App& cmd) {
  check_flags(args, cmd);

  const Scene scene = load_scene(args.scene_path);  // SceneError -> status 2
  if (!args.quiet)
    for (const std::string& notice : scene.notices)
      std::fprintf(stderr, "note: %s\n", notice.c_str());
  WorldDef settings = scene.settings;
  if (args.dt_opt->count() > 0) settings.dt = args.dt;
  if (args.iterations_opt->count() > 0) settings.iterations = static_cast<int>(args.iterations);
  if (args.threads_opt->count() > 0) settings.threads = static_cast<int>(args.threads);
  if (!args.solver.empty())
    settings.solver = args.solver == "avbd" ? SolverKind::Avbd : SolverKind::Pabd;
  args.method.apply(settings);
  args.device.apply(settings);
  const long long steps =
      args.steps_opt->count() > 0 ? args.steps : scene.steps.value_or(kDefaultSteps);

  auto states = open_output("pabd run", args.states_path);
  auto stats = open_output("pabd run", args.stats_path);
  auto snapshot = open_output("pabd run", args.save_state_path);
  // The animation outputs are written at the end; opening them now checks
  // they are writable before anything is simulated.
  open_output("pabd run", args.gltf_path);
  if (!args.html_path.empty() && !html_player_built())
    throw CommandFailure{kExitFailure, "pabd run: --html: " + std::string(kNoPlayer)};
  open_output("pabd run", args.html_path);
  const bool recording = !args.gltf_path.empty() || !args.html_path.empty();

  World world = build_world(scene, settings);  // SceneError -> status 2
  if (!args.resume_path.empty()) resume_from(world, args.resume_path);

  RunInfo info;
  info.scene = args.scene_path;
  info.bodies = world.body_count();
  info.joints = world.joint_count();
  info.steps = steps;
  info.dt = settings.dt;
  info.iterations = settings.iterations;
  info.threads = settings.threads > 0 ? settings.threads : omp_get_max_threads();
  info.device = world.device_name();
  std::vector<BodyId> moving;
  for (int i = 0; i < world.body_count(); ++i)
    if (world.is_valid(world.body_at(i)) && !world.is_static(world.body_at(i)))
      moving.push_back(world.body_at(i));
  info.moving = static_cast<int>(moving.size());

  if (states) {
    *states << "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
    write_states(*states, world, moving);
  }

  Recording rec;
  if (recording)
    rec = start_recording(world, scene_name(args.scene_path), int(args.every), args.html_contacts);

  Samples samples;
  Progress progress(steps, args.quiet);
  for (long long s = 1; s <= steps; ++s) {
    const StepResult result = timed_step(world, samples);  // adds the step's samples if ok
    if (!result.ok) {
      progress.finish();
      if (states) states->flush();  // keep the rows up to the failure for inspection
      const std::string body =
          result.bad_body >= 0 && result.bad_body < world.body_count()
              ? "body '" + world.body_name(world.body_at(result.bad_body)) + "'"
              : "a body";
      throw CommandFailure{kExitFailure, scene.file + ": step " + std::to_string(result.step) +
                                             ": " + step_failure_text(result, body)};
    }
    if (states && s % args.every == 0) write_states(*states, world, moving);
    if (recording) {
      record_step_timings(rec, world.last_timings());
      if (s % args.every == 0) record_frame(rec, world);
    }
    progress.update(s);
  }
  progress.finish();

  if (states && !states->flush())
    throw CommandFailure{kExitFailure, "pabd run: " + args.states_path + ": write failed"};
  if (snapshot) save_state_to(world, *snapshot, args.save_state_path);
  info.device_peak_mb = static_cast<double>(world.device_peak_memory()) / 1e6;
  if (stats && !(*stats << stats_json(info, samples).dump(2) << '\n').flush())
    throw CommandFailure{kExitFailure, "pabd run: " + args.stats_path + ": write failed"};
  try {
    if (!args.gltf_path.empty()) write_gltf(rec, args.gltf_path);
    if (!args.html_path.empty()) write_html(rec, args.html_path);
  } catch (const Error& e) {
    throw CommandFailure{kExitFailure, std::string("pabd run: ") + e.what()};
  }
  print_summary(info, samples);
  if (!args.html_path.empty() && !args.quiet)
    std::printf("  player      %s (open it in a web browser)\n", args.html_path.c_str());
  if (!args.gltf_path.empty() && !args.quiet)
    std::printf("  glTF        %s\n", args.gltf_path.c_str());
  return kExitOk;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_status) {
  CLI::App* cmd = app.add_subcommand("run", "Simulate a scene file (JSON) and report timings");
  auto args = std::make_shared<RunArgs>();
  cmd->add_option(
         "scene", args->scene_path,
         "Scene file (JSON, see docs/scene-format.md), or a robot model (.urdf, MJCF .xml)")
      ->required();
  args->steps_opt = cmd->add_option(
      "--steps", args->steps, "Number of time steps, >= 1 (default: settings.steps, else 300)");
  args->dt_opt = cmd->add_option("--dt", args->dt, "Time step [s], > 0 (default: settings.dt)");
  args->iterations_opt = cmd->add_option("--iterations", args->iterations,
                                         "Solver iterations per step, >= 1 (default: settings)");
  args->threads_opt =
      cmd->add_option("--threads", args->threads, "OpenMP threads, 0 = OpenMP's default");
  cmd->add_option("--states", args->states_path,
                  "Write every non-static body's state to this CSV file");
  cmd->add_option("--every", args->every,
                  "With --states, --gltf, --html: every M-th step (default 1)");
  cmd->add_option("--stats", args->stats_path,
                  "Write run statistics and timings to this JSON file");
  cmd->add_option("--gltf", args->gltf_path,
                  "Write an animated glTF 2.0 binary (.glb), a frame every --every steps");
  cmd->add_option("--html", args->html_path,
                  "Write a self-contained HTML player, a frame every --every steps");
  cmd->add_flag("--html-contacts", args->html_contacts,
                "With --html: record each frame's contact points and normals for the player "
                "(about 25 bytes of page per contact per frame)");
  cmd->add_flag("--quiet", args->quiet, "No progress line on stderr");
  cmd->add_option("--save-state", args->save_state_path,
                  "Write the exact state after the last step to this file (World::save_state)");
  cmd->add_option("--resume", args->resume_path,
                  "Continue from a --save-state file of the same scene: the step count and time "
                  "go on from it, and the run gives the same bits as one that never stopped");
  cmd->add_option("--solver", args->solver, "pabd or avbd (default: settings.solver, else pabd)");
  args->method.add_to(*cmd);
  args->device.add_to(*cmd);
  cmd->callback([args, cmd, &exit_status] {
    exit_status =
        run_reporting_failures("pabd run", args->scene_path, [&] { return run(*args, *cmd); });
  });
}

}  // namespace pabd::cli

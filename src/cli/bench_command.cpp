// `pabd bench [SCENE.json ...]`: times scene files at each thread count and
// prints the paper's Table 2 (moving bodies, joints, iterations, median
// collision ms, median solve ms, median ms per step) as a Markdown table under
// a header naming the machine, compiler, flags and commit; --csv writes the
// same rows (docs/benchmarks.md).
//
// Choices that keep the rows comparable:
// - Every run builds a fresh World from the scene, so each thread count and
//   repeat times the same steps from the same initial state.
// - A run takes --steps (else settings.steps, else 300) steps, but stops once
//   --max-seconds is spent and it has taken at least 3 steps. The first run of
//   a scene fixes its step count for the scene's other runs, so all rows of a
//   scene are medians over the same steps.
// - --warmup N steps before them are taken but not timed (nor counted in
//   --steps or the budget): a big scene's first steps map and fault its
//   contact storage (pile_50: a gigabyte), which a per-step cost should not
//   carry.
// - Named scene files are all loaded before anything is timed, and a bad one
//   ends the command with status 2 as in `pabd run`; in a directory sweep a
//   scene that fails to load is an "error: ..." row, the sweep goes on and the
//   status is 1 at the end (as for a state that becomes non-finite).

#include "cli/bench_command.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command_support.h"
#include "cli/device_flag.h"
#include "pabd/scene.h"
#include "pabd_build_info.h"  // generated at build time by cmake/BuildInfo.cmake

namespace pabd::cli {
namespace {

using Clock = std::chrono::steady_clock;

constexpr long long kDefaultSteps = 300;     // as `pabd run` without settings.steps
constexpr long long kMinBudgetSteps = 3;     // a run stops for the time budget only after these
constexpr double kLaterRunBudgetFactor = 3;  // a scene's later runs stop at 3x the budget

/// Command-line values; the Option pointers tell whether a flag was given.
struct BenchArgs {
  std::vector<std::string> scenes;  ///< named scene files; none: every *.json of the folder
  std::string scenes_dir;
  std::string threads = "1,2";
  DeviceFlag device;  ///< --device: every run's
  long long steps = 0;
  long long warmup = 0;
  double max_seconds = 10;
  long long max_bodies = 30000;
  long long repeat = 1;
  std::string csv_path;
  bool quiet = false;
  CLI::Option* steps_opt = nullptr;
};

/// One line of the table: a (scene, threads) run, or a scene that was not run.
struct Row {
  std::string scene;
  int bodies = 0;  ///< moving (non-static) bodies, as the paper counts them
  int joints = 0, iterations = 0;
  bool loaded = false;  ///< false for a scene that failed to load: no count columns
  bool timed = false;   ///< false for a skipped scene or an error: no timing columns
  int threads = 0;
  long long steps = 0;                                                ///< steps of each run
  double collision_ms = 0, solve_ms = 0, total_ms = 0, contacts = 0;  ///< medians over all steps
  std::vector<double> stage_ms;  ///< medians of StepSamples::stages(), in that order (CSV only)
  std::string device;            ///< World::device_name() (CSV only)
  double device_peak_mb = 0;     ///< the most device memory of its runs (CSV only)
  double transfer_ms = 0;        ///< median of StageTimings::transfer_ms (CSV only)
  double uploaded_mb = 0;        ///< median of StageTimings::uploaded_mb (CSV only)
  double downloaded_mb = 0;      ///< median of StageTimings::downloaded_mb (CSV only)
  double copies = 0;             ///< median of StageTimings::copies (CSV only)
  std::string outcome;           ///< ok, non-finite at step N, skipped (...), error: ...
  bool failed = false;           ///< an error or a non-finite state: exit status 1
};

/// The scene file's name without its folders and ".json", for the table.
std::string scene_label(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  if (name.size() > 5 && name.ends_with(".json")) name.resize(name.size() - 5);
  return name;
}

// ---------------------------------------------------------------------------
// Flags.

[[noreturn]] void bad_flag(const std::string& flag, const std::string& what,
                           const std::string& got) {
  throw CommandFailure{kExitBadInput,
                       "pabd bench: " + flag + ": expected " + what + ", got '" + got + "'"};
}

std::string typed(const CLI::App& cmd, const std::string& flag) {
  const CLI::Option* opt = cmd.get_option(flag);
  return opt->results().empty() ? std::string() : opt->results().back();
}

/// "1,2,4" -> {1, 2, 4}; every entry an integer >= 1.
std::vector<int> parse_threads(const std::string& list) {
  std::vector<int> threads;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const char* first = list.data() + start;
    const char* last = list.data() + comma;
    long long value = 0;
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (first == last || ec != std::errc() || ptr != last || value < 1 || value > 1'000'000)
      bad_flag("--threads", "a comma-separated list of integers >= 1", list);
    threads.push_back(static_cast<int>(value));
    if (comma == list.size()) break;
    start = comma + 1;
  }
  return threads;
}

void check_flags(const BenchArgs& a, const CLI::App& cmd) {
  if (a.steps_opt->count() > 0 && a.steps < 1)
    bad_flag("--steps", "an integer >= 1", typed(cmd, "--steps"));
  if (a.warmup < 0) bad_flag("--warmup", "an integer >= 0", typed(cmd, "--warmup"));
  if (!(std::isfinite(a.max_seconds) && a.max_seconds >= 0))
    bad_flag("--max-seconds", "a finite number of seconds >= 0 (0 = no limit)",
             typed(cmd, "--max-seconds"));
  if (a.max_bodies < 0)
    bad_flag("--max-bodies", "an integer >= 0 (0 = no limit)", typed(cmd, "--max-bodies"));
  if (a.repeat < 1 || a.repeat > 1'000'000)
    bad_flag("--repeat", "an integer from 1 to 1000000", typed(cmd, "--repeat"));
  if (a.csv_path.empty() && cmd.get_option("--csv")->count() > 0)
    bad_flag("--csv", "a file name", "");
  if (!a.scenes.empty() && cmd.get_option("--scenes")->count() > 0)
    throw CommandFailure{kExitBadInput,
                         "pabd bench: --scenes: give scene files or --scenes DIR, not both"};
}

// ---------------------------------------------------------------------------
// Which scenes: the named files, else every *.json in the scenes folder.

std::string find_scenes_dir(const BenchArgs& a, const CLI::App& cmd) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (cmd.get_option("--scenes")->count() > 0) {
    if (!fs::is_directory(a.scenes_dir, ec))
      throw CommandFailure{kExitBadInput,
                           "pabd bench: --scenes: " + a.scenes_dir + ": not a directory"};
    return a.scenes_dir;
  }
  if (fs::is_directory("scenes", ec)) return "scenes";
  const std::string source_scenes = std::string(PABD_BUILD_SOURCE_DIR) + "/scenes";
  if (fs::is_directory(source_scenes, ec)) return source_scenes;
  // An installed pabd: PREFIX/bin/pabd beside PREFIX/share/pabd/scenes.
  const fs::path installed = fs::read_symlink("/proc/self/exe", ec).parent_path().parent_path() /
                             "share" / "pabd" / "scenes";
  if (!ec && fs::is_directory(installed, ec)) return installed.string();
  throw CommandFailure{kExitBadInput, "pabd bench: no scenes/ directory here, in " +
                                          std::string(PABD_BUILD_SOURCE_DIR) +
                                          " or beside the program; name scene files or give "
                                          "--scenes DIR"};
}

std::vector<std::string> scene_files_in(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json" && it->is_regular_file(ec))
      files.push_back(it->path().string());
  if (ec)
    throw CommandFailure{kExitBadInput,
                         "pabd bench: " + dir + ": cannot list (" + ec.message() + ")"};
  if (files.empty())
    throw CommandFailure{kExitBadInput, "pabd bench: " + dir + ": no *.json scene files"};
  std::sort(files.begin(), files.end());
  return files;
}

// ---------------------------------------------------------------------------
// What the numbers were measured on.

struct BuildAndMachine {
  std::string commit = PABD_BUILD_COMMIT;
  std::string compiler, flags, machine, date;
};

BuildAndMachine describe() {
  BuildAndMachine d;
  d.compiler = std::string(PABD_BUILD_COMPILER).empty() ? std::string(__VERSION__)
                                                        : std::string(PABD_BUILD_COMPILER);
  d.flags = std::string(PABD_BUILD_TYPE) + ": " + PABD_BUILD_FLAGS;
  // CPU model from /proc/cpuinfo (Linux); the online core count.
  std::string cpu = "unknown CPU";
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    const std::size_t colon = line.find(':');
    const std::size_t begin = line.find_first_not_of(" \t", colon + 1);
    if (colon != std::string::npos && begin != std::string::npos) cpu = line.substr(begin);
    break;
  }
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  d.machine = cpu + ", " + std::to_string(cores) + (cores == 1 ? " core" : " cores");
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &utc);
  d.date = date;
  return d;
}

// ---------------------------------------------------------------------------
// Progress on stderr: one line rewritten in place, only on a terminal.

class ProgressLine {
 public:
  explicit ProgressLine(bool quiet) : enabled_(!quiet && isatty(fileno(stderr)) != 0) {}

  void show(const std::string& text, bool force = false) {
    if (!enabled_) return;
    if (!force && std::chrono::duration<double>(Clock::now() - last_).count() < 0.1) return;
    last_ = Clock::now();
    std::fprintf(stderr, "\r%s\033[K", text.c_str());  // ESC[K: erase the rest of the line
    std::fflush(stderr);
    drawn_ = true;
  }

  /// Erases the line so the table row printed next stands alone.
  void clear() {
    if (drawn_) std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    drawn_ = false;
  }

 private:
  bool enabled_;
  bool drawn_ = false;
  Clock::time_point last_ = Clock::now() - std::chrono::seconds(1);
};

// ---------------------------------------------------------------------------
// The table (Markdown, columns padded for a terminal) and the CSV.

struct Column {
  const char* title;
  std::size_t width;
  bool right;  // numbers are right-aligned
};

std::vector<Column> table_columns(std::size_t scene_width) {
  return {{"scene", std::max<std::size_t>(scene_width, 5), false},
          {"bodies", 7, true},
          {"joints", 6, true},
          {"iterations", 10, true},
          {"threads", 7, true},
          {"steps", 5, true},
          {"collision ms", 12, true},
          {"solve ms", 10, true},
          {"ms/step", 10, true},
          {"contacts", 8, true},
          {"outcome", 7, false}};
}

/// x with `digits` decimals (the table's milliseconds have 3).
std::string fixed(double x, int digits = 3) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

void print_table_line(const std::vector<Column>& columns, const std::vector<std::string>& cells) {
  std::string line = "|";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::string& cell = cells[i];
    const std::size_t pad = cell.size() < columns[i].width ? columns[i].width - cell.size() : 0;
    const bool last = i + 1 == columns.size();
    line += ' ';
    if (columns[i].right) line.append(pad, ' ');
    line += cell;
    if (!columns[i].right && !last) line.append(pad, ' ');
    line += " |";
  }
  std::printf("%s\n", line.c_str());
}

void print_table_head(const std::vector<Column>& columns) {
  std::vector<std::string> titles, rule;
  for (const Column& c : columns) {
    titles.emplace_back(c.title);
    std::string dashes(c.width, '-');
    if (c.right) dashes.back() = ':';
    rule.push_back(dashes);
  }
  print_table_line(columns, titles);
  print_table_line(columns, rule);
}

/// The row's cells, in table_columns() order.
std::vector<std::string> cells_of(const Row& r, bool csv) {
  const auto ms = [csv](double x) { return csv ? format_number(x) : fixed(x); };
  std::vector<std::string> cells = {r.scene};
  if (r.loaded) {
    for (const int n : {r.bodies, r.joints, r.iterations}) cells.push_back(std::to_string(n));
  } else {
    cells.insert(cells.end(), 3, std::string());
  }
  if (r.timed) {
    cells.push_back(std::to_string(r.threads));
    cells.push_back(std::to_string(r.steps));
  } else {
    cells.insert(cells.end(), 2, std::string());
  }
  if (r.timed && r.steps > 0) {
    for (const double x : {r.collision_ms, r.solve_ms, r.total_ms}) cells.push_back(ms(x));
    cells.push_back(format_number(r.contacts));
  } else {  // no step succeeded: no medians
    cells.insert(cells.end(), 4, std::string());
  }
  cells.push_back(r.outcome);
  return cells;
}

/// Table cells must not hold the Markdown column separator or line breaks.
std::string table_safe(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '|', '/');
  return s;
}

/// The CSV header: the table's columns, the build, then the median of every
/// stage of StageTimings (detect and its parts, then the solver's), in ms.
std::string csv_header() {
  std::string h =
      "scene,bodies,joints,iterations,threads,steps,collision_ms,solve_ms,total_ms,contacts,"
      "outcome,commit,machine,compiler";
  for (const auto& [name, values] : StepSamples{}.stages())
    h.append(",stage_").append(name).append("_ms");
  return h + ",device,device_peak_mb,transfer_ms,uploaded_mb,downloaded_mb,copies\n";
}

void write_csv_row(std::ostream& csv, const Row& r, const BuildAndMachine& d) {
  std::string line;
  for (const std::string& cell : cells_of(r, true)) line.append(csv_field(cell)).append(",");
  line.append(csv_field(d.commit)).append(",").append(csv_field(d.machine)).append(",");
  line.append(csv_field(d.compiler + " " + d.flags));
  const std::size_t stages = StepSamples{}.stages().size();
  for (std::size_t i = 0; i < stages; ++i)
    line.append(",").append(r.stage_ms.size() == stages ? format_number(r.stage_ms[i]) : "");
  line.append(",").append(csv_field(r.device));
  line.append(",").append(r.timed ? format_number(r.device_peak_mb) : "");
  const bool stepped = r.timed && r.steps > 0;
  line.append(",").append(stepped ? format_number(r.transfer_ms) : "");
  line.append(",").append(stepped ? format_number(r.uploaded_mb) : "");
  line.append(",").append(stepped ? format_number(r.downloaded_mb) : "");
  line.append(",").append(stepped ? format_number(r.copies) : "");
  csv << line << "\n" << std::flush;
}

// ---------------------------------------------------------------------------
// Timing one scene at every thread count.

struct SceneRuns {
  const BenchArgs& args;
  const std::vector<int>& threads;
  ProgressLine& progress;
  std::string position;  ///< "3/19", for the progress line
};

/// The rows of one loaded scene: one per thread count, or one "skipped" row.
/// Throws what build_world() throws.
std::vector<Row> bench_scene(const std::string& path, const Scene& scene, const SceneRuns& ctx) {
  const BenchArgs& a = ctx.args;
  Row base;
  base.scene = scene_label(path);
  base.loaded = true;
  base.bodies = static_cast<int>(std::count_if(scene.bodies.begin(), scene.bodies.end(),
                                               [](const BodyDef& b) { return !b.is_static; }));
  for (const ClothDef& cloth : scene.cloths)  // a cloth's particles are moving bodies too
    base.bodies += static_cast<int>(cloth.vertices.size());
  base.joints = static_cast<int>(scene.joints.size());
  base.iterations = scene.settings.iterations;
  if (a.max_bodies > 0 && base.bodies > a.max_bodies) {
    base.outcome = "skipped (" + std::to_string(base.bodies) + " bodies > --max-bodies " +
                   std::to_string(a.max_bodies) + ")";
    return {base};
  }

  long long steps = a.steps_opt->count() > 0 ? a.steps : scene.steps.value_or(kDefaultSteps);
  bool steps_fixed = false;  // the first run may end early on the time budget
  const std::size_t n = ctx.threads.size();
  std::vector<StepSamples> samples(n);
  std::vector<long long> steps_per_run(n, 0), failed_at(n, 0);
  std::vector<std::vector<double>> transfer(n), uploaded(n), downloaded(n), copies(n);
  std::vector<double> device_peak_mb(n, 0);
  std::string device;
  std::vector<StepFailure> failure(n, StepFailure::None);
  for (long long rep = 1; rep <= a.repeat; ++rep) {
    for (std::size_t i = 0; i < n; ++i) {
      if (failed_at[i] > 0) continue;  // deterministic: it would fail again
      WorldDef settings = scene.settings;
      settings.threads = ctx.threads[i];
      a.device.apply(settings);
      World world = build_world(scene, settings);
      device = world.device_name();
      const std::string label =
          "pabd bench: [" + ctx.position + "] " + base.scene + ", " +
          std::to_string(ctx.threads[i]) + (ctx.threads[i] == 1 ? " thread" : " threads") +
          (a.repeat > 1 ? ", repeat " + std::to_string(rep) + "/" + std::to_string(a.repeat)
                        : std::string()) +
          ", step ";
      // Warm-up steps: taken, not timed.
      for (long long w = 1; w <= a.warmup && failed_at[i] == 0; ++w) {
        const StepResult result = world.step();
        if (!result.ok) {
          failed_at[i] = result.step;
          failure[i] = result.failure;
        }
        ctx.progress.show(label + "warm-up " + std::to_string(w) + "/" + std::to_string(a.warmup));
      }
      if (failed_at[i] > 0) continue;
      // The first run stops on the budget; the others take its steps, unless a loaded
      // machine makes one far slower (then its row shows fewer steps).
      const double limit = a.max_seconds * (steps_fixed ? kLaterRunBudgetFactor : 1.0);
      const Clock::time_point start = Clock::now();
      long long taken = 0;
      while (taken < steps) {
        const StepResult result = timed_step(world, samples[i]);
        if (!result.ok) {
          failed_at[i] = result.step;
          failure[i] = result.failure;
          break;
        }
        const StageTimings& t = world.last_timings();
        transfer[i].push_back(t.transfer_ms);
        uploaded[i].push_back(t.uploaded_mb);
        downloaded[i].push_back(t.downloaded_mb);
        copies[i].push_back(t.copies);
        ++taken;
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        ctx.progress.show(label + std::to_string(taken) + "/" + std::to_string(steps) + ", " +
                          fixed(elapsed, 1) + " s");
        if (a.max_seconds > 0 && taken >= kMinBudgetSteps && elapsed >= limit) break;
      }
      device_peak_mb[i] =
          std::max(device_peak_mb[i], static_cast<double>(world.device_peak_memory()) / 1e6);
      if (!steps_fixed && failed_at[i] == 0) steps = taken;
      steps_fixed = true;
      steps_per_run[i] = taken;
    }
  }

  std::vector<Row> rows;
  for (std::size_t i = 0; i < n; ++i) {
    Row r = base;
    r.timed = true;
    r.threads = ctx.threads[i];
    r.steps = steps_per_run[i];
    r.collision_ms = median(samples[i].detect);
    r.solve_ms = median(samples[i].solver);
    r.total_ms = median(samples[i].step_ms);
    r.contacts = median(samples[i].contacts);
    r.device = device;
    r.device_peak_mb = device_peak_mb[i];
    r.transfer_ms = median(transfer[i]);
    r.uploaded_mb = median(uploaded[i]);
    r.downloaded_mb = median(downloaded[i]);
    r.copies = median(copies[i]);
    if (!samples[i].step_ms.empty())
      for (const auto& [name, values] : samples[i].stages()) r.stage_ms.push_back(median(*values));
    r.failed = failed_at[i] > 0;
    const char* what = failure[i] == StepFailure::NonFinite ? "non-finite" : "diverged";
    r.outcome = r.failed ? std::string(what) + " at step " + std::to_string(failed_at[i]) : "ok";
    rows.push_back(r);
  }
  return rows;
}

/// A scene that could not be loaded or built, as a row; the message without the
/// file name the scene column already shows.
Row error_row(const std::string& path, const std::string& what) {
  Row r;
  r.scene = scene_label(path);
  std::string message = what;
  if (message.rfind(path + ": ", 0) == 0) message.erase(0, path.size() + 2);
  r.outcome = "error: " + message;
  r.failed = true;
  return r;
}

// ---------------------------------------------------------------------------
// The command.

int bench(const BenchArgs& args, const CLI::App& cmd) {
  check_flags(args, cmd);
  args.device.check("pabd bench");
  const std::vector<int> threads = parse_threads(args.threads);
  // The device, named in the header; an absent one ends the command before any timing.
  std::string device = "CPU";
  {
    WorldDef probe = default_world_def();
    args.device.apply(probe);
    try {
      device = World(probe).device_name();
    } catch (const Error& e) {
      throw CommandFailure{kExitBadInput, std::string("pabd bench: --device: ") + e.what()};
    }
  }

  // Named files are all loaded now: a bad one ends the command before any timing.
  const bool named = !args.scenes.empty();
  std::string dir;
  const std::vector<std::string> paths =
      named ? args.scenes : scene_files_in(dir = find_scenes_dir(args, cmd));
  std::vector<Scene> loaded;
  if (named)
    for (const std::string& path : paths) loaded.push_back(load_scene(path));  // status 2

  auto csv = open_output("pabd bench", args.csv_path);  // status 1 if unwritable
  if (csv) *csv << csv_header();

  const BuildAndMachine d = describe();
  std::printf("pabd bench %s, commit %s\n", d.date.c_str(), d.commit.c_str());
  std::printf("  machine   %s\n", d.machine.c_str());
  std::printf("  compiler  %s (%s)\n", d.compiler.c_str(), d.flags.c_str());
  std::printf("  device    %s\n", device.c_str());
  std::printf("  scenes    %zu %s%s; threads %s\n", paths.size(),
              named ? (paths.size() == 1 ? "named file" : "named files") : "files in ", dir.c_str(),
              args.threads.c_str());
  const std::string steps = args.steps_opt->count() > 0 ? "--steps " + std::to_string(args.steps)
                                                        : "settings.steps (else 300)";
  const std::string budget = args.max_seconds > 0
                                 ? "; a scene's first run stops early (after >= 3 steps) once " +
                                       format_number(args.max_seconds) +
                                       " s are spent, its other runs take as many (or stop at 3x "
                                       "that time)"
                                 : "";
  const std::string warmup = args.warmup > 0
                                 ? ", after " + std::to_string(args.warmup) +
                                       " untimed warm-up step" + (args.warmup == 1 ? "" : "s")
                                 : "";
  std::printf("  steps     %s per run%s%s; %lld repeat%s, medians over all timed steps\n\n",
              steps.c_str(), warmup.c_str(), budget.c_str(), args.repeat,
              args.repeat == 1 ? "" : "s");

  std::size_t scene_width = 0;
  for (const std::string& path : paths)
    scene_width = std::max(scene_width, scene_label(path).size());
  const std::vector<Column> columns = table_columns(scene_width);
  print_table_head(columns);
  std::fflush(stdout);

  ProgressLine progress(args.quiet);
  int failed = 0;
  for (std::size_t k = 0; k < paths.size(); ++k) {
    const std::string& path = paths[k];
    const SceneRuns ctx{args, threads, progress,
                        std::to_string(k + 1) + "/" + std::to_string(paths.size())};
    progress.show("pabd bench: [" + ctx.position + "] " + scene_label(path) + ", loading", true);
    std::vector<Row> rows;
    try {
      if (named) {
        rows = bench_scene(path, loaded[k], ctx);
      } else {
        const Scene scene = load_scene(path);
        rows = bench_scene(path, scene, ctx);
      }
    } catch (const Error& e) {  // SceneError too: a bad file or a value the World rejects
      if (named) {
        progress.clear();
        const std::string what = e.what();
        throw CommandFailure{kExitBadInput,
                             what.rfind(path + ": ", 0) == 0 ? what : path + ": " + what};
      }
      rows = {error_row(path, e.what())};
    } catch (const std::exception& e) {  // out of memory on a huge scene, say
      if (named) {
        progress.clear();
        throw CommandFailure{kExitFailure, "pabd bench: " + path + ": internal error: " + e.what()};
      }
      rows = {error_row(path, std::string("internal error: ") + e.what())};
    }
    progress.clear();
    for (const Row& r : rows) {
      std::vector<std::string> cells = cells_of(r, false);
      cells.back() = table_safe(cells.back());
      print_table_line(columns, cells);
      if (csv) write_csv_row(*csv, r, d);
      failed += r.failed ? 1 : 0;
    }
    std::fflush(stdout);
  }
  if (csv && !csv->flush())
    throw CommandFailure{kExitFailure, "pabd bench: " + args.csv_path + ": write failed"};
  if (failed > 0)
    throw CommandFailure{
        kExitFailure, "pabd bench: " + std::to_string(failed) + (failed == 1 ? " row" : " rows") +
                          " failed (an error or a non-finite state, see the table)"};
  return kExitOk;
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_status) {
  CLI::App* cmd = app.add_subcommand(
      "bench", "Time scenes at several thread counts: the paper's Table 2, a CSV");
  auto args = std::make_shared<BenchArgs>();
  cmd->add_option("scenes", args->scenes,
                  "Scene files (default: every *.json in the scenes directory)");
  cmd->add_option("--scenes", args->scenes_dir,
                  "Scenes directory (default: ./scenes, else the source tree's scenes/)");
  cmd->add_option("--threads", args->threads, "Comma-separated thread counts, each >= 1")
      ->default_str("1,2");
  args->device.add_to(*cmd);
  args->steps_opt =
      cmd->add_option("--steps", args->steps,
                      "Steps per run, >= 1 (default: settings.steps, else 300), within "
                      "--max-seconds");
  cmd->add_option("--warmup", args->warmup,
                  "Untimed steps before the timed ones in every run (storage of big scenes "
                  "is mapped in the first steps)")
      ->default_str("0");
  cmd->add_option("--max-seconds", args->max_seconds,
                  "A scene's first run stops once this is spent and 3 steps are taken; the "
                  "other runs take as many steps, or stop at 3x this (0 = no limit)")
      ->default_str("10");
  cmd->add_option("--max-bodies", args->max_bodies,
                  "Skip scenes with more moving bodies (0 = no limit)")
      ->default_str("30000");
  cmd->add_option("--repeat", args->repeat,
                  "Run the thread counts in turn this many times; medians over all steps")
      ->default_str("1");
  cmd->add_option("--csv", args->csv_path, "Write the rows to this CSV file");
  cmd->add_flag("--quiet", args->quiet, "No progress line on stderr");
  cmd->callback([args, cmd, &exit_status] {
    exit_status = run_reporting_failures("pabd bench", "", [&] { return bench(*args, *cmd); });
  });
}

}  // namespace pabd::cli

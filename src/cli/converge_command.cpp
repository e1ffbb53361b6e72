// `pabd converge SCENE.json`: the relative error (E_k - E*) / (E_0 - E*) of the
// variational energy per iteration of one step (Bouaziz et al. 2014), with E*
// from the same step solved with many more iterations (docs/method.md).
// `--solver pabd|avbd` picks the solver (default: the scene's settings.solver),
// so PABD and the AVBD baseline (docs/avbd.md) can be plotted together.
//
// The step is measured twice from the same state: the scene is built and
// stepped N-1 times for each run (the engine is deterministic; the state hashes
// before step N are compared to make sure), then step N runs once with K and
// once with R iterations. As in `pabd run`, flags, the scene, the overlay files
// and the outputs are checked before anything is simulated.

#include "cli/converge_command.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cli/command_support.h"
#include "cli/method_flags.h"
#include "cli/run_command.h"
#include "output/svg_plot.h"
#include "pabd/scene.h"

namespace pabd::cli {
namespace {

/// Command-line values; the Option pointers tell whether a flag was given.
struct ConvergeArgs {
  std::string scene_path;
  long long step = 1;
  long long iterations = 0;
  long long reference = 3000;
  long long threads = 0;
  std::string solver;  // --solver; empty: the scene's settings.solver
  MethodFlags method;  // --iteration-order, --local-step
  std::string csv_path, svg_path, label;
  std::vector<std::string> overlays;  // FILE.csv[:LABEL]
  CLI::Option* iterations_opt = nullptr;
  CLI::Option* threads_opt = nullptr;
  CLI::Option* solver_opt = nullptr;
};

const std::string kCsvHeader = "iteration,relative_error";

std::string file_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void check_flags(const ConvergeArgs& a, const CLI::App& cmd) {
  const auto bad = [&cmd](const std::string& flag, const std::string& what) {
    const CLI::Option* opt = cmd.get_option(flag);
    const std::string got = opt->results().empty() ? "" : opt->results().back();
    throw CommandFailure{kExitBadInput,
                         "pabd converge: " + flag + ": expected " + what + ", got '" + got + "'"};
  };
  constexpr long long kMax = 1'000'000'000;
  if (a.step < 1 || a.step > kMax) bad("--step", "an integer from 1 to 1000000000");
  if (a.iterations_opt->count() > 0 && (a.iterations < 1 || a.iterations > kMax))
    bad("--iterations", "an integer from 1 to 1000000000");
  if (a.reference < 1 || a.reference > kMax)
    bad("--reference-iterations", "an integer from 1 to 1000000000");
  if (a.threads_opt->count() > 0 && (a.threads < 0 || a.threads > 1'000'000))
    bad("--threads", "an integer >= 0 (0 = OpenMP's default)");
  if (a.solver_opt->count() > 0 && a.solver != "pabd" && a.solver != "avbd")
    bad("--solver", "pabd or avbd");
  a.method.check("pabd converge");
  if (a.csv_path.empty() && cmd.get_option("--csv")->count() > 0) bad("--csv", "a file name");
  if (a.svg_path.empty() && cmd.get_option("--svg")->count() > 0) bad("--svg", "a file name");
}

/// Reads an --overlay FILE.csv[:LABEL]: a CSV this command wrote earlier.
PlotSeries read_overlay(const std::string& spec) {
  const std::size_t colon = spec.find_last_of(':');
  const std::string path = colon == std::string::npos ? spec : spec.substr(0, colon);
  PlotSeries series;
  series.label = colon == std::string::npos ? file_name(path) : spec.substr(colon + 1);
  if (colon == std::string::npos && series.label.ends_with(".csv"))
    series.label.resize(series.label.size() - 4);  // FILE.csv alone: label FILE
  const std::string where = "pabd converge: --overlay " + path;
  if (path.empty() || series.label.empty())
    throw CommandFailure{kExitBadInput,
                         "pabd converge: --overlay: expected FILE.csv:LABEL, got '" + spec + "'"};
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw CommandFailure{kExitBadInput, where + ": cannot open (" + std::strerror(errno) + ")"};
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (n == 1) {
      if (line != kCsvHeader)
        throw CommandFailure{kExitBadInput, where + ": line 1: expected the header " + kCsvHeader};
      continue;
    }
    if (line.empty()) continue;
    const std::size_t comma = line.find(',');
    double x = 0, y = 0;
    const char* end = line.data() + line.size();
    const bool ok =
        comma != std::string::npos &&
        std::from_chars(line.data(), line.data() + comma, x).ptr == line.data() + comma &&
        std::from_chars(line.data() + comma + 1, end, y).ptr == end;
    if (!ok)
      throw CommandFailure{kExitBadInput, where + ": line " + std::to_string(n) +
                                              ": expected ITERATION,RELATIVE_ERROR"};
    series.points.emplace_back(x, std::fabs(y));
  }
  if (series.points.empty())
    throw CommandFailure{kExitBadInput, where + ": expected at least one row"};
  return series;
}

/// One measured step: the state hash before it and the energy at q^0 and after
/// each iteration.
struct StepEnergies {
  std::uint64_t hash_before = 0;
  std::vector<double> energy;
};

/// Builds the scene, takes steps 1..step-1 with `settings` (the scene's, with
/// --threads), then step `step` with `iterations` iterations, recording the
/// variational energy.
StepEnergies measure_step(const Scene& scene, const WorldDef& settings, long long step,
                          int iterations) {
  World world = build_world(scene, settings);  // SceneError -> status 2
  const auto check = [&](const StepResult& r) {
    if (!r.ok)
      throw CommandFailure{kExitFailure, scene.file + ": step " + std::to_string(r.step) + ": " +
                                             step_failure_text(r, "a body")};
  };
  for (long long s = 1; s < step; ++s) check(world.step());
  StepEnergies out;
  out.hash_before = world.state_hash();
  WorldDef measured = world.settings();
  measured.iterations = iterations;
  world.set_settings(measured);
  out.energy.reserve(static_cast<std::size_t>(iterations) + 1);
  world.set_iteration_observer([&](int) { out.energy.push_back(world.variational_energy()); });
  check(world.step());
  world.set_iteration_observer({});
  if (out.energy.size() != static_cast<std::size_t>(iterations) + 1)
    throw CommandFailure{kExitFailure,
                         "pabd converge: internal error: " + std::to_string(out.energy.size()) +
                             " energies for " + std::to_string(iterations) + " iterations"};
  return out;
}

int converge(const ConvergeArgs& args, const CLI::App& cmd) {
  check_flags(args, cmd);
  const Scene scene = load_scene(args.scene_path);  // SceneError -> status 2
  std::vector<PlotSeries> overlays;
  for (const std::string& spec : args.overlays) overlays.push_back(read_overlay(spec));
  auto csv = open_output("pabd converge", args.csv_path);
  auto svg = open_output("pabd converge", args.svg_path);

  const int k_max = args.iterations_opt->count() > 0 ? static_cast<int>(args.iterations)
                                                     : std::max(scene.settings.iterations, 50);
  WorldDef settings = scene.settings;
  if (args.threads_opt->count() > 0) settings.threads = static_cast<int>(args.threads);
  if (args.solver_opt->count() > 0)
    settings.solver = args.solver == "avbd" ? SolverKind::Avbd : SolverKind::Pabd;
  args.method.apply(settings);
  const std::string solver = settings.solver == SolverKind::Avbd ? "avbd" : "pabd";
  const StepEnergies run = measure_step(scene, settings, args.step, k_max);
  const StepEnergies ref =
      measure_step(scene, settings, args.step, static_cast<int>(args.reference));
  if (ref.hash_before != run.hash_before || ref.energy[0] != run.energy[0])
    throw CommandFailure{kExitFailure,
                         scene.file + ": replaying steps 1.." + std::to_string(args.step - 1) +
                             " gave a different state; E* would belong to another step"};

  // E carries ~1e-16 relative round-off, so a gap E_0 - E* below 1e-13 of the
  // energies is noise: the prediction already solves the step.
  const double e0 = run.energy[0], e_star = ref.energy.back(), gap = e0 - e_star;
  if (!(std::isfinite(gap) && gap > 1e-13 * std::max(std::fabs(e0), std::fabs(e_star))))
    throw CommandFailure{kExitFailure,
                         scene.file + ": step " + std::to_string(args.step) +
                             ": E_0 - E* = " + format_number(gap) + " (E_0 = " + format_number(e0) +
                             "): nothing to converge, the prediction already solves it"};
  std::vector<double> rel;
  for (const double e : run.energy) rel.push_back((e - e_star) / gap);

  if (csv) {
    std::string text = kCsvHeader + "\n";
    for (std::size_t k = 0; k < rel.size(); ++k)
      text.append(std::to_string(k)).append(",").append(format_number(rel[k])).append("\n");
    if (!(*csv << text).flush())
      throw CommandFailure{kExitFailure, "pabd converge: " + args.csv_path + ": write failed"};
  }
  if (svg) {
    PlotSeries mine{args.label.empty() ? solver : args.label, {}};
    for (std::size_t k = 0; k < rel.size(); ++k)
      mine.points.emplace_back(static_cast<double>(k), std::fabs(rel[k]));
    std::vector<PlotSeries> series{mine};
    series.insert(series.end(), overlays.begin(), overlays.end());
    PlotOptions opt;
    // With overlays the legend names each curve's solver; alone, the title does.
    opt.title = file_name(args.scene_path) + ", step " + std::to_string(args.step) +
                (overlays.empty() ? ", solver " + solver : "");
    opt.x_label = "iteration k";
    opt.y_label = "|E_k - E*| / (E_0 - E*)";
    opt.log_y = true;
    opt.y_floor = 1e-16;
    if (!(*svg << svg_line_plot(series, opt)).flush())
      throw CommandFailure{kExitFailure, "pabd converge: " + args.svg_path + ": write failed"};
  }

  std::printf("pabd converge %s (solver %s)\n", args.scene_path.c_str(), solver.c_str());
  std::printf("  step        %lld, %d iterations (E* from %lld)\n", args.step, k_max,
              args.reference);
  std::printf("  E_0 - E*    %s\n", format_number(gap).c_str());
  std::vector<int> shown;
  for (const int k : {1, 5, 10, 20, 40})
    if (k < k_max) shown.push_back(k);
  shown.push_back(k_max);
  for (const int k : shown)
    std::printf("  after %-5d relative error %.3g\n", k, rel[static_cast<std::size_t>(k)]);
  return kExitOk;
}

}  // namespace

void add_converge_command(CLI::App& app, int& exit_status) {
  CLI::App* cmd = app.add_subcommand(
      "converge", "Relative error per solver iteration of one step of a scene (CSV, SVG plot)");
  auto args = std::make_shared<ConvergeArgs>();
  cmd->add_option(
         "scene", args->scene_path,
         "Scene file (JSON, see docs/scene-format.md), or a robot model (.urdf, MJCF .xml)")
      ->required();
  cmd->add_option("--step", args->step, "Step to measure, >= 1; steps before it run normally");
  args->iterations_opt =
      cmd->add_option("--iterations", args->iterations,
                      "Iterations of the measured step (default: settings, >= 50)");
  cmd->add_option("--reference-iterations", args->reference,
                  "Iterations of the run that gives E* (default 3000)");
  args->threads_opt =
      cmd->add_option("--threads", args->threads, "OpenMP threads, 0 = OpenMP's default");
  args->solver_opt = cmd->add_option("--solver", args->solver,
                                     "pabd or avbd (default: settings.solver, else pabd)");
  args->method.add_to(*cmd);
  cmd->add_option("--csv", args->csv_path, "Write iteration,relative_error to this CSV file");
  cmd->add_option("--svg", args->svg_path, "Write a log-scale plot of the curve to this SVG file");
  cmd->add_option("--label", args->label, "Legend label of this run's curve (default: the solver)");
  cmd->add_option("--overlay", args->overlays,
                  "Also plot a CSV written earlier, as FILE.csv:LABEL (repeatable)")
      ->allow_extra_args(false);
  cmd->callback([args, cmd, &exit_status] {
    exit_status = run_reporting_failures("pabd converge", args->scene_path,
                                         [&] { return converge(*args, *cmd); });
  });
}

}  // namespace pabd::cli

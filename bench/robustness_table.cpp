// The mass-ratio table of docs/method.md ("Robust defaults"): for stacks and
// for the Fig. 8 chain, at mass ratios from 1 to 1e5 and at 10, 20 and 30
// iterations, whether each solver configuration holds, by the bounds of
// tests/support/robust_cases.h:
//   - stack: four 1 m boxes on the ground, each `ratio` times the one below,
//     10 s: it stands (drift < 2 cm, sink < 5 cm, tilt < 1 degree);
//   - chain: the Fig. 8 chain with its last link `ratio` kg, swinging from 45
//     degrees for 10 s: it holds (joint gaps < 1% of a link); "rises" marks a
//     run whose last link climbed more than 1 mm above its release height
//     (energy gained; for light last links the chain's whip does that too).
// Configurations: the defaults; the defaults without Chebyshev (colored
// sweeps alone, the order AVBD uses); plain Jacobi sweeps (the paper's order,
// no Chebyshev); the paper's local step (LocalStep::Paper, otherwise the
// defaults); the AVBD baseline (chains only: it has no contacts).
//
//   pabd_robustness_table SCENES_DIR   prints the Markdown table on stdout
//
// scripts/robust_defaults.sh runs it and puts the table into docs/method.md.
#include <cstdio>
#include <string>
#include <vector>

#include "../tests/support/robust_cases.h"

namespace {

using namespace pabd;

struct Config {
  const char* name;
  WorldDef (*make)();
  bool contacts;  ///< it can run the stacks
};

WorldDef defaults() { return default_world_def(); }
WorldDef no_chebyshev() {
  WorldDef d = default_world_def();
  d.chebyshev_rho = 0;
  return d;
}
WorldDef plain_jacobi() {
  WorldDef d = default_world_def();
  d.iteration_order = IterationOrder::Jacobi;
  d.chebyshev_rho = 0;
  return d;
}
WorldDef paper_local_step() {
  WorldDef d = default_world_def();
  d.local_step = LocalStep::Paper;
  return d;
}
WorldDef avbd() {
  WorldDef d = default_world_def();
  d.solver = SolverKind::Avbd;
  return d;
}

/// One cell: "yes" or "no", with the deciding figure in mm.
std::string cell(bool ok, double mm, bool rises = false) {
  char text[64];
  std::snprintf(text, sizeof text, "%s %.3g%s", ok ? "**yes**" : "no", mm, rises ? " rises" : "");
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: pabd_robustness_table SCENES_DIR\n");
    return 2;
  }
  const std::string scenes = argv[1];
  const Config configs[] = {{"defaults", defaults, true},
                            {"no Chebyshev", no_chebyshev, true},
                            {"plain Jacobi", plain_jacobi, true},
                            {"LocalStep::Paper", paper_local_step, true},
                            {"AVBD", avbd, false}};
  const double ratios[] = {1, 10, 100, 1e3, 1e4, 1e5};
  const int iteration_counts[] = {10, 20, 30};
  try {
    for (const bool chain : {false, true}) {
      std::printf("\n%s, ratio by column group: iterations 10 / 20 / 30%s\n\n",
                  chain ? "**Chain** (Fig. 8, swinging from 45 degrees; largest joint gap, mm)"
                        : "**Stack** (four boxes; largest drift or sink, mm)",
                  chain ? "" : " (AVBD has no contacts)");
      std::printf("| ratio |");
      for (const Config& c : configs)
        if (chain || c.contacts) std::printf(" %s 10 | 20 | 30 |", c.name);
      std::printf("\n|---|");
      for (const Config& c : configs)
        if (chain || c.contacts) std::printf("---|---|---|");
      std::printf("\n");
      for (double ratio : ratios) {
        std::printf("| %g |", ratio);
        for (const Config& c : configs) {
          if (!chain && !c.contacts) continue;
          for (int iterations : iteration_counts) {
            WorldDef d = c.make();
            d.iterations = iterations;
            std::string text;
            if (chain) {
              const robust::ChainRun r =
                  robust::run_chain(scenes, ratio, robust::ChainStart::Swing45, d);
              text = r.finite ? cell(r.gap<0.005, 1e3 * r.gap, r.rise> 1e-3) : "no (NaN)";
            } else {
              const robust::StackRun r = robust::run_stack(ratio, 4, d);
              text = r.finite ? cell(r.stands(), 1e3 * std::max(r.drift, r.sink)) : "no (NaN)";
            }
            std::printf(" %s |", text.c_str());
          }
        }
        std::printf("\n");
        std::fflush(stdout);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pabd_robustness_table: %s\n", e.what());
    return 1;
  }
  return 0;
}

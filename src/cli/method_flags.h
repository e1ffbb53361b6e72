// The method flags `pabd run` and `pabd converge` share: which iteration order,
// which local step and which Chebyshev estimate PABD uses, overriding the
// scene's settings (docs/scene-format.md, "settings").
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "pabd/world.h"

namespace pabd::cli {

/// --iteration-order colored|jacobi, --local-step rigid|paper and
/// --chebyshev-rho RHO; not given = the scene's.
struct MethodFlags {
  std::string iteration_order;  ///< "colored", "jacobi" or empty
  std::string local_step;       ///< "rigid", "paper" or empty
  double chebyshev_rho = 0;     ///< in [0, 1), used when given
  CLI::Option* chebyshev_opt = nullptr;

  /// Adds both options to a subcommand.
  void add_to(CLI::App& cmd);
  /// Throws CommandFailure (bad input) for a value the flags do not take;
  /// `command` prefixes the message ("pabd run").
  void check(const std::string& command) const;
  /// Overrides the settings with the flags that were given.
  void apply(WorldDef& settings) const;

 private:
  bool chebyshev_given() const { return chebyshev_opt && chebyshev_opt->count() > 0; }
};

}  // namespace pabd::cli

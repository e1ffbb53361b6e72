#include "cli/method_flags.h"

#include "cli/command_support.h"

namespace pabd::cli {

void MethodFlags::add_to(CLI::App& cmd) {
  cmd.add_option("--iteration-order", iteration_order,
                 "colored or jacobi (default: settings.iteration_order, else colored)");
  cmd.add_option("--local-step", local_step,
                 "rigid or paper (default: settings.local_step, else rigid)");
  chebyshev_opt = cmd.add_option(
      "--chebyshev-rho", chebyshev_rho,
      "Chebyshev estimate in [0, 1), 0 = off (default: settings.chebyshev_rho, else 0.95)");
}

void MethodFlags::check(const std::string& command) const {
  const auto bad = [&](const std::string& flag, const std::string& what, const std::string& got) {
    throw CommandFailure{kExitBadInput,
                         command + ": " + flag + ": expected " + what + ", got '" + got + "'"};
  };
  if (!iteration_order.empty() && iteration_order != "colored" && iteration_order != "jacobi")
    bad("--iteration-order", "colored or jacobi", iteration_order);
  if (!local_step.empty() && local_step != "rigid" && local_step != "paper")
    bad("--local-step", "rigid or paper", local_step);
  if (chebyshev_given() && !(chebyshev_rho >= 0 && chebyshev_rho < 1))
    bad("--chebyshev-rho", "a number in [0, 1)", format_number(chebyshev_rho));
}

void MethodFlags::apply(WorldDef& settings) const {
  if (!iteration_order.empty())
    settings.iteration_order =
        iteration_order == "jacobi" ? IterationOrder::Jacobi : IterationOrder::Colored;
  if (!local_step.empty())
    settings.local_step = local_step == "paper" ? LocalStep::Paper : LocalStep::Rigid;
  if (chebyshev_given()) settings.chebyshev_rho = chebyshev_rho;
}

}  // namespace pabd::cli

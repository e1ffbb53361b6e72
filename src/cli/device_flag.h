// --device cpu|cuda, which `pabd run`, `pabd bench` and `pabd view` share:
// where PABD's iterations run, overriding the scene's settings.device
// (docs/scene-format.md, docs/gpu.md).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "pabd/world.h"

namespace pabd::cli {

struct DeviceFlag {
  std::string value;  ///< "cpu" or "cuda" when given
  CLI::Option* option = nullptr;

  /// Adds --device to a subcommand.
  void add_to(CLI::App& cmd);
  /// Throws CommandFailure (bad input) for another value; `command`
  /// prefixes the message ("pabd run").
  void check(const std::string& command) const;
  /// Overrides the settings when the flag was given.
  void apply(WorldDef& settings) const;
};

}  // namespace pabd::cli

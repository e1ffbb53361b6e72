// --device (see device_flag.h).
#include "cli/device_flag.h"

#include "cli/command_support.h"

namespace pabd::cli {

void DeviceFlag::add_to(CLI::App& cmd) {
  option = cmd.add_option("--device", value,
                          "Where the step runs: cpu or cuda (default: settings.device, else cpu)");
}

void DeviceFlag::check(const std::string& command) const {
  if (option && option->count() > 0 && value != "cpu" && value != "cuda")
    throw CommandFailure{kExitBadInput,
                         command + ": --device: expected cpu or cuda, got '" + value + "'"};
}

void DeviceFlag::apply(WorldDef& settings) const {
  if (option && option->count() > 0) settings.device = value == "cuda" ? Device::Cuda : Device::Cpu;
}

}  // namespace pabd::cli

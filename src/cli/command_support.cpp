#include "cli/command_support.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "pabd/scene.h"

namespace pabd::cli {

std::string format_number(double x) {
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, result.ptr);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  if (v.size() % 2 == 1) return v[mid];
  const double upper = v[mid];
  return 0.5 * (*std::max_element(v.begin(), v.begin() + mid) + upper);
}

void StepSamples::add(double wall_ms, const StageTimings& t, int contact_count) {
  step_ms.push_back(wall_ms);
  contacts.push_back(contact_count);
  detect.push_back(t.detect_ms);
  broadphase.push_back(t.broadphase_ms);
  narrowphase.push_back(t.narrowphase_ms);
  contact_setup.push_back(t.contact_setup_ms);
  contact_load.push_back(t.contact_load_ms);
  predict.push_back(t.predict_ms);
  bonds.push_back(t.bonds_ms);
  solve.push_back(t.solve_ms);
  dual.push_back(t.dual_ms);
  velocities.push_back(t.velocities_ms);
  total.push_back(t.total_ms);
  fields.push_back(t.fields_ms);
  // Everything but collision detection: the paper's t_solve.
  solver.push_back(t.predict_ms + t.bonds_ms + t.solve_ms + t.dual_ms + t.velocities_ms);
}

std::vector<std::pair<const char*, const std::vector<double>*>> StepSamples::stages() const {
  return {{"detect", &detect},
          {"broadphase", &broadphase},
          {"narrowphase", &narrowphase},
          {"contact_setup", &contact_setup},
          {"contact_load", &contact_load},
          {"predict", &predict},
          {"bonds", &bonds},
          {"solve", &solve},
          {"dual", &dual},
          {"velocities", &velocities},
          {"total", &total},
          {"fields", &fields}};
}

std::string step_failure_text(const StepResult& result, const std::string& body) {
  char text[200];
  if (result.failure == StepFailure::SpeedGrowth || result.failure == StepFailure::SpinGrowth) {
    const char* how = result.failure == StepFailure::SpeedGrowth ? "moves" : "spins with its rim";
    std::snprintf(text, sizeof text,
                  "the solution diverged: %s %s at %.3g m/s, beyond the %.3g m/s anything in the "
                  "scene can give it",
                  body.c_str(), how, result.created_energy, result.energy_bound);
    return text;
  }
  if (result.failure != StepFailure::EnergyGrowth) return body + " state became non-finite";
  std::snprintf(text, sizeof text,
                "the solution diverged: the solver created %.3g J, beyond the %.3g J the scene can "
                "supply (most kinetic energy: %s)",
                result.created_energy, result.energy_bound, body.c_str());
  return text;
}

StepResult timed_step(World& world, StepSamples& samples) {
  using Clock = std::chrono::steady_clock;  // monotonic, as the contract asks
  const Clock::time_point t0 = Clock::now();
  const StepResult result = world.step();
  const double wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (result.ok) samples.add(wall_ms, world.last_timings(), world.contact_count());
  return result;
}

std::unique_ptr<std::ofstream> open_output(const std::string& command, const std::string& path) {
  if (path.empty()) return nullptr;
  auto out = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
  if (!*out)
    throw CommandFailure{kExitFailure, command + ": " + path + ": cannot open for writing (" +
                                           std::strerror(errno) + ")"};
  return out;
}

int run_reporting_failures(const std::string& command, const std::string& scene_path,
                           const std::function<int()>& body) {
  std::string message;
  int status = kExitFailure;
  try {
    return body();
  } catch (const CommandFailure& f) {
    message = f.message;
    status = f.status;
  } catch (const SceneError& e) {
    message = e.what();  // already "FILE: PATH: expected ..."
    status = kExitBadInput;
  } catch (const Error& e) {
    // The World API rejected a value while building (or a setting override).
    message = scene_path + ": " + e.what();
    status = kExitBadInput;
  } catch (const std::exception& e) {
    message = command + ": " + scene_path + ": internal error: " + e.what();
  }
  std::replace(message.begin(), message.end(), '\n', ' ');
  std::fprintf(stderr, "%s\n", message.c_str());
  return status;
}

}  // namespace pabd::cli

#include "cli/command_support.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "pabd/scene.h"

namespace pabd::cli {

std::string format_number(double x) {
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, result.ptr);
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

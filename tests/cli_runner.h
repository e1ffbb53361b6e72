// Running the built `pabd` program from a test, as a user or script would:
// captured stdout and stderr, the exit status, per-test scratch file names.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace pabd::test {

inline std::string quote(const std::string& s) { return "'" + s + "'"; }

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A file name unique to the running test in the test output directory (tests
/// may run in parallel); `prefix` names the test program.
inline std::string out_path(const std::string& prefix, const std::string& suffix) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(PABD_TEST_OUTPUT_DIR) + "/" + prefix + "_" + info->test_suite_name() + "_" +
         info->name() + suffix;
}

struct Outcome {
  int status = -1;
  std::string out, err;
};

/// Runs `pabd ARGS` with stdout and stderr captured in files (stderr is not a
/// TTY, so there is no carriage-return progress line).
inline Outcome run_pabd(const std::string& prefix, const std::string& args) {
  const std::string out = out_path(prefix, ".stdout"), err = out_path(prefix, ".stderr");
  const std::string command =
      quote(PABD_CLI_PATH) + " " + args + " > " + quote(out) + " 2> " + quote(err) + " < /dev/null";
  const int raw = std::system(command.c_str());
  Outcome r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

/// True when `err` is exactly one newline-terminated line.
inline bool one_line(const std::string& err) {
  return !err.empty() && err.back() == '\n' && err.find('\n') == err.size() - 1;
}

}  // namespace pabd::test

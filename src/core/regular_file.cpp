// See regular_file.h.
#include "core/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "pabd/world.h"

namespace pabd {
namespace {

/// What a file that is not a regular file is, for messages.
const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// Closes a file descriptor when it goes out of scope.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string read_regular_file(const std::string& path, std::size_t max_bytes, const char* what) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (fstat then refuses it).
  const Fd file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) throw Error(path + ": cannot open the " + std::string(what));
  struct stat info {};
  if (::fstat(file.fd, &info) != 0) throw Error(path + ": cannot open the " + std::string(what));
  if (!S_ISREG(info.st_mode))
    throw Error(path + ": expected a regular file, got " + file_kind(info.st_mode));
  const auto too_large = [&](std::size_t bytes) {
    return Error(path + ": expected the " + std::string(what) + " to be at most " +
                 std::to_string(max_bytes >> 20) + " MiB, got " + std::to_string(bytes) + " bytes");
  };
  if (static_cast<unsigned long long>(info.st_size) > max_bytes) throw too_large(info.st_size);
  // Read to the end (the file may have grown since fstat), never past the limit.
  std::string text(static_cast<std::size_t>(info.st_size), '\0');
  std::size_t size = 0;
  for (;;) {
    if (size == text.size()) {
      if (size > max_bytes) throw too_large(size);
      text.resize(std::min(max_bytes + 1, std::max<std::size_t>(2 * size, 4096)));
    }
    const ssize_t n = ::read(file.fd, text.data() + size, text.size() - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw Error(path + ": cannot read the " + std::string(what) + " (" +
                  std::string(std::strerror(errno)) + ")");
    if (n == 0) break;
    size += static_cast<std::size_t>(n);
  }
  text.resize(size);
  return text;
}

}  // namespace pabd

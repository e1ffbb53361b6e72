// OBJ files through tinyobjloader: positions and faces only (normals, texture
// coordinates and materials are not needed for collision).
//
// The file is someone else's input, so reading it is bounded:
// - the path must name a regular file (not /dev/zero, a FIFO, a directory) of at
//   most kMaxObjFileBytes; it is opened without blocking and read once;
// - the text is parsed from memory by tinyobjloader's callback reader with no
//   material reader, so `mtllib` lines open nothing;
// - faces are triangulated here, in time linear in their vertex count
//   (tinyobjloader's ear clipping is cubic in it): a triangle as it is, a quad
//   along its shorter diagonal (as tinyobjloader splits it), a larger polygon as
//   a fan from its first vertex (right for the convex faces meshes are made of).
#include <fcntl.h>
#include <sys/stat.h>
#include <tiny_obj_loader.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "shapes/triangle_mesh.h"

namespace pabd {

namespace {

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s.size() > 160 ? s.substr(0, 160) + "..." : s;
}

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

/// The whole of a regular file of at most `max_bytes`; throws Error "PATH: ...".
std::string read_regular_file(const std::string& path, std::size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer (fstat then refuses it).
  const Fd file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) throw Error(path + ": cannot open the OBJ file");
  struct stat info {};
  if (::fstat(file.fd, &info) != 0) throw Error(path + ": cannot open the OBJ file");
  if (!S_ISREG(info.st_mode))
    throw Error(path + ": expected a regular file, got " + file_kind(info.st_mode));
  const auto too_large = [&](std::size_t bytes) {
    return Error(path + ": expected an OBJ file of at most " + std::to_string(max_bytes >> 20) +
                 " MiB, got " + std::to_string(bytes) + " bytes");
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
      throw Error(path + ": cannot read the OBJ file (" + std::string(std::strerror(errno)) + ")");
    if (n == 0) break;
    size += static_cast<std::size_t>(n);
  }
  text.resize(size);
  return text;
}

/// Receives tinyobjloader's callbacks: vertices, and faces as triangles.
struct ObjSink {
  std::vector<Vec3>& vertices;
  std::vector<int>& indices;

  /// An OBJ index (1-based, or negative: relative to the last vertex) as a 0-based
  /// one; 0 and indices past the vertices give -1, which the mesh builder refuses.
  int resolve(int raw) const {
    const long long n = static_cast<long long>(vertices.size());
    const long long i = raw > 0 ? raw - 1LL : n + raw;
    return raw != 0 && i >= 0 && i < n ? static_cast<int>(i) : -1;
  }

  /// Squared length of the diagonal between two vertices, in float (tinyobjloader's
  /// precision, so a quad splits as it always has); 0 for an invalid index.
  float diagonal2(int a, int b) const {
    if (a < 0 || b < 0) return 0;
    const float dx = float(vertices[b].x) - float(vertices[a].x);
    const float dy = float(vertices[b].y) - float(vertices[a].y);
    const float dz = float(vertices[b].z) - float(vertices[a].z);
    return dx * dx + dy * dy + dz * dz;
  }

  void triangle(int a, int b, int c) { indices.insert(indices.end(), {a, b, c}); }

  void face(const tinyobj::index_t* raw, int count) {
    if (count < 3) return;  // a point or a line: no area (tinyobjloader skips it too)
    const int v0 = resolve(raw[0].vertex_index), v1 = resolve(raw[1].vertex_index);
    const int v2 = resolve(raw[2].vertex_index);
    if (count == 4) {
      const int v3 = resolve(raw[3].vertex_index);
      if (diagonal2(v0, v2) < diagonal2(v1, v3)) {
        triangle(v0, v1, v2);
        triangle(v0, v2, v3);
      } else {
        triangle(v0, v1, v3);
        triangle(v1, v2, v3);
      }
      return;
    }
    int previous = v1;
    for (int k = 2; k < count; ++k) {
      const int next = k == 2 ? v2 : resolve(raw[k].vertex_index);
      triangle(v0, previous, next);
      previous = next;
    }
  }
};

}  // namespace

void read_obj_text(const std::string& text, const std::string& label, std::vector<Vec3>& vertices,
                   std::vector<int>& indices) {
  vertices.clear();
  indices.clear();
  ObjSink sink{vertices, indices};
  tinyobj::callback_t callbacks;
  callbacks.vertex_cb = [](void* user, tinyobj::real_t x, tinyobj::real_t y, tinyobj::real_t z,
                           tinyobj::real_t /*w*/) {
    static_cast<ObjSink*>(user)->vertices.push_back({x, y, z});
  };
  callbacks.index_cb = [](void* user, tinyobj::index_t* face, int count) {
    static_cast<ObjSink*>(user)->face(face, count);
  };
  std::istringstream in(text);
  std::string err;
  // No material reader: `mtllib` lines are skipped, nothing else is opened.
  if (!tinyobj::LoadObjWithCallback(in, callbacks, &sink, nullptr, nullptr, &err))
    throw Error(label + ": cannot read the OBJ file (" + one_line(err) + ")");
  if (indices.empty())
    throw Error(label + ": expected triangles (f lines) in the OBJ file, got none");
}

void read_obj(const std::string& path, std::vector<Vec3>& vertices, std::vector<int>& indices) {
  read_obj_text(read_regular_file(path, kMaxObjFileBytes), path, vertices, indices);
}

}  // namespace pabd

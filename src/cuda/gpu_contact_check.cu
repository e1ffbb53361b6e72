// GPU check of the contact iterations: random contact pairs and bodies are
// evaluated by the CPU loops and by one CUDA thread per pair and per body,
// with the very same PABD_HD kernels (contacts/contact_kernels.h,
// solver/body_kernels.h), and every output must be bit-identical. It needs a
// GPU, so neither CTest nor CI runs it; build and run it where one is:
//
//   nvcc -std=c++20 --fmad=false -arch=sm_90 -Iinclude -Isrc
//        src/cuda/gpu_contact_check.cu -o gpu_contact_check
//   ./gpu_contact_check
//
// (CMake: target gpu_contact_check, with PABD_CUDA_COMPILE_CHECK.) --fmad=false
// matches the CPU build's -ffp-contract=off; nvcc's divisions and square roots
// are IEEE-rounded by default, so the bits can agree. Exit status 0 when they
// do, 1 with the first mismatches listed, 2 when CUDA fails.
//
// The data: 2000 bodies (5% static), 6000 pairs of 1 to 4 contacts around a
// shared world point, gaps from -1 cm to 3 cm, a fifth of the pairs with a
// round end, half the multipliers warm, the bodies moved and turned a little
// since the start of the step (so that the idle test by bounds skips some
// contacts and not others). Steps checked, each from the same inputs on both
// sides: contact_prepare_kernel; contact_pair_weights_kernel with the dual
// update fused in, without and with the second moments; then
// global_local_kernel over the pair ends, with the rigid and the paper's local step.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "contacts/contact_kernels.h"
#include "math/so3.h"
#include "solver/body_kernels.h"

namespace pabd::gpu_check {
namespace {

void check_cuda(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "gpu_contact_check: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(2);
}

/// A device copy of a host vector, copied back on request.
template <typename T>
struct DeviceArray {
  T* ptr = nullptr;
  std::size_t n = 0;
  explicit DeviceArray(const std::vector<T>& v) : n(v.size()) {
    check_cuda(cudaMalloc(&ptr, sizeof(T) * (n > 0 ? n : 1)), "cudaMalloc");
    if (n > 0)
      check_cuda(cudaMemcpy(ptr, v.data(), sizeof(T) * n, cudaMemcpyHostToDevice), "to device");
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { cudaFree(ptr); }
  std::vector<T> back() const {
    std::vector<T> v(n);
    if (n > 0)
      check_cuda(cudaMemcpy(v.data(), ptr, sizeof(T) * n, cudaMemcpyDeviceToHost), "to host");
    return v;
  }
};

/// Device copies of host vectors, each made once and found again by the
/// host vector it mirrors, for make_views and for copying results back.
class DeviceMirror {
 public:
  template <typename T>
  T* operator()(std::vector<T>& v) {
    std::shared_ptr<void>& slot = arrays_[v.data()];
    if (!slot) slot = std::make_shared<DeviceArray<T>>(v);
    return static_cast<DeviceArray<T>*>(slot.get())->ptr;
  }
  template <typename T>
  std::vector<T> back(const std::vector<T>& v) const {
    return static_cast<const DeviceArray<T>*>(arrays_.at(v.data()).get())->back();
  }

 private:
  std::map<const void*, std::shared_ptr<void>> arrays_;
};

/// Every array of the check, on the host.
struct Data {
  // Bodies.
  std::vector<Real> mass;
  std::vector<Mat3> inertia;
  std::vector<std::uint8_t> is_static;
  std::vector<Vec3> position, start_position, target_position;
  std::vector<Mat3> affine, start_affine, target_affine;
  std::vector<Quat> orientation, start_orientation;
  std::vector<BodyMotion> motion;
  std::vector<int> bond_begin;  // no bonds: all zero
  // Contacts.
  std::vector<int> end_body;
  std::vector<Real> end_radius;
  std::vector<Vec3> slot_local, normal, lambda;
  std::vector<Real> friction, penalty, normal_penalty, gap_offset, start_gap, anchor_reach;
  std::vector<std::uint8_t> sticking;
  std::vector<Real> end_weight, end_scale;
  std::vector<ContactRecord> record;
  std::vector<int> pair_begin, pair_end, pair_body;
  std::vector<std::uint8_t> pair_round;
  std::vector<PairRecord> pair_record;
  std::vector<std::uint8_t> pair_quiet;
  std::vector<BondEndSums> sums;
  std::vector<Real> weight;
  std::vector<Mat3> second;
  // Per-body adjacency of the pair ends.
  std::vector<int> ends_begin, ends_index;
};

Vec3 random_vec(std::mt19937& rng, Real scale) {
  std::uniform_real_distribution<Real> u(-scale, scale);
  return {u(rng), u(rng), u(rng)};
}

Quat random_turn(std::mt19937& rng, Real max_angle) {
  std::normal_distribution<Real> g(0, 1);
  std::uniform_real_distribution<Real> u(0, max_angle);
  Vec3 axis{g(rng), g(rng), g(rng)};
  axis = (1 / length(axis)) * axis;
  return quat_exp(u(rng) * axis);
}

Data make_data(unsigned seed, int bodies, int pairs) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> unit(0, 1);
  Data d;
  const int nb = bodies;
  d.mass.resize(nb);
  d.inertia.resize(nb);
  d.is_static.resize(nb);
  d.position.resize(nb);
  d.start_position.resize(nb);
  d.target_position.resize(nb);
  d.affine.resize(nb);
  d.start_affine.resize(nb);
  d.target_affine.resize(nb);
  d.orientation.resize(nb);
  d.start_orientation.resize(nb);
  d.motion.assign(nb, BodyMotion{});
  d.bond_begin.assign(nb + 1, 0);
  for (int i = 0; i < nb; ++i) {
    d.is_static[i] = unit(rng) < 0.05 ? 1 : 0;
    d.mass[i] = d.is_static[i] ? 0 : 0.5 + 20 * unit(rng);
    const Real p = d.mass[i] / 12;  // a unit box's affine inertia per axis
    d.inertia[i] = Mat3{{{p, 0, 0}, {0, p, 0}, {0, 0, p}}};
    d.start_position[i] = random_vec(rng, 20);
    d.start_orientation[i] = random_turn(rng, 3.14);
    d.start_affine[i] = to_matrix(d.start_orientation[i]);
    const bool moved = !d.is_static[i] && unit(rng) < 0.8;
    d.position[i] = d.start_position[i] + (moved ? random_vec(rng, 0.01) : Vec3{});
    d.orientation[i] = moved ? normalized(random_turn(rng, 0.02) * d.start_orientation[i])
                             : d.start_orientation[i];
    d.affine[i] = to_matrix(d.orientation[i]);
    d.target_position[i] = d.position[i] + random_vec(rng, 0.001);
    d.target_affine[i] = d.affine[i];
  }
  for (int i = 0; i < nb; ++i)
    if (!d.is_static[i])
      d.motion[i] = BodyMotion{d.position[i] - d.start_position[i],
                               turn_norm_bound(d.orientation[i], d.start_orientation[i])};

  std::uniform_int_distribution<int> body_of(0, nb - 1), points_of(1, 4);
  for (int m = 0; m < pairs; ++m) {
    int a = body_of(rng), b = body_of(rng);
    while (b == a || (d.is_static[a] && d.is_static[b])) b = body_of(rng);
    const Real radius_b = unit(rng) < 0.2 ? 0.3 : 0;
    const int first = static_cast<int>(d.normal.size()), count = points_of(rng);
    d.pair_begin.push_back(first);
    d.pair_end.push_back(first + count);
    d.pair_body.push_back(a);
    d.pair_body.push_back(b);
    d.pair_round.push_back(radius_b > 0 ? 1 : 0);
    for (int k = 0; k < count; ++k) {
      std::normal_distribution<Real> g(0, 1);
      Vec3 n{g(rng), g(rng), g(rng)};
      n = (1 / length(n)) * n;
      const Vec3 p = random_vec(rng, 20);
      const Real gap = -0.01 + 0.04 * unit(rng);
      const Vec3 b_core = p + (gap + radius_b) * n;
      const Vec3 xa = transpose(d.start_affine[a]) * (p - d.start_position[a]);
      const Vec3 xb = transpose(d.start_affine[b]) * (b_core - d.start_position[b]);
      const Vec3 xb_surface =
          radius_b > 0 ? transpose(d.start_affine[b]) * (p + gap * n - d.start_position[b]) : xb;
      d.end_body.push_back(a);
      d.end_body.push_back(b);
      d.end_radius.push_back(0);
      d.end_radius.push_back(radius_b);
      d.slot_local.push_back(xa);
      d.slot_local.push_back(xa);
      d.slot_local.push_back(xb);
      d.slot_local.push_back(xb_surface);
      d.normal.push_back(n);
      d.friction.push_back(0.2 + 0.6 * unit(rng));
      const Real kappa = 100 + 1e5 * unit(rng);
      d.penalty.push_back(kappa);
      d.normal_penalty.push_back(kappa * (1 + 3 * unit(rng)));
      const Real offset = gap < 0 ? kContactStabilization * gap : 0;
      d.gap_offset.push_back(offset);
      d.start_gap.push_back(gap - offset);
      d.anchor_reach.push_back(std::fmax(length(xa), length(xb)));
      // Half warm: a push along n plus a tangential part, sometimes outside the cone.
      const Vec3 t = random_vec(rng, 30);
      d.lambda.push_back(unit(rng) < 0.5 ? Vec3{}
                                         : (20 + 100 * unit(rng)) * n + (t - dot(t, n) * n));
      d.sticking.push_back(0);
    }
  }
  const int nc = static_cast<int>(d.normal.size()), np = pairs;
  d.end_weight.assign(2 * nc, 0);
  d.end_scale.assign(2 * nc, 0);
  d.record.assign(nc, ContactRecord{});
  d.pair_record.assign(np, PairRecord{});
  d.pair_quiet.assign(np, 0);
  d.sums.assign(2 * np, BondEndSums{});
  d.weight.assign(2 * np, 0);
  d.second.assign(2 * np, Mat3{});
  // Pair ends on dynamic bodies by body, in pair order (as contact_adjacency_stage).
  d.ends_begin.assign(nb + 1, 0);
  for (int e = 0; e < 2 * np; ++e)
    if (!d.is_static[d.pair_body[e]]) ++d.ends_begin[d.pair_body[e] + 1];
  for (int i = 0; i < nb; ++i) d.ends_begin[i + 1] += d.ends_begin[i];
  d.ends_index.resize(d.ends_begin[nb]);
  std::vector<int> fill(d.ends_begin.begin(), d.ends_begin.end() - 1);
  for (int e = 0; e < 2 * np; ++e)
    if (!d.is_static[d.pair_body[e]]) d.ends_index[fill[d.pair_body[e]]++] = e;
  return d;
}

/// The kernels' views of a set of arrays, on the host or the device: `at`
/// maps each host vector to the pointer to use.
template <typename At>
void make_views(Data& d, At&& at, BodyArrays& b, ContactArrays& c, ContactEnds& e) {
  b = BodyArrays{};
  b.count = static_cast<int>(d.mass.size());
  b.mass = at(d.mass);
  b.affine_inertia = at(d.inertia);
  b.is_static = at(d.is_static);
  b.position = at(d.position);
  b.affine = at(d.affine);
  b.orientation = at(d.orientation);
  b.start_position = at(d.start_position);
  b.start_orientation = at(d.start_orientation);
  b.start_affine = at(d.start_affine);
  b.target_position = at(d.target_position);
  b.target_affine = at(d.target_affine);
  b.motion = at(d.motion);
  b.end_begin = at(d.bond_begin);
  b.end_index = at(d.bond_begin);  // never read: no bond ends
  c = ContactArrays{};
  c.count = static_cast<int>(d.normal.size());
  c.end_body = at(d.end_body);
  c.end_radius = at(d.end_radius);
  c.slot_local = at(d.slot_local);
  c.normal = at(d.normal);
  c.friction = at(d.friction);
  c.penalty = at(d.penalty);
  c.normal_penalty = at(d.normal_penalty);
  c.gap_offset = at(d.gap_offset);
  c.start_gap = at(d.start_gap);
  c.anchor_reach = at(d.anchor_reach);
  c.lambda = at(d.lambda);
  c.sticking = at(d.sticking);
  c.end_weight = at(d.end_weight);
  c.end_scale = at(d.end_scale);
  c.record = at(d.record);
  c.pair_count = static_cast<int>(d.pair_begin.size());
  c.pair_begin = at(d.pair_begin);
  c.pair_end = at(d.pair_end);
  c.pair_body = at(d.pair_body);
  c.pair_round = at(d.pair_round);
  c.pair_record = at(d.pair_record);
  c.pair_quiet = at(d.pair_quiet);
  c.pair_sums = at(d.sums);
  c.pair_weight = at(d.weight);
  c.pair_second_moment = at(d.second);
  e = ContactEnds{};
  e.begin = at(d.ends_begin);
  e.index = at(d.ends_index);
  e.weight = c.pair_weight;
  e.sums = c.pair_sums;
  e.second_moment = c.pair_second_moment;
}

__global__ void prepare(BodyArrays b, ContactArrays c, HardBondSettings hard, Real h2) {
  const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (k < c.count) contact_prepare_kernel(b, c, k, hard, h2);
}

__global__ void pair_prepare(ContactArrays c) {
  const int m = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (m < c.pair_count) contact_pair_prepare_kernel(c, m);
}

__global__ void pair_weights(BodyArrays b, ContactArrays c, bool second) {
  const int m = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (m < c.pair_count) contact_pair_weights_kernel(b, c, m, true, second);
}

__global__ void solve(BodyArrays b, BondArrays bonds, ContactEnds e, StepConstants k) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < b.count) global_local_kernel(b, bonds, e, i, k);
}

int blocks(int n) { return (n + 127) / 128; }

/// Bitwise comparison of two arrays of plain numbers; prints the first mismatches.
template <typename T>
int compare(const char* name, const std::vector<T>& cpu, const std::vector<T>& gpu) {
  int bad = 0;
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    if (std::memcmp(&cpu[i], &gpu[i], sizeof(T)) == 0) continue;
    if (++bad <= 3) std::printf("  MISMATCH %s[%zu]\n", name, i);
  }
  std::printf("%-22s %8zu elements, %s\n", name, cpu.size(), bad ? "DIFFERENT" : "bit-identical");
  return bad;
}

/// One round: prepare, pair weights, solve, on both sides from the same data.
int check(unsigned seed, bool paper_step) {
  Data cpu = make_data(seed, 2000, 6000);
  Data gpu_in = cpu;  // the device copies come from here
  const HardBondSettings hard;
  const Real h = Real(1) / 60;
  StepConstants k;
  k.h = h;
  k.rigid_local = !paper_step;

  BodyArrays hb;
  ContactArrays hc;
  ContactEnds he;
  make_views(
      cpu, [](auto& v) { return v.data(); }, hb, hc, he);
  const BondArrays no_bonds;

  DeviceMirror device;
  BodyArrays db;
  ContactArrays dc;
  ContactEnds de;
  make_views(gpu_in, device, db, dc, de);

  const Real h2 = h * h;
  for (int i = 0; i < hc.count; ++i) contact_prepare_kernel(hb, hc, i, hard, h2);
  prepare<<<blocks(dc.count), 128>>>(db, dc, hard, h2);
  for (int m = 0; m < hc.pair_count; ++m) contact_pair_prepare_kernel(hc, m);
  pair_prepare<<<blocks(dc.pair_count), 128>>>(dc);
  for (int m = 0; m < hc.pair_count; ++m) contact_pair_weights_kernel(hb, hc, m, true, paper_step);
  pair_weights<<<blocks(dc.pair_count), 128>>>(db, dc, paper_step);
  // Jacobi: every body reads the pair sums just written, then moves.
  for (int i = 0; i < hb.count; ++i) global_local_kernel(hb, no_bonds, he, i, k);
  solve<<<blocks(db.count), 128>>>(db, no_bonds, de, k);
  check_cuda(cudaGetLastError(), "launch");
  check_cuda(cudaDeviceSynchronize(), "kernels");

  std::printf("seed %u, %s local step: %d bodies, %d pairs, %d contacts\n", seed,
              paper_step ? "paper" : "rigid", hb.count, hc.pair_count, hc.count);
  int pushing = 0;
  for (Real w : cpu.weight) pushing += w > 0 ? 1 : 0;
  std::printf("  %d of %d pair ends pull\n", pushing, 2 * hc.pair_count);
  // Sums are compared where their weight is not 0 (elsewhere they are not written).
  std::vector<BondEndSums> cpu_sums, gpu_sums;
  const std::vector<BondEndSums> gs = device.back(gpu_in.sums);
  const std::vector<Mat3> gsec = device.back(gpu_in.second);
  std::vector<Mat3> cpu_sec, gpu_sec;
  for (std::size_t e = 0; e < cpu.weight.size(); ++e)
    if (cpu.weight[e] != 0) {
      cpu_sums.push_back(cpu.sums[e]);
      gpu_sums.push_back(gs[e]);
      cpu_sec.push_back(cpu.second[e]);
      gpu_sec.push_back(gsec[e]);
    }
  int bad = 0;
  bad += compare("end_weight", cpu.end_weight, device.back(gpu_in.end_weight));
  bad += compare("end_scale", cpu.end_scale, device.back(gpu_in.end_scale));
  bad += compare("record", cpu.record, device.back(gpu_in.record));
  bad += compare("lambda", cpu.lambda, device.back(gpu_in.lambda));
  bad += compare("sticking", cpu.sticking, device.back(gpu_in.sticking));
  bad += compare("pair_weight", cpu.weight, device.back(gpu_in.weight));
  bad += compare("pair_sums", cpu_sums, gpu_sums);
  if (paper_step) bad += compare("pair_second_moment", cpu_sec, gpu_sec);
  bad += compare("position", cpu.position, device.back(gpu_in.position));
  bad += compare("affine", cpu.affine, device.back(gpu_in.affine));
  bad += compare("orientation", cpu.orientation, device.back(gpu_in.orientation));
  bad += compare("motion", cpu.motion, device.back(gpu_in.motion));
  if (pushing == 0) {
    std::printf("  no pair end pulls: the check would compare zeros\n");
    ++bad;
  }
  return bad;
}

}  // namespace
}  // namespace pabd::gpu_check

int main() {
  int device_count = 0;
  pabd::gpu_check::check_cuda(cudaGetDeviceCount(&device_count), "cudaGetDeviceCount");
  cudaDeviceProp prop{};
  pabd::gpu_check::check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("device: %s\n", prop.name);
  int bad = 0;
  for (unsigned seed : {1u, 2u}) bad += pabd::gpu_check::check(seed, false);
  bad += pabd::gpu_check::check(3u, true);
  std::printf("%s\n", bad ? "gpu_contact_check: FAILED" : "gpu_contact_check: all bit-identical");
  return bad ? 1 : 0;
}

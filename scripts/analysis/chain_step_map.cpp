// Is a step of PABD's hard-joint iteration contractive on a hanging chain?
//
// A 1-D model of the paper's Fig. 8 chain (docs/method.md, "Iteration order
// and acceleration"): n point masses on a vertical line, joined to each other
// and to a fixed anchor by hard point bonds, stepped exactly as
// src/solver/step.cpp steps them: prediction, K iterations of (bond targets
// with the shares of src/bonds/bond_shares.h; per-body solve; multiplier
// update lambda += min(kappa, m_eff/h^2) C), velocities from positions. The
// penalty is held at kappa = r m_eff / h^2 (beta = 0), which makes the step an
// affine map of (positions, velocities, multipliers); its spectral radius says
// whether errors, and energy, grow from step to step. Printed for Jacobi and
// colored sweeps, equal links and a 1000x last link.
//
// Not part of the build (it needs only Eigen):
//   g++ -O2 -std=c++20 -I/usr/include/eigen3 scripts/analysis/chain_step_map.cpp -o /tmp/map
//   /tmp/map
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

struct Model {
  int links = 19;
  int iterations = 10;
  double last_mass = 1000;      // [kg]; the others weigh 1 kg
  double ratio = 1;             // kappa = ratio * m_eff / h^2
  bool colored = false;         // Gauss-Seidel over the two colours (odd, even)
  double decay = 0.99 * 0.999;  // alpha gamma: the multiplier's warm start
};

constexpr double kH = 1.0 / 60;

// One step of the model. State z = [y (n), v (n), lambda (n)]; body i sits
// at y_i, joint j joins body j-1 (the anchor at 0 for j = 0) to body j.
// Gravity and the links' lengths only shift the map, so the linear part is
// the step with both set to zero.
Eigen::VectorXd step(const Model& p, const Eigen::VectorXd& z) {
  const int n = p.links;
  const double h2 = kH * kH;
  std::vector<double> m(n, 1.0), y(n), v(n), lam(n), s(n), kap(n);
  m[n - 1] = p.last_mass;
  for (int i = 0; i < n; ++i) y[i] = z[i], v[i] = z[n + i], lam[i] = z[2 * n + i];
  auto inv = [&](int b) { return b < 0 ? 0.0 : 1.0 / m[b]; };
  auto upper = [&](int j) { return j == 0 ? 0.0 : y[j - 1]; };  // joint j's end a
  const std::vector<double> y0 = y;
  for (int i = 0; i < n; ++i) s[i] = y[i] = y[i] + kH * v[i];  // prediction
  for (int j = 0; j < n; ++j) {
    kap[j] = p.ratio / (h2 * (inv(j - 1) + inv(j)));
    lam[j] *= p.decay;
  }
  for (int it = 0; it < p.iterations; ++it) {
    for (int colour = 0; colour < (p.colored ? 2 : 1); ++colour) {
      std::vector<double> weight(n, 0), pull(n, 0);
      for (int j = 0; j < n; ++j) {
        const double ia = inv(j - 1), ib = inv(j);
        double sa = 0, sb = 1;  // against the anchor, the body closes the gap
        if (ia > 0) {
          sa = sb = 1;  // colored: each end closes the whole gap
          if (!p.colored) sa = std::max(ia / (ia + ib), 0.5), sb = std::max(ib / (ia + ib), 0.5);
        }
        const double c = (upper(j) - y[j]) + lam[j] / kap[j];
        if (j > 0) {
          const double w = h2 * kap[j] / sa;
          weight[j - 1] += w, pull[j - 1] += w * (upper(j) - sa * c);
        }
        const double w = h2 * kap[j] / sb;
        weight[j] += w, pull[j] += w * (y[j] + sb * c);
      }
      for (int i = 0; i < n; ++i)
        if (!p.colored || i % 2 == colour) y[i] = (m[i] * s[i] + pull[i]) / (m[i] + weight[i]);
    }
    for (int j = 0; j < n; ++j) {
      const double step_max = 1 / (h2 * (inv(j - 1) + inv(j)));
      lam[j] += std::min(kap[j], step_max) * (upper(j) - y[j]);
    }
  }
  Eigen::VectorXd out(3 * n);
  for (int i = 0; i < n; ++i)
    out[i] = y[i], out[n + i] = (y[i] - y0[i]) / kH, out[2 * n + i] = lam[i];
  return out;
}

double spectral_radius(const Model& p) {
  const int size = 3 * p.links;
  Eigen::MatrixXd a(size, size);
  for (int c = 0; c < size; ++c) a.col(c) = step(p, Eigen::VectorXd::Unit(size, c));
  return a.eigenvalues().cwiseAbs().maxCoeff();
}

}  // namespace

int main() {
  std::printf("spectral radius of one step (> 1: errors and energy grow)\n");
  std::printf("%-8s %-10s %10s %10s %10s %10s %10s\n", "sweeps", "last link", "r = 1", "10", "100",
              "1e3", "1e4");
  for (bool colored : {false, true}) {
    for (double last : {1.0, 1000.0}) {
      std::printf("%-8s %-10s", colored ? "colored" : "jacobi", last > 1 ? "1000 kg" : "1 kg");
      for (double r : {1.0, 10.0, 100.0, 1e3, 1e4}) {
        Model p;
        p.colored = colored;
        p.last_mass = last;
        p.ratio = r;
        std::printf(" %10.4f", spectral_radius(p));
      }
      std::printf("\n");
    }
  }
}

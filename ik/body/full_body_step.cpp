// The prioritized damped least-squares step of the full-body iterations (the method is at the
// top of ik/body/full_body_solve.h): small dense linear algebra in double, fixed capacity, no
// allocation.
#include "ik/body/full_body_step.h"

#include <algorithm>
#include <cmath>

namespace ik {
namespace internal {

namespace {

constexpr double kMaxStepTurn = 0.35;        // radians per body joint and iteration
constexpr double kMaxStepTranslation = 0.5;  // body sizes per iteration

// Solves G X = B in place for symmetric positive definite G (m x m, leading dimension kMaxRows)
// and `columns` right-hand sides stored as rows of B (each of length m): Cholesky. False when G is
// not positive definite.
bool CholeskySolve(double (*g)[kMaxRows], int m, double (*b)[kMaxRows], int columns) {
  for (int j = 0; j < m; ++j) {
    double d = g[j][j];
    for (int k = 0; k < j; ++k) d -= g[j][k] * g[j][k];
    if (!(d > 0.0) || !std::isfinite(d)) return false;
    d = std::sqrt(d);
    g[j][j] = d;
    for (int i = j + 1; i < m; ++i) {
      double s = g[i][j];
      for (int k = 0; k < j; ++k) s -= g[i][k] * g[j][k];
      g[i][j] = s / d;
    }
  }
  for (int c = 0; c < columns; ++c) {
    double* x = b[c];
    for (int i = 0; i < m; ++i) {
      double s = x[i];
      for (int k = 0; k < i; ++k) s -= g[i][k] * x[k];
      x[i] = s / g[i][i];
    }
    for (int i = m - 1; i >= 0; --i) {
      double s = x[i];
      for (int k = i + 1; k < m; ++k) s -= g[k][i] * x[k];
      x[i] = s / g[i][i];
    }
  }
  return true;
}

// How far one level's part of a step may go: no body joint turns more than kMaxStepTurn, the hips
// move at most kMaxStepTranslation body sizes. `weight_sqrt` takes θ̃ to θ.
double StepScale(const double* step, const double* weight_sqrt, int body_count, double trust) {
  double translation = 0.0, turn = 0.0;
  for (int k = 0; k < 3; ++k) translation += step[k] * weight_sqrt[k] * step[k] * weight_sqrt[k];
  for (int b = 0; b < body_count; ++b) {
    double t = 0.0;
    for (int k = 3 + 3 * b; k < 6 + 3 * b; ++k)
      t += step[k] * weight_sqrt[k] * step[k] * weight_sqrt[k];
    turn = std::max(turn, t);
  }
  translation = std::sqrt(translation);
  turn = std::sqrt(turn);
  double scale = 1.0;
  if (turn > trust * kMaxStepTurn) scale = trust * kMaxStepTurn / turn;
  if (translation > trust * kMaxStepTranslation) {
    scale = std::min(scale, trust * kMaxStepTranslation / translation);
  }
  return scale;
}

}  // namespace

void PrioritizedStep(const Rows& rows, double null_lambda2, double lambda2,
                     const double* weight_sqrt, int body_count, double trust, double* delta) {
  const int p = rows.params;
  double n[kMaxParams][kMaxParams];
  for (int a = 0; a < p; ++a) {
    delta[a] = 0.0;
    for (int b = 0; b < p; ++b) n[a][b] = a == b ? 1.0 : 0.0;
  }
  double a_rows[kMaxRows][kMaxParams];
  double g[kMaxRows][kMaxRows];
  double rhs[kMaxParams][kMaxRows];  // the columns of A, for G⁻¹ A
  double e[1][kMaxRows];
  int level_rows[kLevels] = {0, 0, 0};
  for (int i = 0; i < rows.count; ++i) ++level_rows[rows.level[i]];
  bool n_is_identity = true;
  for (int level = 0; level < kLevels; ++level) {
    int idx[kMaxRows];
    int m = 0;
    for (int i = 0; i < rows.count; ++i)
      if (rows.level[i] == level) idx[m++] = i;
    if (m == 0) continue;
    // A = J̃ N, e = r - J̃ Δ̃.
    for (int i = 0; i < m; ++i) {
      const double* jr = rows.j[idx[i]];
      double ei = rows.r[idx[i]];
      for (int b = 0; b < p; ++b) {
        double s = jr[b];
        if (!n_is_identity) {
          s = 0.0;
          for (int a = 0; a < p; ++a) s += jr[a] * n[a][b];
        }
        a_rows[i][b] = s;
        ei -= jr[b] * delta[b];
      }
      e[0][i] = ei;
    }
    auto gram = [&](double damping) {
      for (int i = 0; i < m; ++i) {
        for (int k = 0; k <= i; ++k) {
          double s = 0.0;
          for (int b = 0; b < p; ++b) s += a_rows[i][b] * a_rows[k][b];
          g[i][k] = s;
          g[k][i] = s;
        }
        g[i][i] += damping;
      }
    };
    // The step: Δ̃ += Aᵀ (A Aᵀ + λ² I)⁻¹ e, scaled to the limits.
    gram(lambda2);
    if (!CholeskySolve(g, m, e, 1)) continue;
    double part[kMaxParams];
    for (int b = 0; b < p; ++b) {
      double s = 0.0;
      for (int i = 0; i < m; ++i) s += a_rows[i][b] * e[0][i];
      part[b] = s;
    }
    const double scale = StepScale(part, weight_sqrt, body_count, trust);
    for (int b = 0; b < p; ++b) delta[b] += scale * part[b];
    // What is left to the next levels: N -= Aᵀ (A Aᵀ + λ0² I)⁻¹ A.
    bool later_rows = false;
    for (int k = level + 1; k < kLevels; ++k) later_rows = later_rows || level_rows[k] > 0;
    if (!later_rows) break;
    n_is_identity = false;
    gram(null_lambda2);
    for (int b = 0; b < p; ++b)
      for (int i = 0; i < m; ++i) rhs[b][i] = a_rows[i][b];
    if (!CholeskySolve(g, m, rhs, p)) continue;
    for (int a = 0; a < p; ++a) {
      for (int b = 0; b < p; ++b) {
        double s = 0.0;
        for (int i = 0; i < m; ++i) s += a_rows[i][a] * rhs[b][i];
        n[a][b] -= s;
      }
    }
  }
}

}  // namespace internal
}  // namespace ik

// SPDX-License-Identifier: Apache-2.0
#include "model/mean_estimate.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace wormcast::model {
namespace {

// P(|T| <= sqrt(dof) tan(theta)) for T with `dof` degrees of freedom and theta in [0, pi/2]: with
// c = cos^2(theta), odd dof: (2/pi) (theta + sin cos (1 + 2/3 c + 2*4/(3*5) c^2 + ... up to the
// c^((dof-3)/2) term)); even dof: sin (1 + 1/2 c + 1*3/(2*4) c^2 + ... up to c^((dof-2)/2)).
double central_probability(double theta, int dof) {
  const double s = std::sin(theta);
  const double co = std::cos(theta);
  const double c = co * co;
  const bool odd = dof % 2 == 1;
  double term = 1.0;
  double sum = dof >= (odd ? 3 : 2) ? 1.0 : 0.0;
  // Term j+1 is term j times c (2j + a) / (2j + a + 1), a = 2 (odd) or 1 (even).
  const int a = odd ? 2 : 1;
  const int last = odd ? (dof - 3) / 2 : (dof - 2) / 2;
  for (int j = 0; j < last; ++j) {
    term *= c * (2.0 * j + a) / (2.0 * j + a + 1.0);
    sum += term;
  }
  if (odd) return 2.0 / std::numbers::pi * (theta + s * co * sum);
  return s * sum;
}

}  // namespace

double student_t_two_sided(double confidence, int degrees_of_freedom) {
  if (!(confidence > 0.0 && confidence < 1.0)) {
    throw std::invalid_argument(fmt::format("confidence {} is not a probability in (0, 1)", confidence));
  }
  if (degrees_of_freedom < 1) {
    throw std::invalid_argument(fmt::format("{} degrees of freedom; give at least 1", degrees_of_freedom));
  }
  // The probability rises with theta from 0 at 0 to 1 at pi/2: bisect until the bracket stops
  // shrinking in floating point.
  double low = 0.0;
  double high = std::numbers::pi / 2.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (low + high);
    if (mid <= low || mid >= high) break;
    (central_probability(mid, degrees_of_freedom) < confidence ? low : high) = mid;
  }
  return std::sqrt(static_cast<double>(degrees_of_freedom)) * std::tan(0.5 * (low + high));
}

MeanEstimate estimate_mean(const std::vector<double>& values) {
  if (values.empty()) throw std::invalid_argument("the mean of no values; give at least one");
  MeanEstimate estimate;
  for (const double v : values) estimate.mean += v;
  const double n = static_cast<double>(values.size());
  estimate.mean /= n;
  if (values.size() < 2) return estimate;
  double squares = 0.0;  // two passes: the deviations from the mean, not sum x^2 - n mean^2
  for (const double v : values) squares += (v - estimate.mean) * (v - estimate.mean);
  const double sd = std::sqrt(squares / (n - 1.0));
  estimate.spread.standard_deviation = sd;
  estimate.spread.ci95_half_width = student_t_two_sided(0.95, static_cast<int>(values.size()) - 1) * sd / std::sqrt(n);
  return estimate;
}

}  // namespace wormcast::model

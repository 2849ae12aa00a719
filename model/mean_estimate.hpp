// SPDX-License-Identifier: Apache-2.0
// The mean of a random sample with its uncertainty: the sample standard deviation and the 95 %
// confidence interval of the mean by Student's t (docs/results.md, "Uncertainty"), which the
// experiment sweeps write beside every mean they report.
#pragma once

#include <optional>
#include <vector>

namespace wormcast::model {

// The spread of a sample of n values; both are empty for n < 2 (one value has no spread).
struct Spread {
  // s = sqrt(sum (x_i - mean)^2 / (n - 1)), the sample standard deviation.
  std::optional<double> standard_deviation;
  // h = t(0.975, n - 1) * s / sqrt(n): the mean's 95 % confidence interval is mean +- h.
  std::optional<double> ci95_half_width;
  bool operator==(const Spread&) const = default;
};

struct MeanEstimate {
  double mean = 0.0;  // the sum in the values' order over n, as a plain average
  Spread spread;
  bool operator==(const MeanEstimate&) const = default;
};

// The estimate of a non-empty sample. Throws std::invalid_argument for an empty one.
MeanEstimate estimate_mean(const std::vector<double>& values);

// The two-sided quantile of Student's t distribution with `degrees_of_freedom` (>= 1): the t with
// P(|T| <= t) = `confidence` (in (0, 1)); 0.95 gives t(0.975, dof). Exact to about 1e-12, from the
// finite series of the distribution function for integer degrees of freedom (Abramowitz and
// Stegun 26.7.3 and 26.7.4) inverted by bisection. Throws std::invalid_argument outside the ranges.
double student_t_two_sided(double confidence, int degrees_of_freedom);

}  // namespace wormcast::model

// SPDX-License-Identifier: Apache-2.0
// The mean, standard deviation and 95 % confidence interval the experiment sweeps write: every
// expected value is worked out here by hand or from a closed form of Student's t, not by the code.
#include "model/mean_estimate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace wormcast::model {
namespace {

// t(0.975, 1) is the Cauchy quantile tan(pi (0.975 - 1/2)) = 12.7062...
TEST(StudentT, OneDegreeIsTheCauchyQuantile) {
  EXPECT_NEAR(student_t_two_sided(0.95, 1), std::tan(0.475 * std::numbers::pi), 1e-9);
  EXPECT_NEAR(student_t_two_sided(0.95, 1), 12.7062, 1e-4);  // the printed tables
}

// With 2 degrees of freedom P(|T| <= t) = t / sqrt(2 + t^2); at 0.95: t^2 = 0.95^2 * 2 / (1 - 0.95^2).
TEST(StudentT, TwoDegreesSolveTheClosedForm) {
  EXPECT_NEAR(student_t_two_sided(0.95, 2), std::sqrt(0.9025 * 2.0 / 0.0975), 1e-9);
  EXPECT_NEAR(student_t_two_sided(0.95, 2), 4.3027, 1e-4);
  // At 0.5 (the quartile): t^2 = 0.25 * 2 / 0.75.
  EXPECT_NEAR(student_t_two_sided(0.5, 2), std::sqrt(0.5 / 0.75), 1e-9);
}

// With 4 degrees of freedom the quantile is closed (Shaw 2006): a = 4p(1-p), q = cos(acos(sqrt a)/3)/sqrt a,
// t = 2 sqrt(q - 1), p = 0.975.
TEST(StudentT, FourDegreesMatchShawsClosedForm) {
  const double a = 4.0 * 0.975 * 0.025;
  const double q = std::cos(std::acos(std::sqrt(a)) / 3.0) / std::sqrt(a);
  EXPECT_NEAR(student_t_two_sided(0.95, 4), 2.0 * std::sqrt(q - 1.0), 1e-9);
  EXPECT_NEAR(student_t_two_sided(0.95, 4), 2.7764, 1e-4);
}

// Odd and even degrees from the printed tables (3, 7, 10, 30), each to the table's 3 decimals.
TEST(StudentT, SmallDegreesMatchThePrintedTable) {
  EXPECT_NEAR(student_t_two_sided(0.95, 3), 3.182, 5e-4);
  EXPECT_NEAR(student_t_two_sided(0.95, 7), 2.365, 5e-4);
  EXPECT_NEAR(student_t_two_sided(0.95, 10), 2.228, 5e-4);
  EXPECT_NEAR(student_t_two_sided(0.95, 30), 2.042, 5e-4);
}

// Many degrees: the normal quantile z = 1.959964 plus Cornish-Fisher's first two corrections,
// (z^3 + z) / (4 dof) + (5 z^5 + 16 z^3 + 3 z) / (96 dof^2), whose rest is below 1e-8 here.
TEST(StudentT, ManyDegreesApproachTheNormalQuantile) {
  const double z = 1.959963984540054;
  for (const int dof : {999, 1023}) {
    const double expected =
        z + (z * z * z + z) / (4.0 * dof) + (5 * std::pow(z, 5) + 16 * std::pow(z, 3) + 3 * z) / (96.0 * dof * dof);
    EXPECT_NEAR(student_t_two_sided(0.95, dof), expected, 1e-7) << dof;
  }
}

TEST(StudentT, OutOfRangeArgumentsThrow) {
  EXPECT_THROW(student_t_two_sided(0.95, 0), std::invalid_argument);
  EXPECT_THROW(student_t_two_sided(1.0, 5), std::invalid_argument);
  EXPECT_THROW(student_t_two_sided(0.0, 5), std::invalid_argument);
}

// {1, 2, 6}: mean 3, deviations -2, -1, 3, squares 14, s^2 = 14 / 2 = 7; h = t(0.975, 2) sqrt(7 / 3).
TEST(MeanEstimate, ThreeValuesUseNMinusOneAndTwoDegrees) {
  const MeanEstimate e = estimate_mean({1, 2, 6});
  EXPECT_DOUBLE_EQ(e.mean, 3.0);
  ASSERT_TRUE(e.spread.standard_deviation && e.spread.ci95_half_width);
  EXPECT_NEAR(*e.spread.standard_deviation, std::sqrt(7.0), 1e-12);
  EXPECT_NEAR(*e.spread.ci95_half_width, std::sqrt(0.9025 * 2.0 / 0.0975) * std::sqrt(7.0 / 3.0), 1e-9);
}

// {10, 12}: mean 11, s^2 = (1 + 1) / 1 = 2; h = tan(0.475 pi) sqrt(2) / sqrt(2) = 12.7062.
TEST(MeanEstimate, TwoValuesUseTheCauchyQuantile) {
  const MeanEstimate e = estimate_mean({10, 12});
  EXPECT_DOUBLE_EQ(e.mean, 11.0);
  EXPECT_NEAR(*e.spread.standard_deviation, std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(*e.spread.ci95_half_width, std::tan(0.475 * std::numbers::pi), 1e-9);
}

// Large values close together: the two-pass deviations keep s exact where sum x^2 - n mean^2
// would cancel. {1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4, 1e9 + 5}: s^2 = (4 + 1 + 0 + 1 + 4) / 4 = 2.5.
TEST(MeanEstimate, LargeOffsetsKeepTheDeviations) {
  const MeanEstimate e = estimate_mean({1e9 + 1, 1e9 + 2, 1e9 + 3, 1e9 + 4, 1e9 + 5});
  EXPECT_DOUBLE_EQ(e.mean, 1e9 + 3);
  EXPECT_NEAR(*e.spread.standard_deviation, std::sqrt(2.5), 1e-9);
  EXPECT_NEAR(*e.spread.ci95_half_width, 2.7764 * std::sqrt(2.5 / 5.0), 1e-4);  // t(0.975, 4)
}

// Equal values: no spread, an interval of zero width (a deterministic experiment).
TEST(MeanEstimate, EqualValuesHaveZeroWidth) {
  const MeanEstimate e = estimate_mean({7, 7, 7, 7});
  EXPECT_DOUBLE_EQ(e.mean, 7.0);
  EXPECT_EQ(*e.spread.standard_deviation, 0.0);
  EXPECT_EQ(*e.spread.ci95_half_width, 0.0);
}

// One value has no spread: both are empty (the CSVs leave the cells empty).
TEST(MeanEstimate, OneValueHasNoSpread) {
  const MeanEstimate e = estimate_mean({4.5});
  EXPECT_DOUBLE_EQ(e.mean, 4.5);
  EXPECT_FALSE(e.spread.standard_deviation.has_value());
  EXPECT_FALSE(e.spread.ci95_half_width.has_value());
  EXPECT_THROW(estimate_mean({}), std::invalid_argument);
}

}  // namespace
}  // namespace wormcast::model

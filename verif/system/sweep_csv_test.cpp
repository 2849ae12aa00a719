// SPDX-License-Identifier: Apache-2.0
// The planning sweep's CSV (sim/plan_views.hpp): each mean with its standard deviation and 95 %
// confidence interval half-width in the columns the header names, empty cells for one sample.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/tree_multicast.hpp"
#include "sim/plan_views.hpp"

namespace wormcast::verif {
namespace {

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out(1);
  for (const char c : line) {
    if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

TEST(SweepCsv, SpreadCellsAreSixSignificantDigitsOrEmpty) {
  EXPECT_EQ(sim::spread_csv_cells({2.5, 1.234567891}), "2.5,1.23457");
  EXPECT_EQ(sim::spread_csv_cells({0.0, 0.0}), "0,0");
  EXPECT_EQ(sim::spread_csv_cells({}), ",");
}

// Every header column has its cell, and sd_latency and ci95_latency hold the latency's spread.
TEST(SweepCsv, RowPutsEachSpreadUnderItsColumn) {
  model::SweepRow row{model::kVhAlgorithm, 10, 4};
  row.mean_latency = 12.5;
  row.steps_spread = {0.5, 0.75};
  row.traffic_spread = {3.0, 4.0};
  row.additional_traffic_spread = {3.0, 4.0};
  row.latency_spread = {1.5, 2.25};
  const std::vector<std::string> names = cells(sim::sweep_csv_header());
  const std::vector<std::string> values = cells(sim::sweep_csv_row(row));
  ASSERT_EQ(names.size(), values.size());
  const auto value = [&](const std::string& name) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i] == name) return values[i];
    }
    return std::string("no column ") + name;
  };
  EXPECT_EQ(value("runs"), "4");
  EXPECT_EQ(value("mean_latency"), "12.5");
  EXPECT_EQ(value("sd_latency"), "1.5");
  EXPECT_EQ(value("ci95_latency"), "2.25");
  EXPECT_EQ(value("sd_steps"), "0.5");
  EXPECT_EQ(value("ci95_steps"), "0.75");
  EXPECT_EQ(value("sd_traffic"), "3");
  EXPECT_EQ(value("ci95_additional_traffic"), "4");

  row.latency_spread = {};  // one run
  EXPECT_EQ(cells(sim::sweep_csv_row(row)).back(), "");
  EXPECT_EQ(cells(sim::sweep_csv_row(row)).size(), names.size());
}

}  // namespace
}  // namespace wormcast::verif

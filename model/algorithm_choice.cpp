// SPDX-License-Identifier: Apache-2.0
#include "model/algorithm_choice.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "model/errors.hpp"
#include "model/planner.hpp"

namespace wormcast::model {

bool same_latency(double a, double b) {
  return std::abs(a - b) <= AlgorithmChoice::kTie * std::max(std::abs(a), std::abs(b));
}

AlgorithmChoice choose_algorithm(const Request& request, const std::vector<std::string>& candidates) {
  const std::vector<std::string> names = candidates.empty() ? algorithm_names() : candidates;
  for (const std::string& name : names) algorithm_info(name);  // an unknown name: the registry's error
  validate(request);
  AlgorithmChoice choice;
  for (const std::string& name : names) {
    Request r = request;
    r.algorithm = name;
    Candidate c;
    c.algorithm = name;
    try {
      const Plan p = plan(r);
      c.latency = p.metrics.latency;
      c.traffic = p.metrics.traffic;
      c.steps = p.metrics.steps;
      choice.ranking.push_back(c);
    } catch (const UnsupportedError& e) {
      c.excluded_because = e.what();
      choice.excluded.push_back(c);
    } catch (const RequestError& e) {
      c.excluded_because = e.what();
      choice.excluded.push_back(c);
    } catch (const LabelingError& e) {
      c.excluded_because = e.what();
      choice.excluded.push_back(c);
    }
  }
  if (choice.ranking.empty()) {
    std::vector<std::string> reasons;
    for (const Candidate& c : choice.excluded) reasons.push_back(c.algorithm + ": " + c.excluded_because);
    throw UnsupportedError(fmt::format("no algorithm applies to this request on {} with {}: {}",
                                       request.topology.spec(), request.ports.name(), fmt::join(reasons, "; ")));
  }
  // Stable: candidates that tie on latency and traffic keep the candidates' (registry) order.
  std::stable_sort(choice.ranking.begin(), choice.ranking.end(), [](const Candidate& a, const Candidate& b) {
    if (!same_latency(a.latency, b.latency)) return a.latency < b.latency;
    return a.traffic < b.traffic;
  });
  return choice;
}

}  // namespace wormcast::model

// /jobs: reading several jobs on one network (scenario.h's JobSpec). Each model job is read as
// the scenario it would be alone, by the one reader of scenarios, so a job's keys mean what
// they mean at the top level and are checked the same way.
#pragma once

#include "apps/json_checker.h"
#include "apps/scenario.h"

#include <string>
#include <vector>

namespace uniference {

// The jobs of `document` (a scenario whose /jobs is `value`), each model job read alone by
// `parse_alone` (parse_scenario, which calls this); errors name /jobs/<n>/... where the job
// wrote the key.
std::vector<JobSpec> read_jobs(const Checker& check, const json& document, const json& value,
                               const std::string& source,
                               Scenario (*parse_alone)(const json&, const std::string&));

// The scenario to deploy: `scenario` itself when `job` is empty, else its model job of that
// name as it would be alone. Throws ScenarioError at /jobs for a name it has not got, a traffic
// job, or a scenario of several jobs deployed without a name.
Scenario job_alone(const Scenario& scenario, const std::string& job);

}  // namespace uniference

#include "apps/fresh_process.h"

#include "apps/record_json.h"
#include "apps/scenario_error.h"

#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <string>

namespace uniference {

namespace {

// What the child hands back: {"record": ...}, {"scenario_error": {...}} or {"error": "..."}.
nlohmann::json outcome_of(const std::function<RunRecord()>& run) {
  try {
    return {{"record", record_to_json(run())}};
  } catch (const ScenarioError& e) {
    return {{"scenario_error",
             {{"source", e.source()}, {"pointer", e.pointer()}, {"detail", e.detail()}, {"line", e.line()},
              {"column", e.column()}}}};
  } catch (const std::exception& e) {
    return {{"error", e.what()}};
  }
}

void write_all(int fd, const std::string& text) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone: nobody to tell
    done += size_t(n);
  }
}

std::string read_all(int fd) {
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    text.append(buffer, size_t(n));
  }
}

}  // namespace

RunRecord run_in_fresh_process(const std::function<RunRecord()>& run) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("cannot make a pipe for the simulation: ") + std::strerror(errno));
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("cannot start the simulation's process: ") + std::strerror(errno));
  }
  if (child == 0) {
    ::close(fds[0]);
    write_all(fds[1], outcome_of(run).dump());
    ::close(fds[1]);
    ::_exit(0);  // not exit(): the parent's static objects are the parent's to destroy
  }
  ::close(fds[1]);
  const std::string text = read_all(fds[0]);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    throw std::runtime_error("the simulation's process was killed by signal " + std::to_string(WTERMSIG(status)) +
                             " (" + strsignal(WTERMSIG(status)) + ")");
  }
  const nlohmann::json outcome = nlohmann::json::parse(text, nullptr, false);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || outcome.is_discarded() || !outcome.is_object()) {
    throw std::runtime_error("the simulation's process exited with status " + std::to_string(WEXITSTATUS(status)) +
                             " before it handed its record back");
  }
  if (outcome.contains("record")) return record_from_json(outcome["record"]);
  if (outcome.contains("scenario_error")) {
    const nlohmann::json& e = outcome["scenario_error"];
    const auto source = e.at("source").get<std::string>(), detail = e.at("detail").get<std::string>();
    if (e.at("line").get<size_t>() > 0) {
      throw ScenarioError(source, e.at("line").get<size_t>(), e.at("column").get<size_t>(), detail);
    }
    throw ScenarioError(source, e.at("pointer").get<std::string>(), detail);
  }
  throw std::runtime_error(outcome.value("error", std::string("the simulation failed")));
}

}  // namespace uniference

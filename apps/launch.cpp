#include "apps/launch.h"

#include "apps/reserved_port.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>

namespace uniference {

namespace {

// One rank's process and the pipes its output arrives on.
struct Child {
  int rank = 0;
  pid_t pid = -1;
  int out = -1;  // its stdout
  int err = -1;  // its stderr
  std::string out_partial, err_partial;
  bool done = false;
  int exit_code = 0;
};

// Writes each complete line of `chunk` to `sink` behind "[rank r] ".
void relay(const std::string& prefix, std::string& partial, const char* chunk, size_t size,
           std::ostream& sink) {
  partial.append(chunk, size);
  size_t start = 0;
  for (size_t end; (end = partial.find('\n', start)) != std::string::npos; start = end + 1) {
    sink << prefix << partial.substr(start, end - start + 1);
  }
  partial.erase(0, start);
  sink.flush();
}

Child start_rank(const LaunchOptions& options, int rank, int world, const std::string& addr,
                 int port) {
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
  }
  std::vector<std::string> argv;
  if (!options.netns.empty()) argv = {"ip", "netns", "exec", options.netns[size_t(rank)]};
  argv.push_back(options.deploy_binary);
  argv.insert(argv.end(), options.deploy_args.begin(), options.deploy_args.end());
  const std::vector<std::pair<std::string, std::string>> env = {
      {"RANK", std::to_string(rank)},           {"WORLD_SIZE", std::to_string(world)},
      {"LOCAL_RANK", std::to_string(rank)},     {"MASTER_ADDR", addr},
      {"MASTER_PORT", std::to_string(port)}};

  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot start a rank: ") + std::strerror(errno));
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // no rank outlives its launcher
    dup2(out[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    close(out[0]), close(out[1]), close(err[0]), close(err[1]);
    for (const auto& [name, value] : env) setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> args;
    for (std::string& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  Child child;
  child.rank = rank;
  child.pid = pid;
  child.out = out[0];
  child.err = err[0];
  return child;
}

std::string describe_status(int status, int& code) {
  if (WIFEXITED(status)) {
    code = WEXITSTATUS(status);
    return "exited with " + std::to_string(code);
  }
  code = 1;
  if (WIFSIGNALED(status)) return std::string("was killed by signal ") + std::to_string(WTERMSIG(status)) +
                                  " (" + strsignal(WTERMSIG(status)) + ")";
  return "ended abnormally";
}

}  // namespace

void check_launch(const LaunchOptions& options) {
  if (!options.netns.empty()) {
    if (options.ranks != 0 && options.ranks != int(options.netns.size())) {
      throw std::invalid_argument("-n " + std::to_string(options.ranks) + " but " +
                                  std::to_string(options.netns.size()) +
                                  " network namespaces: one rank runs in each");
    }
    if (options.master_addr.empty()) {
      throw std::invalid_argument("--netns needs --master-addr: rank 0's address in " +
                                  options.netns.front());
    }
  } else if (options.ranks < 1) {
    throw std::invalid_argument("launch needs -n N (N >= 1) or --netns NS1,NS2,...");
  }
}

std::string deploy_binary_beside(const std::string& argv0) {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::filesystem::path dir = error ? std::filesystem::path(argv0).parent_path() : self.parent_path();
  const std::filesystem::path beside = dir / "uniference-deploy";
  if (std::filesystem::exists(beside, error)) return beside.string();
  return "uniference-deploy";
}

int launch(const LaunchOptions& options) {
  check_launch(options);
  const int world = options.netns.empty() ? options.ranks : int(options.netns.size());
  const std::string addr = options.master_addr.empty() ? "127.0.0.1" : options.master_addr;
  // A rendezvous on this host gets a port that stays reserved until the ranks are done, so
  // nothing else takes it between its choice and rank 0's store listening on it.
  std::optional<ReservedPort> reserved;
  if (options.master_port == 0 && options.netns.empty()) reserved.emplace();
  const int port = options.master_port != 0 ? options.master_port : reserved ? reserved->port() : 29500;
  std::vector<Child> children;
  for (int r = 0; r < world; ++r) children.push_back(start_rank(options, r, world, addr, port));

  const std::chrono::milliseconds grace = options.rank_timeout + std::chrono::seconds(15);
  int first_failure = 0;
  std::chrono::steady_clock::time_point give_up = std::chrono::steady_clock::time_point::max();
  for (size_t running = children.size(); running > 0;) {
    std::vector<pollfd> fds;
    std::vector<std::pair<Child*, bool>> owners;  // child, is stdout
    for (Child& c : children) {
      if (c.out >= 0) fds.push_back({c.out, POLLIN, 0}), owners.push_back({&c, true});
      if (c.err >= 0) fds.push_back({c.err, POLLIN, 0}), owners.push_back({&c, false});
    }
    if (!fds.empty()) poll(fds.data(), fds.size(), 100);
    else usleep(100000);
    for (size_t i = 0; i < fds.size(); ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      auto [child, is_out] = owners[i];
      char chunk[4096];
      const ssize_t got = read(fds[i].fd, chunk, sizeof chunk);
      const std::string prefix = "[rank " + std::to_string(child->rank) + "] ";
      std::string& partial = is_out ? child->out_partial : child->err_partial;
      if (got > 0) {
        relay(prefix, partial, chunk, size_t(got), is_out ? std::cout : std::cerr);
        continue;
      }
      if (!partial.empty()) relay(prefix, partial, "\n", 1, is_out ? std::cout : std::cerr);
      close(fds[i].fd);
      (is_out ? child->out : child->err) = -1;
    }
    for (Child& c : children) {
      if (c.done || c.out >= 0 || c.err >= 0) continue;  // reap once its output is drained
      int status = 0;
      if (waitpid(c.pid, &status, 0) != c.pid) continue;
      c.done = true;
      --running;
      const std::string how = describe_status(status, c.exit_code);
      if (c.exit_code != 0) {
        std::cerr << "uniference launch: rank " << c.rank << " " << how << "\n";
        if (first_failure == 0) {
          first_failure = c.exit_code;
          give_up = std::chrono::steady_clock::now() + grace;
        }
      }
    }
    if (std::chrono::steady_clock::now() > give_up) {
      for (Child& c : children) {
        if (c.done) continue;
        std::cerr << "uniference launch: rank " << c.rank << " still running "
                  << grace.count() / 1000.0 << " s after a rank failed; stopping it\n";
        kill(c.pid, SIGKILL);
      }
      give_up = std::chrono::steady_clock::time_point::max();
    }
  }
  return first_failure;
}

}  // namespace uniference

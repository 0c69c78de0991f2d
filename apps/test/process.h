// Running the project's binaries from a test: a child process with its own environment,
// its output in files, waited for with a deadline (after which it is killed, so a test that
// would hang fails instead).
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace uniference {

class Process {
 public:
  // Starts argv[0] with `env` added to this process's environment; stdout and stderr go to
  // out_file and err_file.
  Process(std::vector<std::string> argv, std::vector<std::pair<std::string, std::string>> env,
          std::string out_file, std::string err_file)
      : out_file_(std::move(out_file)), err_file_(std::move(err_file)) {
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      if (!freopen(out_file_.c_str(), "w", stdout) || !freopen(err_file_.c_str(), "w", stderr)) _exit(126);
      for (const auto& [name, value] : env) setenv(name.c_str(), value.c_str(), 1);
      std::vector<char*> args;
      for (std::string& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      execvp(args[0], args.data());
      _exit(127);
    }
  }
  ~Process() {
    if (!reaped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  pid_t pid() const { return pid_; }

  // The exit code, or -1 if it had not exited by the deadline (it is then killed), or
  // 128 + signal if a signal ended it.
  int wait(std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!reaped_) {
      int status = 0;
      const pid_t done = waitpid(pid_, &status, WNOHANG);
      if (done == pid_) {
        reaped_ = true;
        code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        break;
      }
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
        reaped_ = true;
        code_ = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return code_;
  }

  std::string out() const { return read(out_file_); }
  std::string err() const { return read(err_file_); }

  // Waits until stderr contains `text`; false if it did not by the deadline.
  bool err_contains_within(const std::string& text, std::chrono::milliseconds limit) const {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      if (err().find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

 private:
  static std::string read(const std::string& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::string out_file_, err_file_;
  pid_t pid_ = -1;
  bool reaped_ = false;
  int code_ = -1;
};

}  // namespace uniference

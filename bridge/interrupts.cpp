#include "bridge/interrupts.h"

#include <ns3/simulator.h>

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <mutex>
#include <thread>

namespace uniference {

namespace {

int g_pipe[2] = {-1, -1};
std::atomic<int> g_signal{0};
std::mutex g_mutex;                           // guards g_stop
std::function<void(int)>* g_stop = nullptr;   // the running scope's, or null

void on_signal(int signal) {
  const unsigned char byte = static_cast<unsigned char>(signal);
  const int saved = errno;
  [[maybe_unused]] const ssize_t n = ::write(g_pipe[1], &byte, 1);
  errno = saved;
}

// Runs on the simulation's thread, as an event.
void stop_event(int signal) {
  std::function<void(int)> stop;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_stop == nullptr) return;
    stop = *g_stop;
  }
  stop(signal);
}

void watch() {
  for (;;) {
    unsigned char byte = 0;
    const ssize_t n = ::read(g_pipe[0], &byte, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    int expected = 0;
    g_signal.compare_exchange_strong(expected, int(byte));  // the first one names the stop
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_stop != nullptr) {
      ns3::Simulator::ScheduleWithContext(ns3::Simulator::NO_CONTEXT, ns3::Time(0), &stop_event, int(byte));
    }
  }
}

}  // namespace

void watch_interrupts() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (::pipe2(g_pipe, O_CLOEXEC) != 0) return;  // then the signals keep their default action
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    std::thread(watch).detach();
  });
}

int interrupt_signal() { return g_signal.load(); }

InterruptScope::InterruptScope(std::function<void(int)> stop) {
  std::lock_guard<std::mutex> lock(g_mutex);
  early_ = g_signal.load();
  if (early_ == 0) g_stop = new std::function<void(int)>(std::move(stop));
}

InterruptScope::~InterruptScope() {
  std::lock_guard<std::mutex> lock(g_mutex);
  delete g_stop;
  g_stop = nullptr;
}

}  // namespace uniference

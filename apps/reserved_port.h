// A TCP port on loopback that stays reserved for as long as this object lives, for a
// rendezvous store that another process will serve on it.
//
// Finding a free port by binding, closing and handing the number on leaves a window in which
// anything else on the host (another test's connections take ephemeral ports all the time)
// can take it. Here the socket stays bound, not listening, with SO_REUSEADDR: on Linux the
// kernel then gives the port to no bind(0) and no connect(), and refuses any bind without
// SO_REUSEADDR, while a socket that sets SO_REUSEADDR itself may still bind it and listen,
// as c10d's TCPStore does for its listening socket. The descriptor is close-on-exec, so the
// ranks a launcher starts do not inherit it.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace uniference {

class ReservedPort {
 public:
  ReservedPort() {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int on = 1;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (fd_ < 0 || setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0 ||
        bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
      const std::string why = std::strerror(errno);
      if (fd_ >= 0) close(fd_);
      throw std::runtime_error("cannot reserve a TCP port on loopback: " + why);
    }
    port_ = ntohs(address.sin_port);
  }
  ~ReservedPort() { close(fd_); }
  ReservedPort(const ReservedPort&) = delete;
  ReservedPort& operator=(const ReservedPort&) = delete;

  int port() const { return port_; }
  std::string text() const { return std::to_string(port_); }

 private:
  int fd_ = -1;
  int port_ = 0;
};

}  // namespace uniference

// rs_loopback_listen / rs_loopback_admit (robostream.h): a loopback listener whose classic BPF
// filter admits only chosen source ports of 127.0.0.1. For a TCP socket the kernel runs the filter
// on every packet before the socket sees it, the SYN of a connection attempt included, with the
// packet's data starting at the TCP header; connections accepted from it inherit the filter.
#include <arpa/inet.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "capi_support.hpp"
#include "core/errors.hpp"

namespace {

constexpr uint32_t kLoopback = 0x7f000001;  // 127.0.0.1

// Accept a packet from 127.0.0.1 whose TCP source port is one of ports; drop every other. Two
// instructions a port ("equal? then accept"): a conditional jump reaches at most 255 ahead, so
// the way to the drop for another address is one unconditional jump.
std::vector<sock_filter> admit_program(const uint16_t* ports, int count) {
  std::vector<sock_filter> p;
  if (count == 0) {
    p.push_back(BPF_STMT(BPF_RET | BPF_K, 0));
    return p;
  }
  p.reserve(static_cast<size_t>(5 + 2 * count));
  // The IPv4 source address, 12 bytes into the network header.
  p.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, static_cast<uint32_t>(SKF_NET_OFF + 12)));
  p.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kLoopback, 1, 0));
  p.push_back(BPF_STMT(BPF_JMP | BPF_JA, static_cast<uint32_t>(1 + 2 * count)));  // to the drop
  p.push_back(BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 0));  // the TCP source port
  for (int i = 0; i < count; i++) {
    p.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ports[i], 0, 1));
    p.push_back(BPF_STMT(BPF_RET | BPF_K, 0xffffffffu));
  }
  p.push_back(BPF_STMT(BPF_RET | BPF_K, 0));
  return p;
}

void attach(int fd, const uint16_t* ports, int count) {
  std::vector<sock_filter> program = admit_program(ports, count);
  sock_fprog fprog{};
  fprog.len = static_cast<unsigned short>(program.size());
  fprog.filter = program.data();
  if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &fprog, sizeof fprog) != 0) {
    throw rs::Unsupported(std::string("cannot filter the loopback listener: ") +
                          std::strerror(errno));
  }
}

}  // namespace

extern "C" {

int rs_loopback_listen(int32_t* fd_out, int32_t* port_out) {
  return rs::guarded([&] {
    rs::capi::require_out(fd_out);
    rs::capi::require_out(port_out);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw rs::Unsupported(std::string("socket: ") + std::strerror(errno));
    try {
      attach(fd, nullptr, 0);  // before it listens: nobody gets in meanwhile
      sockaddr_in address{};
      address.sin_family = AF_INET;
      address.sin_addr.s_addr = htonl(kLoopback);
      address.sin_port = 0;
      if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
          listen(fd, 4096) != 0) {
        throw rs::Unsupported(std::string("cannot listen at 127.0.0.1: ") + std::strerror(errno));
      }
      socklen_t length = sizeof address;
      if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        throw rs::Unsupported(std::string("getsockname: ") + std::strerror(errno));
      }
      *fd_out = fd;
      *port_out = ntohs(address.sin_port);
    } catch (...) {
      close(fd);
      throw;
    }
  });
}

int rs_loopback_admit(int32_t fd, const uint16_t* ports, int32_t count) {
  return rs::guarded([&] {
    if (count < 0 || count > RS_LOOPBACK_MAX_PORTS) {
      throw rs::InvalidArgument("admitted ports: " + std::to_string(count) + " is outside 0.." +
                                std::to_string(RS_LOOPBACK_MAX_PORTS));
    }
    if (count > 0 && ports == nullptr) throw rs::InvalidArgument("null ports");
    attach(fd, ports, count);
  });
}

void rs_loopback_close(int32_t fd) {
  if (fd >= 0) close(fd);
}

}  // extern "C"

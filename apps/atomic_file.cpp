#include "apps/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace uniference {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int error) {
  throw OutputError("cannot write " + path + ": " + what + ": " + std::strerror(error));
}

// A name no other writer uses: the process id separates concurrent runs sharing an output
// folder, the counter separates writes within this process. Hidden, so globs over the
// folder do not pick it up while it exists.
std::string temporary_name_for(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  std::filesystem::path target(path);
  std::string name = "." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                     std::to_string(counter++);
  return (target.parent_path() / name).string();
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view contents) {
  if (path.empty() || std::filesystem::path(path).filename().empty()) {
    throw OutputError("cannot write \"" + path + "\": not a file name");
  }
  std::string temporary;
  int fd = -1;
  for (int attempt = 0; fd < 0; ++attempt) {
    temporary = temporary_name_for(path);
    // O_EXCL: never write into a file someone else owns. Mode 0666 so the umask, not this
    // code, decides who may read the results, as for any file the user's tools create.
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && (errno != EEXIST || attempt >= 100)) fail(path, "cannot create", errno);
  }

  const char* data = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    ssize_t written = ::write(fd, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      int error = errno;
      ::close(fd);
      ::unlink(temporary.c_str());
      fail(path, "write failed", error);
    }
    data += written;
    left -= size_t(written);
  }
  // close() can report a deferred write error (NFS, quota): the file would be incomplete.
  if (::close(fd) != 0) {
    int error = errno;
    ::unlink(temporary.c_str());
    fail(path, "write failed", error);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    int error = errno;
    ::unlink(temporary.c_str());
    fail(path, "cannot replace", error);
  }
}

}  // namespace uniference

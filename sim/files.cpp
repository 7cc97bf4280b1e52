#include "sim/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace cohsim {

std::string same_file(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path), ec);
    return ec ? path : p.string();
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

atomic_file::atomic_file(const std::string& path) : m_path(path) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    m_tmp = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
    m_fd = mkstemp(m_tmp.data());
    if (m_fd < 0) fail("cannot create a temporary file in " + dir.string());
}

atomic_file::~atomic_file() {
    if (m_fd >= 0) {
        ::close(m_fd);
        ::unlink(m_tmp.c_str());
    }
}

void atomic_file::fail(const std::string& what) {
    const std::string reason = std::strerror(errno);
    if (m_fd >= 0) {
        ::close(m_fd);
        ::unlink(m_tmp.c_str());
        m_fd = -1;
    }
    throw std::runtime_error(m_path + ": cannot write: " + what + ": " + reason);
}

void atomic_file::write(const std::string& bytes) {
    std::size_t off = 0;
    while (off < bytes.size()) {
        const ssize_t n = ::write(m_fd, bytes.data() + off, bytes.size() - off);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("write failed");
        }
        off += static_cast<std::size_t>(n);
    }
}

void atomic_file::commit() {
    fchmod(m_fd, 0644);
    if (::fsync(m_fd) != 0) fail("flush failed");
    const int fd = std::exchange(m_fd, -1);
    if (::close(fd) != 0) {
        ::unlink(m_tmp.c_str());
        throw std::runtime_error(m_path + ": cannot write: flush failed: " + std::strerror(errno));
    }
    if (std::rename(m_tmp.c_str(), m_path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(m_tmp.c_str());
        throw std::runtime_error(m_path + ": cannot write: rename failed: " + reason);
    }
}

void write_file_atomic(const std::string& path, const std::string& content) {
    atomic_file f(path);
    f.write(content);
    f.commit();
}

}  // namespace cohsim

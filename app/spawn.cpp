#include "app/spawn.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <stdexcept>

extern char** environ;

namespace cohsim {

std::string self_binary() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

unsigned host_cores() {
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<unsigned>(n) : 1u;
}

namespace {
pid_t start(const child_job& j, const std::string& self_path) {
    const std::string& self = j.program.empty() ? self_path : j.program;
    std::vector<std::string> args = {self};
    args.insert(args.end(), j.args.begin(), j.args.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, j.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    // The child's environment, plus who its parent is (it dies with it).
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e)
        if (std::string(*e).rfind("COHSIM_DIE_WITH_PARENT=", 0) != 0) env.emplace_back(*e);
    env.push_back("COHSIM_DIE_WITH_PARENT=" + std::to_string(getpid()));
    std::vector<char*> envp;
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, self.c_str(), &fa, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) throw std::runtime_error("cannot start " + self + ": " + std::strerror(rc));
    return pid;
}
}  // namespace

namespace {
volatile std::sig_atomic_t g_interrupted = 0;
void on_interrupt(int) { g_interrupted = 1; }

// SIGINT and SIGTERM set g_interrupted while it lives (no SA_RESTART: a
// wait is interrupted); the previous handlers come back after.
struct interrupt_guard {
    struct sigaction old_int {}, old_term {};
    interrupt_guard() {
        g_interrupted = 0;
        struct sigaction sa {};
        sa.sa_handler = on_interrupt;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &old_int);
        sigaction(SIGTERM, &sa, &old_term);
    }
    ~interrupt_guard() {
        sigaction(SIGINT, &old_int, nullptr);
        sigaction(SIGTERM, &old_term, nullptr);
    }
};
}  // namespace

void run_children(std::vector<child_job>& jobs, unsigned parallel, const std::function<void(std::size_t)>& done) {
    const std::string self = self_binary();
    std::map<pid_t, std::size_t> running;
    std::map<std::size_t, std::chrono::steady_clock::time_point> started;
    std::size_t next = 0, finished = 0;
    interrupt_guard guard;
    bool stopping = false;
    while (finished < jobs.size()) {
        if (g_interrupted && !stopping) {
            stopping = true;
            for (const auto& [pid, index] : running) kill(pid, SIGTERM);
        }
        if (stopping && running.empty()) break;
        while (!stopping && running.size() < std::max(1u, parallel) && next < jobs.size()) {
            running[start(jobs[next], self)] = next;
            started[next] = std::chrono::steady_clock::now();
            ++next;
        }
        int status = 0;
        rusage ru{};
        const pid_t pid = wait4(-1, &status, 0, &ru);
        if (pid < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error("waitpid failed: " + std::string(std::strerror(errno)));
        }
        auto it = running.find(pid);
        if (it == running.end()) continue;
        child_job& j = jobs[it->second];
        j.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        j.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started[it->second]).count();
        j.peak_rss_kib = static_cast<std::uint64_t>(ru.ru_maxrss);
        const std::size_t index = it->second;
        running.erase(it);
        ++finished;
        if (!stopping || j.status == 0) done(index);  // a run that finished before the stop counts
    }
    if (stopping)
        throw children_interrupted("interrupted (SIGINT or SIGTERM)");
}

}  // namespace cohsim

// What every end-to-end test shares: the Cli fixture runs the real `cohsim`
// binary in a folder of its own (run, spawn, write, read_json, simulated,
// expect_bad) and a few helpers. The tests: one file per command beside this
// one (run_test.cpp, sweep_test.cpp, ...), built as one program.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <yaml-cpp/yaml.h>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using json = nlohmann::json;

struct result {
    int status = -1;  // exit status, or 128+signal
    std::string out, err;
};

// The starved little thread of the phone's lock runs (the default and the
// starvation case) started once the big core's loop runs: at a simultaneous
// start it may take the first ticket once, started later it never gets in.
const char* const little_starts_late = "workload.threads.0.start=2000cycles";

// Under the sanitizers the tests check memory safety and undefined behaviour
// on every code path; a few long fidelity comparisons (many runs of the same
// paths) run their full length in the release tree only.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif

// The C workloads the cross-compiler built (empty without one: their tests skip).
#ifndef COHSIM_C_WORKLOADS
#define COHSIM_C_WORKLOADS ""
#endif
inline std::string c_elf(const std::string& name) { return std::string(COHSIM_C_WORKLOADS) + "/" + name + ".elf"; }

inline std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

class Cli : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("cohsim_e2e_" + std::to_string(::getpid()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    // cases.yaml for `cohsim calibrate`: one case `id` of case.yaml (a lock
    // between c.0 and c.1) whose "measurement" is the simulator's own run of
    // it, the acquisitions scaled to a 20 s run (the truth a calibration
    // should recover), judged by `check`.
    void write_cases_from_truth(const std::string& id, const std::string& check) {
        const result r = run({"run", "case.yaml", "-q", "--out", "truth", "--json", "truth.json"});
        ASSERT_EQ(r.status, 0) << r.err;
        const json truth = read_json("truth.json");
        double a0 = 0, a1 = 0;
        for (const auto& c : truth["cores"])
            if (c.contains("lock")) (c["id"] == "c.0" ? a0 : a1) = c["lock"]["acquisitions"].get<double>();
        ASSERT_GT(a0, 100);
        ASSERT_GT(a1, 100);
        const double scale = 20.0 / (truth["simulated_ns"].get<double>() * 1e-9);
        write("cases.yaml", "cases:\n  - id: " + id + "\n    config: case.yaml\n    quick: 1ms\n    little: c.0\n    big: c.1\n"
                            "    runs:\n      - [" + std::to_string(a0 * scale) + ", " + std::to_string(a1 * scale) + ", 100]\n"
                            "    checks:\n      - " + check + "\n");
    }

    // plat.yaml with one cluster (`cluster`: its YAML) and a two-core ticket
    // lock case on it whose one check (the big core's rate within x10) every
    // plausible draw passes: what calibrate keeps is then up to the references.
    void write_loose_lock_case(const std::string& cluster) {
        write("plat.yaml", "clusters:\n  " + cluster + "\ntimer: {freq: 1.92MHz, evnti: 8}\ninterconnect: {freq: 533MHz}\n");
        write("case.yaml",
              "include: plat.yaml\nrun: {duration: 1ms, seed: 1}\n"
              "workload:\n  program: locks/ticket_llsc.s\n  params: {INSIDE: 200, OUTSIDE: 300}\n"
              "  threads: [{core: c.0}, {core: c.1}]\n");
        write_cases_from_truth("loose", "{kind: big_rate, factor: 10}");
    }

    pid_t spawn(const std::string& bin, const std::vector<std::string>& args) {
        const pid_t pid = fork();
        if (pid == 0) {
            std::vector<char*> argv;
            argv.push_back(const_cast<char*>(bin.c_str()));
            for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            if (!freopen((m_dir / "stdout").c_str(), "w", stdout) || !freopen((m_dir / "stderr").c_str(), "w", stderr))
                _exit(99);
            if (!m_stdin.empty() && !freopen(m_stdin.c_str(), "r", stdin)) _exit(96);
            if (chdir(m_dir.c_str()) != 0) _exit(98);
            execv(bin.c_str(), argv.data());
            _exit(97);
        }
        return pid;
    }
    result wait_for(pid_t pid) {
        int st = 0;
        waitpid(pid, &st, 0);
        result r;
        r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        r.out = slurp(m_dir / "stdout");
        r.err = slurp(m_dir / "stderr");
        return r;
    }
    result run(const std::vector<std::string>& args) { return wait_for(spawn(COHSIM_BINARY, args)); }

    std::string write(const std::string& name, const std::string& text) {
        std::ofstream(m_dir / name) << text;
        return (m_dir / name).string();
    }
    json read_json(const std::string& rel) { return json::parse(slurp(m_dir / rel)); }

    // `cohsim ARGS --out DIR`'s result.json, less what differs between two
    // runs of one simulation (host time, events, the command and config).
    json simulated(std::vector<std::string> args, const std::string& dir) {
        args.insert(args.end(), {"-q", "--out", dir});
        const auto r = run(args);
        EXPECT_EQ(r.status, 0) << r.err;
        json j = read_json(dir + "/result.json");
        for (const char* k : {"host_seconds", "sim_events", "config", "seed", "command_line"}) j.erase(k);
        return j;
    }

    // A bad input: exit 2, one line on stderr containing `part`, no crash.
    void expect_bad(const std::vector<std::string>& args, const std::string& part) {
        const auto r = run(args);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_NE(r.err.find(part), std::string::npos) << "stderr: " << r.err << "\nexpected: " << part;
        EXPECT_EQ(r.err.find("terminate"), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        EXPECT_FALSE(fs::exists(m_dir / "cohsim-out" / "result.json"));
    }

    fs::path m_dir;
    std::string m_stdin;  // when set, the child's standard input
};

const char* const good = R"(clusters:
  little: {freq: 832MHz, cores: 1, core: cortex-a53}
  big: {freq: 1.8GHz, cores: 1, core: cortex-a73}
timer: {freq: 1.92MHz, evnti: 8}
interconnect: {freq: 533MHz}
run: {duration: 1ms}
)";

// A four-point sweep (two clocks by two ways of waiting) of the default scenario.
inline const std::vector<std::string> small_sweep = {"sweep", "--vary", "clusters.little.freq=832MHz,1248MHz", "--vary",
                                              "workload.threads.1.cpu_relax=yield,wfe_backoff", "--set",
                                              "run.duration=2ms"};

// `a` followed by `more`: a command line and some options.
inline std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& more) {
    a.insert(a.end(), more.begin(), more.end());
    return a;
}

// Scenario composition: which program each core runs, with what parameters.
//
//   workload:
//     program: locks/ticket_llsc.s     # next to the config, else the built-in library
//     params: {THRESHOLD: 10000}       # .equ overrides for every thread
//     threads:
//       - {core: little.2}
//       - {core: big.3, cpu_relax: wfe_backoff, inside: 20cycles, params: {COUNT: 1}}
//
// `cpu_relax`, `inside`, `outside`, `iterations` and `start` set the library
// harness's RELAX, INSIDE, OUTSIDE, ITERATIONS and START (workloads/locks/loop.s);
// `params` sets any .equ by name. Threads that share data should run the same
// program: every thread's .shared data is laid out from the same base.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/core.h"
#include "sim/schema.h"
#include "workloads/interpreter.h"
#include "workloads/program.h"
#include "workloads/trace.h"

namespace cohsim {

// cpu_relax() after each unlock (workloads/locks/loop.s): yield; the 2017
// WFE back-off with its count in a register; or the same patch as written,
// its count in a per-CPU word updated with an exclusive pair on every call.
enum class relax_kind { yield, wfe_backoff, wfe_backoff_percpu };
template <>
struct cfg::enum_names<relax_kind> {
    static const std::vector<std::pair<relax_kind, const char*>>& list();
};

struct thread_params {
    std::string core;
    std::optional<std::string> program;  // overrides workload.program
    std::optional<std::string> function;  // machine code: overrides workload.function
    relax_kind cpu_relax = relax_kind::yield;
    // Unset: the program's own value (or workload.params'); 0cycles is a value.
    std::optional<cycles> inside, outside, start;
    std::uint64_t iterations = 0;  // 0 = forever
    std::map<std::string, std::int64_t> params;
    static void describe(cfg::struct_schema<thread_params>& s);
};

struct workload_params {
    std::string program;
    std::optional<std::string> function;  // machine code (an ELF program): the function each thread runs
    std::optional<std::string> trace;  // replay this trace instead of running programs
    std::map<std::string, std::int64_t> params;
    std::vector<thread_params> threads;
    std::string include_path;  // folders searched for programs and includes, ':'-separated
    static void describe(cfg::struct_schema<workload_params>& s);
};

// The folders searched for programs and `.include`s after the config's (or
// including file's) folder and the built-in library (asmx::find_source):
// workload.include_path's entries, relative ones from `config_dir`, then
// those of $COHSIM_INCLUDE_PATH (which `--include-path` extends).
std::vector<std::string> include_search(const workload_params& w, const std::string& config_dir);

// A copy of `w` whose program and trace files that exist next to the config
// (relative to `config_dir`) are absolute paths, and whose include_path holds
// every folder of include_search() as an absolute path, so the effective
// config written beside the results runs again from anywhere; library
// programs stay as they are.
workload_params with_files_resolved(const workload_params& w, const std::string& config_dir);

// Where the data lives: .shared at shared_base, core N's .private at
// private_base + N * private_stride.
constexpr std::uint64_t shared_base = 0x10000000;
constexpr std::uint64_t private_base = 0x20000000;
constexpr std::uint64_t private_stride = 0x10000;
// Machine code (ELF programs): core N's stack is the 64 KiB below
// stack_base + (N + 1) * stack_size; its arguments (struct cohsim_args,
// workloads/include/cohsim.h) sit at the start of its .private area.
constexpr std::uint64_t stack_base = 0x30000000;
constexpr std::uint64_t stack_size = 0x10000;

// One core's running thread.
class workload_thread {
public:
    // Runs `p` from instruction `entry`. Threads may share one program (an
    // ELF file's functions). `args`: machine code only, the address of the
    // thread's struct cohsim_args (its x0).
    workload_thread(core& c, std::shared_ptr<const asmx::program> p, std::size_t entry, mutex_checker& mutex,
                    std::uint64_t args = 0);
    workload_thread(core& c, std::vector<trace_op> ops, mutex_checker& mutex);  // trace replay
    const std::string& core_id() const { return m_core_id; }
    const lock_metrics& metrics() const { return m_metrics; }
    const region_profile& profile() const { return m_profile; }
    const asmx::program& program() const { return *m_program; }
    // Its program (or trace) marks lock acquisitions: it contends for a lock.
    bool takes_locks() const;
    // Who watches: the timeline (lock waits, critical sections).
    void observe(const observers& o) { m_metrics.observe(o.trace); }

private:
    std::string m_core_id;
    std::shared_ptr<const asmx::program> m_program;
    lock_metrics m_metrics;
    region_profile m_profile;
    std::unique_ptr<interpreter> m_interp;
    std::vector<trace_op> m_trace;
};

// Assembles each thread's program (resolving files against `config_dir`,
// then the library) and lays out and initialises its data in `mem`.
// Assembler errors are cfg::config_error.
std::vector<std::unique_ptr<workload_thread>> build_workload(const workload_params& w, const std::string& config_dir,
                                                             const std::vector<core*>& cores, memory_system& mem,
                                                             mutex_checker& mutex);

}  // namespace cohsim

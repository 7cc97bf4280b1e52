#include "workloads/scenario.h"

#include "workloads/elf.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace cohsim {

const std::vector<std::pair<relax_kind, const char*>>& cfg::enum_names<relax_kind>::list() {
    static const std::vector<std::pair<relax_kind, const char*>> l = {{relax_kind::yield, "yield"},
                                                                       {relax_kind::wfe_backoff, "wfe_backoff"},
                                                                       {relax_kind::wfe_backoff_percpu, "wfe_backoff_percpu"}};
    return l;
}

void thread_params::describe(cfg::struct_schema<thread_params>& s) {
    s.param("core", &thread_params::core, "the core that runs this thread, CLUSTER.INDEX (e.g. little.2)");
    s.param("program", &thread_params::program, "this thread's program, instead of workload.program")
        .def(std::nullopt);
    s.param("function", &thread_params::function, "an ELF program's function this thread runs, instead of workload.function")
        .def(std::nullopt);
    s.param("cpu_relax", &thread_params::cpu_relax,
            "cpu_relax() after each unlock: yield (a NOP), wfe_backoff (sleep in WFE every THRESHOLD calls, the count "
            "in a register; sets RELAX) or wfe_backoff_percpu (the same patch as written: the count in a per-CPU word "
            "updated with an exclusive pair on every call; sets RELAX and RELAX_WORD; lock-library programs only)")
        .def(relax_kind::yield);
    s.param("inside", &thread_params::inside,
            "work inside the critical section (sets INSIDE; unset: workload.params' or the program's own)")
        .def(std::nullopt)
        .range(cycles{0}, cycles{asmx::max_work_cycles});
    s.param("outside", &thread_params::outside, "work after cpu_relax (sets OUTSIDE; unset: as inside)").def(std::nullopt)
        .range(cycles{0}, cycles{asmx::max_work_cycles});
    s.param("start", &thread_params::start, "work before the first iteration (sets START; unset: as inside)")
        .def(std::nullopt)
        .range(cycles{0}, cycles{asmx::max_work_cycles});
    s.param("iterations", &thread_params::iterations, "lock/unlock iterations, 0 = forever (sets ITERATIONS)")
        .def(0u);
    s.int_map("params", &thread_params::params, "more .equ overrides for this thread's program");
}

void workload_params::describe(cfg::struct_schema<workload_params>& s) {
    // The built-in library's programs, as its files are compiled in (the text outlives the schema).
    static const std::string help = [] {
        std::string locks;
        for (const auto& [name, text] : asmx::library())
            if (name.rfind("locks/", 0) == 0 && name.size() > 2 && name.compare(name.size() - 2, 2, ".s") == 0)
                locks += (locks.empty() ? "" : ", ") + name.substr(6);
        return "the program every thread runs: an assembly file (relative to the config file), one of the built-in library "
               "(workloads/locks/: " + locks + "), or an AArch64 ELF executable (with workload.function)";
    }();
    s.param("program", &workload_params::program, help.c_str()).def("locks/ticket_llsc.s");
    s.param("function", &workload_params::function,
            "when the program is an AArch64 ELF executable (docs/guide/c.md): the function every thread runs, "
            "void f(const struct cohsim_args *) (workloads/include/cohsim.h)")
        .def(std::nullopt);
    s.int_map("params", &workload_params::params, ".equ overrides for every thread, e.g. {THRESHOLD: 10000}");
    s.param("trace", &workload_params::trace,
            "replay this trace file (format: docs/guide/locks.md, Trace replay) on the cores it names, instead of threads")
        .def(std::nullopt);
    s.sequence("threads", &workload_params::threads, 0, "the cores that run a program; none = all cores idle");
    s.param("include_path", &workload_params::include_path,
            "more folders where programs and .include files are found, ':'-separated, relative to the config file; "
            "searched after the including file's folder and the built-in library, before --include-path")
        .def(std::string());
}

workload_thread::workload_thread(core& c, std::shared_ptr<const asmx::program> p, std::size_t entry,
                                 mutex_checker& mutex, std::uint64_t args)
    : m_core_id(c.id()), m_program(std::move(p)), m_metrics(c.id()), m_profile(c.id()) {
    m_interp = std::make_unique<interpreter>(c, *m_program, shared_base, private_base + c.agent() * private_stride,
                                             &m_metrics, &mutex, &m_profile);
    m_interp->set_entry(entry);
    if (m_program->machine_code) {
        const std::uint64_t bottom = stack_base + c.agent() * stack_size;
        m_interp->set_stack(bottom, bottom + stack_size);
        m_interp->set_argument(args);
    }
    c.set_program([this](core&) { m_interp->run(); });
}

workload_thread::workload_thread(core& c, std::vector<trace_op> ops, mutex_checker& mutex)
    : m_core_id(c.id()), m_program(std::make_shared<const asmx::program>()), m_metrics(c.id()), m_profile(c.id()),
      m_trace(std::move(ops)) {
    c.set_program([this, &mutex](core& self) { replay(self, m_trace, &m_metrics, &mutex); });
}

std::vector<std::string> include_search(const workload_params& w, const std::string& config_dir) {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    auto add = [&](const std::string& list, const fs::path& base) {
        std::stringstream ss(list);
        for (std::string d; std::getline(ss, d, ':');)
            if (!d.empty()) {
                const std::string abs = fs::absolute(base / d).lexically_normal().string();
                if (std::find(out.begin(), out.end(), abs) == out.end()) out.push_back(abs);
            }
    };
    add(w.include_path, config_dir.empty() ? fs::path(".") : fs::path(config_dir));
    if (const char* env = std::getenv("COHSIM_INCLUDE_PATH")) add(env, fs::current_path());
    return out;
}

workload_params with_files_resolved(const workload_params& w, const std::string& config_dir) {
    namespace fs = std::filesystem;
    const std::vector<std::string> search = include_search(w, config_dir);
    auto local = [&](const std::string& name) {
        if (name.empty()) return name;
        const auto found = asmx::find_source(name, config_dir, search);
        return found && found->rfind("lib:", 0) != 0 ? fs::absolute(*found).lexically_normal().string() : name;
    };
    workload_params out = w;
    out.program = local(w.program);
    if (out.trace) out.trace = local(*out.trace);
    for (auto& t : out.threads)
        if (t.program) t.program = local(*t.program);
    out.include_path.clear();
    for (const auto& d : search) out.include_path += (out.include_path.empty() ? "" : ":") + d;
    return out;
}

bool workload_thread::takes_locks() const {
    for (const auto& i : m_program->code)
        if (i.o == asmx::op::mark && i.mark == asmx::mark_kind::lock_acquired) return true;
    for (const auto& op : m_trace)
        if (op.kind == trace_op::mark && op.which == asmx::mark_kind::lock_acquired) return true;
    return false;
}

namespace {

// A program named by the scenario: found as find_source() says, else a
// config error naming the key and the places looked at.
std::string resolve(const std::string& name, const std::string& config_dir, const std::vector<std::string>& search,
                    const std::string& key) {
    if (const auto found = asmx::find_source(name, config_dir, search)) return *found;
    std::string builtin;
    for (const auto& [file, text] : asmx::library())
        if (file.size() > 2 && file.compare(file.size() - 2, 2, ".s") == 0) builtin += (builtin.empty() ? "" : ", ") + file;
    throw cfg::config_error({name, 0, 0}, key, "no such program: " + asmx::not_found_text(name, config_dir, search),
                            "an assembly file (.s) or an AArch64 ELF executable in one of those places, or a built-in "
                            "program: " + builtin);
}

void load_data(memory_system& mem, std::uint64_t base, const std::vector<std::uint8_t>& data) {
    for (std::size_t i = 0; i < data.size(); ++i)
        if (data[i]) mem.poke(base + i, 1, data[i]);
}

// A thread running a function of an ELF program: the program's segments
// written into memory once, the thread's arguments into its .private area.
std::unique_ptr<workload_thread> elf_thread(const workload_params& w, const thread_params& t, std::size_t index,
                                            const std::string& file, const std::map<std::string, std::int64_t>& params,
                                            core& c, memory_system& mem, mutex_checker& mutex,
                                            std::shared_ptr<const asmx::program>& image, bool all_lse) {
    const std::string key = "workload.threads[" + std::to_string(index) + "]";
    // The thread's arguments: the loop harness's parameters (workloads/locks/loop.s),
    // from workload.params, the thread's params and its inside/outside/... keys.
    static const std::pair<const char*, std::int64_t> names[] = {
        {"ITERATIONS", 0}, {"INSIDE", 0}, {"OUTSIDE", 0}, {"START", 0}, {"RELAX", 0},
        {"INSIDE_JITTER", 0}, {"OUTSIDE_JITTER", 0}, {"THRESHOLD", 10000}, {"COUNT", 0}};
    std::string known;
    for (const auto& [n, d] : names) known += (known.empty() ? "" : ", ") + std::string(n);
    for (const auto& kv : params) {
        const std::string& k = kv.first;
        const std::int64_t v = kv.second;
        if (std::none_of(std::begin(names), std::end(names), [&](const auto& n) { return k == n.first; }))
            throw cfg::config_error({file, 0, 0}, w.params.count(k) ? "workload.params." + k : key + ".params." + k,
                                    "an ELF program's threads take no parameter " + k,
                                    "one of its arguments (struct cohsim_args, workloads/include/cohsim.h): " + known);
        if (v < 0) throw cfg::config_error({file, 0, 0}, "workload.params." + k, "a negative " + k, "a value >= 0");
    }
    const std::optional<std::string> function = t.function ? t.function : w.function;
    if (!function)
        throw cfg::config_error({file, 0, 0}, key, "an ELF program, but no function for this thread to run",
                                "workload.function (every thread) or " + key + ".function");
    if (image && image->file != file)
        throw cfg::config_error({file, 0, 0}, key + ".program", "a second ELF program in one workload (the first: " + image->file + ")",
                                "one ELF file whose functions the threads run (their code and data share one address space)");
    if (!image) {  // read once; every thread runs from the same copy
        image = std::make_shared<const asmx::program>(asmx::load_elf(file, shared_base));
        for (const auto& s : image->image) load_data(mem, s.addr, s.bytes);
        // GCC's outline atomics (libgcc) take their LSE path when this byte is
        // set; a C library's start-up sets it from HWCAP_ATOMICS, and none runs
        // here: set when every thread's core has LSE (one copy for all threads).
        const auto lse = image->objects.find("__aarch64_have_lse_atomics");
        if (lse != image->objects.end()) mem.poke(lse->second, 1, all_lse ? 1 : 0);
    }
    const std::size_t entry = asmx::function_index(*image, *function, t.function ? key + ".function" : "workload.function");
    // struct cohsim_args (workloads/include/cohsim.h), eight bytes a field, in its order.
    const std::uint64_t args = private_base + c.agent() * private_stride;
    mem.poke(args, 8, index);
    mem.poke(args + 8, 8, w.threads.size());
    for (std::size_t f = 0; f < std::size(names); ++f) {
        const auto it = params.find(names[f].first);
        mem.poke(args + 16 + 8 * f, 8, static_cast<std::uint64_t>(it != params.end() ? it->second : names[f].second));
    }
    mem.poke(args + 16 + 8 * std::size(names), 8, mem.socket_of_agent(c.agent()));  // node: the core's socket
    return std::make_unique<workload_thread>(c, image, entry, mutex, args);
}

}  // namespace

std::vector<std::unique_ptr<workload_thread>> build_workload(const workload_params& w, const std::string& config_dir,
                                                             const std::vector<core*>& cores, memory_system& mem,
                                                             mutex_checker& mutex) {
    std::vector<std::unique_ptr<workload_thread>> out;
    if (w.trace) {
        const std::filesystem::path p(*w.trace);
        const std::string file = p.is_absolute() ? p.string() : (std::filesystem::path(config_dir) / p).string();
        for (auto& [id, ops] : read_trace(file)) {
            core* c = nullptr;
            for (core* x : cores)
                if (x->id() == id) c = x;
            if (!c) throw cfg::config_error({file, 0, 0}, "", "the trace names core '" + id + "', which this platform has not",
                                            "cores of the platform, CLUSTER.INDEX");
            out.push_back(std::make_unique<workload_thread>(*c, std::move(ops), mutex));
        }
        return out;
    }
    const std::vector<std::string> search = include_search(w, config_dir);
    bool shared_loaded = false;
    std::shared_ptr<const asmx::program> image;  // the ELF file, once read: its segments are in memory
    bool all_lse = true;
    for (const auto& t : w.threads)
        for (core* x : cores)
            if (x->id() == t.core && !has_lse(x->type())) all_lse = false;
    for (std::size_t index = 0; index < w.threads.size(); ++index) {
        const thread_params& t = w.threads[index];
        core* c = nullptr;
        for (core* x : cores)
            if (x->id() == t.core) c = x;
        std::map<std::string, std::int64_t> params = w.params;
        // Only what the scenario sets explicitly: the program's own defaults
        // stand otherwise, and a program without that .equ is an error.
        if (t.cpu_relax != relax_kind::yield) params["RELAX"] = 1;
        if (t.cpu_relax == relax_kind::wfe_backoff_percpu) params["RELAX_WORD"] = 1;
        if (t.inside) params["INSIDE"] = static_cast<std::int64_t>(t.inside->n);
        if (t.outside) params["OUTSIDE"] = static_cast<std::int64_t>(t.outside->n);
        if (t.start) params["START"] = static_cast<std::int64_t>(t.start->n);
        if (t.iterations) params["ITERATIONS"] = static_cast<std::int64_t>(t.iterations);
        for (const auto& [k, v] : t.params) params[k] = v;
        const std::string file =
            resolve(t.program.value_or(w.program), config_dir, search, t.program ? "workload.threads.program" : "workload.program");
        if (file.rfind("lib:", 0) != 0 && asmx::is_elf(file)) {
            if (t.cpu_relax == relax_kind::wfe_backoff_percpu)
                throw cfg::config_error({file, 0, 0}, "workload.threads." + std::to_string(index) + ".cpu_relax",
                                        "wfe_backoff_percpu is written in the lock library's assembly harness "
                                        "(workloads/locks/loop.s), not in an ELF program's",
                                        "wfe_backoff (an ELF program's cpu_relax counts its calls in a variable)");
            out.push_back(elf_thread(w, t, index, file, params, *c, mem, mutex, image, all_lse));
            continue;
        }
        asmx::program p = asmx::assemble_file(file, params, search);
        // A program that declares `.equ LSE` has an LDXR/STXR build (0) and an
        // LSE build (1): unless the scenario chooses, the core's features do,
        // as Linux's alternatives patch the kernel's atomics at boot.
        const std::int64_t lse = has_lse(c->type()) ? 1 : 0;
        if (!params.count("LSE") && p.constants.count("LSE") && p.constants.at("LSE") != lse) {
            params["LSE"] = lse;
            p = asmx::assemble_file(file, params, search);
        }
        if (p.private_init.size() > private_stride)
            throw cfg::config_error({p.file, 0, 0}, "", "private data larger than 64KiB", "at most 64KiB of .private data");
        if (!shared_loaded) load_data(mem, shared_base, p.shared_init), shared_loaded = true;
        load_data(mem, private_base + c->agent() * private_stride, p.private_init);
        const std::size_t entry = p.entry;
        out.push_back(std::make_unique<workload_thread>(*c, std::make_shared<const asmx::program>(std::move(p)), entry, mutex));
    }
    return out;
}

}  // namespace cohsim

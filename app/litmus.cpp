#include "app/litmus.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <iomanip>
#include <regex>
#include <sstream>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "app/data.h"
#include "app/options.h"
#include "app/platform.h"
#include "app/results.h"
#include "app/spawn.h"
#include "app/system.h"
#include "sim/files.h"
#include "sim/random.h"
#include "sim/runner.h"
#include "workloads/litmus.h"
#include "workloads/scenario.h"

namespace cohsim {

namespace fs = std::filesystem;
namespace po = boost::program_options;

namespace {

constexpr int exit_ok = 0, exit_failure = 1;

// A folder of its own under the system's temporary folder, removed with it.
struct temp_dir {
    fs::path path;
    temp_dir() {
        std::string t = (fs::temp_directory_path() / "cohsim-litmus-XXXXXX").string();
        if (!mkdtemp(t.data())) throw std::runtime_error("cannot create a temporary folder in " + fs::temp_directory_path().string());
        path = t;
    }
    ~temp_dir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    temp_dir(const temp_dir&) = delete;
    temp_dir& operator=(const temp_dir&) = delete;
};

const char* const litmus_help = R"(usage: cohsim litmus FILE.litmus [OPTIONS]

Runs a litmus test (herd7's AArch64 format) many times on simulated cores
and prints the final states seen with their counts, and whether the test's
condition was observed, as the litmus7 hardware runner reports:

  Histogram (2 states)
  1000  :>0:X4=0; 1:X4=1; x=1;     a state and how many runs ended in it
  0     *>...                      (*> marks the states the condition holds in)
  Observation NAME Never 0 2000    Never, Sometimes or Always; positive, negative

The runs are BATCHES child processes of ITERATIONS each. Every batch places
the test's threads on its own cores of the platform (drawn from --seed, across
clusters, unless --cores fixes them), pre-warms random locations in each
thread's L1 (a Shared copy by a load, a Unique one by PRFM PSTL1KEEP) and has
its own run seed; in every iteration each thread waits a random 0..JITTER
cycles before its code. With the platform's physical noise, that varies
who wins each race. A comment (* expect: Never *) (or Sometimes, Always) in
the test states the verdict derived from the architecture; --check exits 1
when the runs contradict it; (* expect: Allowed *) says the architecture
permits the outcome, and the run reports whether this platform shows it.
The shipped tests, workloads/litmus/*.litmus (a name alone finds them from
anywhere), are the exclusive-monitor and LSE rules of the Arm ARM (B2.9,
C3.2.12) and the classic shapes (mp, sb, lb, 2+2w, r, s, wrc, iriw: each
Allowed plain, Never with barriers; mp-rel-acq).

The file may be as herd7 writes it: the initial state over several lines,
C declarations (int x=1; uint64_t y;), comments (* ... *) or // ...,
locations [...], and filter (...) before the condition: the runs the filter
does not hold for are left out of the histogram and counted.

Registers X0-X19 are the test's; the harness uses X20 and up. Each location
has a cache line of its own. Each batch's config and program stay in --out
(a temporary folder unless given): `cohsim run OUT/batch-0/config.yaml
--trace t.json` shows that batch's timeline.

)";

const char* const litmus_examples = R"(
examples:
  cohsim litmus workloads/litmus/ldxr-stxr-increment.litmus
  cohsim litmus lse-cas.litmus                (a shipped test, from any directory)
  cohsim litmus my.litmus --platform dynamiq_4xa55_4xa75 --batches 20 --iterations 500
  cohsim litmus my.litmus --cores big.0,little.1 --jitter 0 --json my.json
  cohsim litmus workloads/litmus/lse-ldadd.litmus --check     (exit 1 if the verdict is contradicted)
  cohsim litmus mp-dmb.litmus --set clusters.big.timing.store_buffer=8 --set clusters.little.timing.store_buffer=8
)";

struct batch_plan {
    std::vector<std::string> cores;  // per thread
    litmus::harness_options h;
    std::uint64_t seed = 1;
};

std::string yaml_list(const std::vector<std::string>& cores) {
    std::string s = "[";
    for (std::size_t t = 0; t < cores.size(); ++t)
        s += (t ? ", " : "") + std::string("{core: ") + cores[t] + ", params: {TID: " + std::to_string(t) + "}}";
    return s + "]";
}

// The child: one batch, in this process.
int run_batch(const fs::path& dir) {
    const platform_config cfg = load_platform((dir / "config.yaml").string(), {});
    system_model sys(cfg, dir.string());
    const auto& prog = sys.threads().at(0)->program();
    // the batch's shape: its threads in the config, the rest in the harness's constants
    const std::uint64_t threads = cfg.workload.threads.size();
    const auto iterations = static_cast<std::uint64_t>(prog.constants.at("LITMUS_ITERATIONS")),
               observed = static_cast<std::uint64_t>(prog.constants.at("LITMUS_OBSERVED"));
    auto address = [&](const std::string& sym) {
        for (const auto& s : prog.symbols)
            if (s.name == sym) return shared_base + s.offset;
        throw std::logic_error("the litmus harness has no symbol " + sym);
    };
    const std::uint64_t done = address("litmus_done"), results = address("litmus_results");
    std::atomic<bool> stop{false};
    run_for(cfg.run.length,
            [&](duration, double) { stop = sys.memory().peek(done, 8) == threads || !sys.program_fault().empty(); }, &stop);
    if (const std::string f = sys.program_fault(); !f.empty()) throw std::runtime_error(f);
    if (sys.memory().peek(done, 8) != threads)
        throw std::runtime_error("the test did not finish within " + to_string(cfg.run.length) +
                                 " simulated (a thread that never ends its code? raise --time)");
    // The test's locations (loc_NAME, laid out in the test's order): a value
    // that is one's address is recorded as its token.
    std::vector<std::pair<std::uint64_t, std::string>> locs;
    for (const auto& s : prog.symbols)
        if (s.name.rfind("loc_", 0) == 0) locs.emplace_back(s.offset, s.name);
    std::sort(locs.begin(), locs.end());
    std::map<std::uint64_t, std::uint64_t> token_of;
    for (std::size_t i = 0; i < locs.size(); ++i) token_of[shared_base + locs[i].first] = litmus::address_token(i);
    std::map<std::vector<std::uint64_t>, std::uint64_t> counts;
    for (std::uint64_t i = 0; i < iterations; ++i) {
        std::vector<std::uint64_t> v;
        for (std::uint64_t k = 0; k < observed; ++k) {
            const std::uint64_t x = sys.memory().peek(results + (i * observed + k) * 8, 8);
            const auto t = token_of.find(x);
            v.push_back(t == token_of.end() ? x : t->second);
        }
        ++counts[v];
    }
    json out = json::array();
    for (const auto& [v, n] : counts) out.push_back({{"values", v}, {"count", n}});
    write_file_atomic((dir / "outcomes.json").string(), out.dump() + "\n");
    return exit_ok;
}

}  // namespace

int cmd_litmus(const std::vector<std::string>& args) {
    std::string platform, batches_text = "10", iterations_text = "100", seed_text = "1", jitter_text = "200", cores_text,
                json_file, out_dir, jobs_text, time_text = "1s", batch_dir;
    std::vector<std::string> sets;
    po::options_description d("options");
    d.add_options()  //
        ("platform", po::value(&platform)->value_name("CONFIG"),
         "the platform (its clusters, caches, timing, noise); default: the built-in default's")  //
        ("batches", po::value(&batches_text)->value_name("N"), "child runs, each with its own placement, pre-warming and seed (default 10)")  //
        ("iterations", po::value(&iterations_text)->value_name("N"), "runs of the test in each batch (default 100)")  //
        ("seed", po::value(&seed_text)->value_name("N"), "draws the placements, pre-warming and run seeds (default 1)")  //
        ("jitter", po::value(&jitter_text)->value_name("CYCLES"), "each thread waits 0..CYCLES before its code (default 200)")  //
        ("cores", po::value(&cores_text)->value_name("LIST"), "fixed placement, one core per thread: big.0,little.1")  //
        ("json", po::value(&json_file)->value_name("FILE"), "also write the states and counts as JSON")  //
        ("out", po::value(&out_dir)->value_name("DIR"), "keep each batch's config, program and outcomes here")  //
        ("jobs", po::value(&jobs_text)->value_name("N"), "batches at once (default: the host's cores)")  //
        ("time", po::value(&time_text)->value_name("DURATION"), "the most simulated time a batch may take (default 1s)")  //
        ("set", po::value(&sets)->composing()->value_name("PATH=VALUE"),
         "override one platform value (e.g. clusters.big.timing.store_buffer=8); repeatable")  //
        ("check", "exit 1 when the runs contradict the test's (* expect: ... *) verdict")  //
        ("batch", po::value(&batch_dir)->value_name("DIR"), "(internal) run one prepared batch")  //
        ("help,h", "show this help");
    const parsed_args p = parse_args(args, d);
    if (p.vm.count("help")) {
        std::cout << litmus_help << d << litmus_examples;
        return exit_ok;
    }
    if (!batch_dir.empty()) return run_batch(batch_dir);
    if (p.positional.size() != 1)
        throw usage_error(p.positional.empty() ? "litmus needs a test file (FILE.litmus)" : "litmus takes one test file, got " + std::to_string(p.positional.size()));
    // A relative name not found here: the shipped tests (DATA/workloads/litmus/NAME, or DATA/NAME).
    std::string file = p.positional[0];
    if (!fs::exists(file) && fs::path(file).is_relative()) {
        for (const fs::path& alt : {fs::path("workloads") / "litmus" / file, fs::path(file)}) {
            try {
                if (fs::exists(data_dir() / alt)) {
                    file = (data_dir() / alt).string();
                    break;
                }
            } catch (const std::runtime_error&) {  // no data directory: only the name as given
            }
        }
    }
    if (!fs::exists(file))
        throw usage_error(file + ": no such file (nor a shipped test of that name, e.g. lse-cas.litmus)");
    const litmus::test test = litmus::parse(read_file(file), file);
    const auto batches = parse_count(batches_text, "--batches", 1, 10'000);
    const auto iterations = parse_count(iterations_text, "--iterations", 1, 10'000);
    const auto seed = parse_count(seed_text, "--seed", 0, UINT64_MAX);
    const auto jitter = parse_count(jitter_text, "--jitter", 0, 1'000'000);
    const unsigned jobs = jobs_text.empty() ? host_cores() : static_cast<unsigned>(parse_count(jobs_text, "--jobs", 1, 256));
    const std::string platform_file = platform.empty() ? "" : find_config(platform);
    std::vector<std::pair<std::string, std::string>> overrides = {{"--time", "run.duration=" + time_text}};
    for (auto& o : numbered(sets)) overrides.push_back(std::move(o));
    const platform_config base = load_platform(platform_file, overrides);
    const auto all_cores = core_ids(base);
    const int n = test.threads();
    std::vector<std::string> fixed;
    if (!cores_text.empty()) {
        std::stringstream in(cores_text);
        for (std::string c; std::getline(in, c, ',');) {
            if (std::find(all_cores.begin(), all_cores.end(), c) == all_cores.end())
                throw usage_error("--cores: the platform has no core '" + c + "' (it has " + std::to_string(all_cores.size()) +
                                  ": " + all_cores.front() + " to " + all_cores.back() + ")");
            if (std::find(fixed.begin(), fixed.end(), c) != fixed.end()) throw usage_error("--cores: " + c + " twice");
            fixed.push_back(c);
        }
        if (static_cast<int>(fixed.size()) != n)
            throw usage_error("--cores: " + std::to_string(fixed.size()) + " cores for " + std::to_string(n) + " threads");
    }
    if (static_cast<int>(all_cores.size()) < n)
        throw usage_error(file + ": " + std::to_string(n) + " threads, but the platform has " + std::to_string(all_cores.size()) + " cores");
    // A test with LSE instructions runs only on cores that have them (the
    // others would take an undefined-instruction exception).
    static const std::regex lse_insn(R"(^\s*(CAS|CASP|LDADD|LDSET|LDCLR|LDEOR|LDSMAX|LDSMIN|LDUMAX|LDUMIN|SWP|STADD|STSET|STCLR|STEOR)[A-Z]*\s)",
                                     std::regex::icase);
    std::string lse_used;
    for (const auto& column : test.code)
        for (const auto& l : column) {
            std::smatch m;
            if (lse_used.empty() && std::regex_search(l, m, lse_insn)) lse_used = m[1];
        }
    if (!lse_used.empty()) {
        std::string without;
        for (const auto& c : fixed.empty() ? all_cores : fixed) {
            const auto& cl = base.clusters.find(c.substr(0, c.find('.')))->core;
            if (!has_lse(cl)) without += (without.empty() ? "" : ", ") + c + " (" + preset_of(cl).name + ")";
        }
        if (!without.empty())
            throw usage_error(file + ": the test uses " + lse_used + ", an LSE instruction (Armv8.1), and these cores have no LSE: " +
                              without + " (expected a platform or --cores with LSE, e.g. --platform dynamiq_4xa55_4xa75)");
    }

    // The batches: placement, pre-warming and run seed, all drawn from --seed.
    random_stream draw(splitmix64(seed));
    std::vector<batch_plan> plans(batches);
    for (std::uint64_t b = 0; b < batches; ++b) {
        batch_plan& bp = plans[b];
        bp.cores = fixed;
        if (bp.cores.empty()) {
            auto pool = all_cores;
            for (int t = 0; t < n; ++t) {
                const auto k = draw.between(0, pool.size() - 1);
                bp.cores.push_back(pool[k]);
                pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(k));
            }
        }
        bp.h.iterations = iterations;
        bp.h.jitter = jitter;
        bp.h.prewarm.resize(static_cast<std::size_t>(n));
        for (int t = 0; t < n; ++t)
            for (const auto& loc : test.locations) bp.h.prewarm[static_cast<std::size_t>(t)][loc] = static_cast<int>(draw.between(0, 2));
        bp.seed = splitmix64(seed ^ (b + 1));
    }
    std::unique_ptr<temp_dir> temp;
    // Absolute: each batch's config names its program, and a relative path
    // would be read from the config's own folder.
    fs::path dir = out_dir.empty() ? fs::path() : fs::absolute(out_dir);
    if (dir.empty()) {
        temp = std::make_unique<temp_dir>();
        dir = temp->path;
    }
    std::vector<child_job> runs;
    for (std::uint64_t b = 0; b < batches; ++b) {
        const fs::path bd = dir / ("batch-" + std::to_string(b));
        fs::create_directories(bd);
        write_file_atomic((bd / "litmus.s").string(), litmus::harness_program(test, plans[b].h));
        // The user's overrides, then the harness's own (which no --set can undo).
        std::vector<std::pair<std::string, std::string>> batch_overrides = overrides;
        batch_overrides.insert(batch_overrides.end(), {{"litmus", "run.seed=" + std::to_string(plans[b].seed)},
                                                      {"litmus", "workload.program=" + (bd / "litmus.s").string()},
                                                      {"litmus", "workload.params={}"},
                                                      {"litmus", "workload.threads=" + yaml_list(plans[b].cores)}});
        const platform_config cfg = load_platform(platform_file, batch_overrides);
        write_file_atomic((bd / "config.yaml").string(),
                          "# batch " + std::to_string(b) + " of cohsim litmus " + file + "\n" + cfg::to_yaml(effective_config(cfg)));
        child_job j;
        j.args = {"litmus", "--batch", bd.string()};
        j.log = (bd / "batch.log").string();
        runs.push_back(j);
    }
    const bool tty = isatty(STDERR_FILENO) != 0;
    std::size_t finished = 0;
    run_children(runs, jobs, [&](std::size_t) {
        if (tty) std::cerr << "\r[" << ++finished << "/" << batches << " batches]" << std::flush;
    });
    if (tty) std::cerr << "\r" << std::string(30, ' ') << "\r";
    std::map<std::vector<std::uint64_t>, std::uint64_t> counts;
    for (std::uint64_t b = 0; b < batches; ++b) {
        const fs::path bd = dir / ("batch-" + std::to_string(b));
        if (runs[b].status != 0 || !fs::exists(bd / "outcomes.json"))
            throw std::runtime_error("litmus batch " + std::to_string(b) + " failed (exit " + std::to_string(runs[b].status) +
                                     "): " + read_file(runs[b].log));
        for (const auto& o : json::parse(read_file((bd / "outcomes.json").string())))
            counts[o.at("values").get<std::vector<std::uint64_t>>()] += o.at("count").get<std::uint64_t>();
    }
    // herd7's filter: the runs it does not hold for are left out (and said how many).
    std::uint64_t filtered_out = 0;
    if (test.filter)
        for (auto it = counts.begin(); it != counts.end();) {
            if (litmus::holds(*test.filter, test, it->first)) {
                ++it;
            } else {
                filtered_out += it->second;
                it = counts.erase(it);
            }
        }
    std::uint64_t pos = 0, neg = 0;
    for (const auto& [v, c] : counts) (litmus::holds(*test.condition, test, v) ? pos : neg) += c;
    const bool validated = test.q == litmus::quantifier::exists ? pos > 0 : test.q == litmus::quantifier::not_exists ? pos == 0 : neg == 0;
    const std::string observation = pos == 0 ? "Never" : neg == 0 ? "Always" : "Sometimes";
    const char* q = test.q == litmus::quantifier::exists ? "exists" : test.q == litmus::quantifier::not_exists ? "~exists" : "forall";
    std::cout << "Test " << test.name << (test.q == litmus::quantifier::exists ? " Allowed" : " Required") << "\n"
              << "Histogram (" << counts.size() << " states)\n";
    for (const auto& [v, c] : counts)
        std::cout << std::left << std::setw(6) << c << (litmus::holds(*test.condition, test, v) ? "*>" : ":>")
                  << litmus::state_text(test, v) << "\n";
    if (test.filter) std::cout << "Filter " << test.filter_text << ": " << filtered_out << " runs left out\n";
    std::cout << (validated ? "Ok" : "No") << "\nWitnesses\nPositive: " << pos << ", Negative: " << neg << "\n"
              << "Condition " << q << " " << test.condition_text << " is " << (validated ? "" : "NOT ") << "validated\n"
              << "Observation " << test.name << " " << observation << " " << pos << " " << neg << "\n"
              << "Runs " << batches << " batches x " << iterations << " iterations on "
              << (platform.empty() ? std::string(default_config_name) : platform);
    for (const auto& v : sets) std::cout << " --set " << v;
    std::cout << ", seed " << seed << ", jitter " << jitter << " cycles\n";
    const bool agrees = test.expect.empty() || test.expect == "Allowed" || test.expect == observation;
    if (test.expect == "Allowed")
        std::cout << "Expected Allowed (the test's verdict): agrees; this platform shows it " << observation << "\n";
    else if (!test.expect.empty())
        std::cout << "Expected " << test.expect << " (the test's verdict): " << (agrees ? "agrees" : "CONTRADICTED") << "\n";
    if (!json_file.empty()) {
        json j{{"test", test.name},        {"file", file},           {"condition", std::string(q) + " " + test.condition_text},
               {"positive", pos},          {"negative", neg},        {"observation", observation},
               {"validated", validated},   {"expect", test.expect},  {"batches", batches},
               {"iterations", iterations}, {"seed", seed},           {"jitter_cycles", jitter}};
        json states = json::array();
        for (const auto& [v, c] : counts) {
            json s{{"count", c}, {"condition", litmus::holds(*test.condition, test, v)}};
            for (std::size_t k = 0; k < v.size(); ++k) s["values"][test.observed[k].text()] = v[k];
            states.push_back(s);
        }
        j["states"] = states;
        if (test.filter) j["filter"] = {{"condition", test.filter_text}, {"left_out", filtered_out}};
        j["sets"] = sets;
        json placements = json::array();
        for (const auto& bp : plans) placements.push_back(bp.cores);
        j["placements"] = placements;
        write_file_atomic(json_file, j.dump(2) + "\n");
    }
    return p.vm.count("check") && !agrees ? exit_failure : exit_ok;
}

}  // namespace cohsim

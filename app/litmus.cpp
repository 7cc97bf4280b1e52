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
#include "app/text_table.h"
#include "sim/files.h"
#include "sim/random.h"
#include "sim/runner.h"
#include "workloads/litmus.h"
#include "workloads/scenario.h"

namespace cohsim {

namespace fs = std::filesystem;

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

}  // namespace

int litmus_batch(const std::string& dir_text) {
    const fs::path dir(dir_text);
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

namespace {

// What one test's runs on one platform found.
struct observation {
    std::map<std::vector<std::uint64_t>, std::uint64_t> counts;  // after the filter
    std::uint64_t filtered_out = 0, pos = 0, neg = 0;
    bool validated = false;
    std::string verdict;  // Never, Sometimes or Always
    std::vector<batch_plan> plans;
};


// The first LSE instruction a test uses, or "".
std::string lse_used(const litmus::test& test) {
    static const std::regex lse_insn(R"(^\s*(CAS|CASP|LDADD|LDSET|LDCLR|LDEOR|LDSMAX|LDSMIN|LDUMAX|LDUMIN|SWP|STADD|STSET|STCLR|STEOR)[A-Z]*\s)",
                                     std::regex::icase);
    for (const auto& column : test.code)
        for (const auto& l : column) {
            std::smatch m;
            if (std::regex_search(l, m, lse_insn)) return m[1];
        }
    return "";
}

// Why a test cannot run on a platform for lack of cores, or "".
std::string too_few_cores(const litmus::test& test, const platform_config& base) {
    const std::size_t cores = core_ids(base).size(), n = static_cast<std::size_t>(test.threads());
    return cores < n ? std::to_string(n) + " threads, but the platform has " + std::to_string(cores) + " cores" : "";
}

// The cores (of `cores`, or every core of the platform) without LSE, named
// with their type: a test with LSE instructions runs only on cores that have
// them (the others would take an undefined-instruction exception).
std::string cores_without_lse(const platform_config& base, const std::vector<std::string>& cores) {
    std::string without;
    for (const auto& c : cores.empty() ? core_ids(base) : cores) {
        const auto& cl = base.clusters.find(c.substr(0, c.find('.')))->core;
        if (!has_lse(cl)) without += (without.empty() ? "" : ", ") + c + " (" + preset_of(cl).name + ")";
    }
    return without;
}

// Runs a test's batches on a platform (one it can run on) and counts the final states.
observation observe(const litmus::test& test, const std::string& file, const std::string& platform_file,
                    const std::vector<std::pair<std::string, std::string>>& overrides, const litmus_options& o) {
    const platform_config base = load_platform(platform_file, overrides);
    const auto all_cores = core_ids(base);
    const int n = test.threads();
    observation r;
    // The batches: placement, pre-warming and run seed, all drawn from --seed.
    random_stream draw(splitmix64(o.seed));
    r.plans.resize(o.batches);
    for (std::uint64_t b = 0; b < o.batches; ++b) {
        batch_plan& bp = r.plans[b];
        bp.cores = o.fixed;
        if (bp.cores.empty()) {
            auto pool = all_cores;
            for (int t = 0; t < n; ++t) {
                const auto k = draw.between(0, pool.size() - 1);
                bp.cores.push_back(pool[k]);
                pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(k));
            }
        }
        bp.h.iterations = o.iterations;
        bp.h.jitter = o.jitter;
        bp.h.prewarm.resize(static_cast<std::size_t>(n));
        for (int t = 0; t < n; ++t)
            for (const auto& loc : test.locations) bp.h.prewarm[static_cast<std::size_t>(t)][loc] = static_cast<int>(draw.between(0, 2));
        bp.seed = splitmix64(o.seed ^ (b + 1));
    }
    std::unique_ptr<temp_dir> temp;
    // Absolute: each batch's config names its program, and a relative path
    // would be read from the config's own folder.
    fs::path dir = o.out_dir.empty() ? fs::path() : fs::absolute(o.out_dir);
    if (dir.empty()) {
        temp = std::make_unique<temp_dir>();
        dir = temp->path;
    }
    std::vector<child_job> runs;
    for (std::uint64_t b = 0; b < o.batches; ++b) {
        const fs::path bd = dir / ("batch-" + std::to_string(b));
        fs::create_directories(bd);
        write_file_atomic((bd / "litmus.s").string(), litmus::harness_program(test, r.plans[b].h));
        // The user's overrides, then the harness's own (which no --set can undo).
        std::vector<std::pair<std::string, std::string>> batch_overrides = overrides;
        batch_overrides.insert(batch_overrides.end(), {{"litmus", "run.seed=" + std::to_string(r.plans[b].seed)},
                                                      {"litmus", "workload.program=" + (bd / "litmus.s").string()},
                                                      {"litmus", "workload.params={}"},
                                                      {"litmus", "workload.threads=" + yaml_list(r.plans[b].cores)}});
        const platform_config cfg = load_platform(platform_file, batch_overrides);
        write_file_atomic((bd / "config.yaml").string(),
                          "# batch " + std::to_string(b) + " of cohsim litmus " + file + "\n" + cfg::to_yaml(effective_config(cfg)));
        child_job j;
        j.args = {"litmus", "--batch", bd.string()};
        j.log = (bd / "batch.log").string();
        runs.push_back(j);
    }
    std::size_t finished = 0;
    run_children(runs, o.jobs, [&](std::size_t) {
        if (o.progress) std::cerr << "\r[" << ++finished << "/" << o.batches << " batches]" << std::flush;
    });
    if (o.progress) std::cerr << "\r" << std::string(30, ' ') << "\r";
    for (std::uint64_t b = 0; b < o.batches; ++b) {
        const fs::path bd = dir / ("batch-" + std::to_string(b));
        if (runs[b].status != 0 || !fs::exists(bd / "outcomes.json"))
            throw std::runtime_error("litmus batch " + std::to_string(b) + " failed (exit " + std::to_string(runs[b].status) +
                                     "): " + read_file(runs[b].log));
        for (const auto& x : json::parse(read_file((bd / "outcomes.json").string())))
            r.counts[x.at("values").get<std::vector<std::uint64_t>>()] += x.at("count").get<std::uint64_t>();
    }
    // herd7's filter: the runs it does not hold for are left out (and said how many).
    if (test.filter)
        for (auto it = r.counts.begin(); it != r.counts.end();) {
            if (litmus::holds(*test.filter, test, it->first)) {
                ++it;
            } else {
                r.filtered_out += it->second;
                it = r.counts.erase(it);
            }
        }
    for (const auto& [v, c] : r.counts) (litmus::holds(*test.condition, test, v) ? r.pos : r.neg) += c;
    r.validated = test.q == litmus::quantifier::exists ? r.pos > 0 : test.q == litmus::quantifier::not_exists ? r.pos == 0 : r.neg == 0;
    r.verdict = r.pos == 0 ? "Never" : r.neg == 0 ? "Always" : "Sometimes";
    return r;
}

// A test file as given, or a shipped test of that name.
std::string find_test(std::string file) {
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
    return file;
}

// Why a platform shows no outcome that the architecture allows. cohsim's
// cores perform their accesses in program order but for the store buffer
// (timing.store_buffer), which lets a store complete after a later load.
std::string allowed_but_never_reason(const platform_config& cfg) {
    for (const auto& [name, cl] : cfg.clusters)
        if (cl.timing.store_buffer > 0)
            return "not seen: the store buffers let a store complete after a later load, but no cohsim core lets a load "
                   "complete after a later access (the reordering LB, WRC and IRIW need); or too few runs";
    return "every access completes in program order here (timing.store_buffer 0 on every cluster); a store buffer "
           "(--set clusters.NAME.timing.store_buffer=8) lets a store complete after a later load, the reordering SB, MP, R, S "
           "and 2+2W need; no cohsim core lets a load complete after a later access (LB, WRC, IRIW)";
}

}  // namespace

int litmus_survey(const std::vector<std::string>& files, const std::string& platforms_text, const std::vector<std::string>& sets,
           const std::string& time_text, const litmus_options& o, const std::string& json_file) {
    std::vector<std::string> platforms;
    if (platforms_text == "all") {
        for (const auto& e : fs::directory_iterator(data_dir() / "configs" / "platforms"))
            if (e.path().extension() == ".yaml") platforms.push_back(e.path().stem().string());
        std::sort(platforms.begin(), platforms.end());
    } else {
        std::stringstream in(platforms_text);
        for (std::string p; std::getline(in, p, ',');)
            if (!p.empty()) platforms.push_back(p);
    }
    if (platforms.empty()) throw usage_error("--platforms: no platform named (a comma-separated list, or all)");
    std::vector<std::string> tests = files;
    if (tests.empty()) {
        for (const auto& e : fs::directory_iterator(data_dir() / "workloads" / "litmus"))
            if (e.path().extension() == ".litmus") tests.push_back(e.path().string());
        std::sort(tests.begin(), tests.end());
    }
    std::vector<std::pair<std::string, std::string>> overrides = {{"--time", "run.duration=" + time_text}};
    for (auto& x : numbered(sets)) overrides.push_back(std::move(x));
    std::vector<std::string> platform_files;
    std::vector<platform_config> bases;
    for (const auto& p : platforms) {
        platform_files.push_back(find_config(p));
        bases.push_back(load_platform(platform_files.back(), overrides));
    }
    text_table t;
    std::vector<std::string> head = {"test", "architecture"};
    for (const auto& p : platforms) head.push_back(p);
    t.header(head);
    json cells = json::array();
    std::map<std::string, std::string> notes;  // note text -> its mark
    bool contradicted = false;
    const auto mark = [&](const std::string& note) {
        const auto it = notes.find(note);
        if (it != notes.end()) return it->second;
        return notes[note] = "(" + std::string(1, static_cast<char>('a' + notes.size())) + ")";
    };
    for (const auto& f : tests) {
        const std::string file = find_test(f);
        const litmus::test test = litmus::parse(read_file(file), file);
        std::vector<std::string> row = {test.name, test.expect.empty() ? "-" : test.expect};
        const std::string lse = lse_used(test);
        for (std::size_t k = 0; k < platforms.size(); ++k) {
            json cell{{"test", test.name}, {"file", file}, {"platform", platforms[k]}, {"expect", test.expect}};
            std::string why = too_few_cores(test, bases[k]);
            if (why.empty() && !lse.empty() && !cores_without_lse(bases[k], {}).empty())
                why = "the test uses " + lse + ", an LSE instruction (Armv8.1), which cores of this platform lack";
            if (!why.empty()) {
                row.push_back("n/a " + mark(why));
                cell["observation"] = nullptr;
                cell["reason"] = why;
            } else {
                if (o.progress) std::cerr << "\r" << test.name << " on " << platforms[k] << std::string(20, ' ') << std::flush;
                litmus_options quiet = o;
                quiet.progress = false;
                const observation r = observe(test, file, platform_files[k], overrides, quiet);
                std::string text = r.verdict + " " + std::to_string(r.pos) + "/" + std::to_string(r.pos + r.neg);
                const bool agrees = test.expect.empty() || test.expect == "Allowed" || test.expect == r.verdict;
                if (!agrees) text += " CONTRADICTED", contradicted = true;
                if (test.expect == "Allowed" && r.pos == 0) {
                    if (const std::string why = allowed_but_never_reason(bases[k]); !why.empty()) {
                        text += " " + mark(why);
                        cell["reason"] = why;
                    }
                }
                row.push_back(text);
                cell["observation"] = r.verdict;
                cell["positive"] = r.pos;
                cell["negative"] = r.neg;
                cell["agrees"] = agrees;
            }
            cells.push_back(cell);
        }
        t.row(row);
    }
    if (o.progress) std::cerr << "\r" << std::string(60, ' ') << "\r";
    std::cout << "Each test " << o.batches << " batches x " << o.iterations << " iterations per platform (seed " << o.seed
              << "); a cell: the observation and the runs where the condition held\n"
              << t.str();
    std::vector<std::pair<std::string, std::string>> by_mark;
    for (const auto& [note, m] : notes) by_mark.emplace_back(m, note);
    std::sort(by_mark.begin(), by_mark.end());
    for (const auto& [m, note] : by_mark) std::cout << m << " " << note << "\n";
    std::cout << (contradicted ? "Some platform CONTRADICTS a test's verdict: a forbidden outcome shown, or a required one missed\n"
                               : "No platform contradicts a test's verdict; Allowed: the architecture permits the outcome, each platform "
                                 "shows it or not\n");
    if (!json_file.empty())
        write_file_atomic(json_file, json{{"batches", o.batches}, {"iterations", o.iterations}, {"seed", o.seed},
                                          {"jitter_cycles", o.jitter}, {"sets", sets}, {"cells", cells}}.dump(2) + "\n");
    return contradicted ? exit_failure : exit_ok;
}

int litmus_one(const std::string& test_arg, const std::string& platform, const std::vector<std::string>& sets,
               const std::string& time_text, const std::string& cores_text, litmus_options o, const std::string& json_file,
               bool check) {
    // A relative name not found here: the shipped tests (DATA/workloads/litmus/NAME, or DATA/NAME).
    const std::string file = find_test(test_arg);
    const litmus::test test = litmus::parse(read_file(file), file);
    const auto batches = o.batches, iterations = o.iterations, seed = o.seed, jitter = o.jitter;
    const std::string platform_file = platform.empty() ? "" : find_config(platform);
    std::vector<std::pair<std::string, std::string>> overrides = {{"--time", "run.duration=" + time_text}};
    for (auto& x : numbered(sets)) overrides.push_back(std::move(x));
    const platform_config base = load_platform(platform_file, overrides);
    const auto all_cores = core_ids(base);
    const int n = test.threads();
    if (!cores_text.empty()) {
        std::stringstream in(cores_text);
        for (std::string c; std::getline(in, c, ',');) {
            if (std::find(all_cores.begin(), all_cores.end(), c) == all_cores.end())
                throw usage_error("--cores: the platform has no core '" + c + "' (it has " + std::to_string(all_cores.size()) +
                                  ": " + all_cores.front() + " to " + all_cores.back() + ")");
            if (std::find(o.fixed.begin(), o.fixed.end(), c) != o.fixed.end()) throw usage_error("--cores: " + c + " twice");
            o.fixed.push_back(c);
        }
        if (static_cast<int>(o.fixed.size()) != n)
            throw usage_error("--cores: " + std::to_string(o.fixed.size()) + " cores for " + std::to_string(n) + " threads");
    }
    if (const std::string why = too_few_cores(test, base); !why.empty()) throw usage_error(file + ": " + why);
    if (const std::string lse = lse_used(test); !lse.empty())
        if (const std::string without = cores_without_lse(base, o.fixed); !without.empty())
            throw usage_error(file + ": the test uses " + lse + ", an LSE instruction (Armv8.1), and these cores have no LSE: " +
                              without + " (expected a platform or --cores with LSE, e.g. --platform dynamiq_4xa55_4xa75)");
    const observation r = observe(test, file, platform_file, overrides, o);
    const auto& counts = r.counts;
    const std::uint64_t pos = r.pos, neg = r.neg, filtered_out = r.filtered_out;
    const bool validated = r.validated;
    const std::string& observation = r.verdict;
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
        for (const auto& bp : r.plans) placements.push_back(bp.cores);
        j["placements"] = placements;
        write_file_atomic(json_file, j.dump(2) + "\n");
    }
    return check && !agrees ? exit_failure : exit_ok;
}

}  // namespace cohsim

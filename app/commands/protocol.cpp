// `cohsim protocol`: see its help text below.
#include "app/commands/common.h"

#include <boost/program_options.hpp>

#include <filesystem>
#include <iostream>

#include "app/murphi.h"
#include "app/results.h"
#include "models/coherence_protocol.h"
#include "sim/files.h"

namespace po = boost::program_options;

namespace cohsim {

// ---- protocol -------------------------------------------------------------

const char* const protocol_help = R"(usage: cohsim protocol [--table cache|home|transactions] [--counts RUN_DIR|RESULT_JSON]
       cohsim protocol --murphi [--caches N] [--lines N | --granules N] [--broadcast] [--far-atomics]
                              [--mutate CELL]...

Prints the MOESI protocol exactly as the simulator implements it, generated
from its tables (models/coherence_protocol.cpp), as Markdown: the cache
controller (one row per state, stable and transient, one column per event:
the core's requests, snoops, grants) and the home at the point of
serialisation (one row per home state, one column per request as the home
classifies it). A cell reads NEXT: actions, "stall" (the event waits), or
"—" (impossible: the simulator stops with a protocol error). State and event
names follow Sorin, Hill and Wood's Primer on Memory Consistency and Cache
Coherence.

With --counts, each cell also shows how often a run executed it (xN), from
the run's result.json ("protocol_transitions").

With --murphi, prints instead a Murphi model of the protocol generated from
the same tables, for an exhaustive check by a model checker (Debian's rumur):
N caches, lines of reservation granules holding one of two values, FIFO
channels with arbitrary delays, the home's blocking and records, loads,
stores, exclusives, PRFM PST, full-line writes (DC ZVA: MakeU), evictions and
CLREX, and the exclusive monitor
as the protocol keeps it; with --far-atomics, LSE atomics performed at the
home (a GetM snooping every copy, the requester's too; the home performs
the operation and returns the old value). It checks single writer /
multiple readers, the data values, the home's records, the store-exclusive
rule (success only if no other observer wrote the granule since the
load-exclusive) and that every state can drain (no deadlock). scripts/model-check.sh runs the whole check.
--mutate replaces one cache-table cell, to see what the checker finds when a
cell is wrong: CELL is cache:STATE:EVENT=NEXT[+ACTION...], =stall or
=impossible; actions: hit, send_GetS, send_GetM, send_Upg, send_PutS,
send_PutE, send_PutO, send_PutM, drop, snp_ack, snp_clean, snp_dirty, unblock.

examples:
  cohsim protocol > protocol.md
  cohsim protocol --table home
  cohsim run --out runs/a -q && cohsim protocol --counts runs/a/result.json
  cohsim protocol --murphi --caches 3 --lines 1 --granules 2 > moesi.m
  rumur --output moesi.c moesi.m && cc -std=gnu11 -O2 -o moesi moesi.c -lpthread && ./moesi
  cohsim protocol --murphi --mutate cache:S:Inv=S+snp_ack > broken.m   (a sharer ignores Inv)
)";

int cmd_protocol(const std::vector<std::string>& args) {
    std::string counts_file, table = "all";
    std::vector<std::string> mutations;
    std::string caches = "3", lines, granules;
    po::options_description d("options");
    d.add_options()  //
        ("murphi", "print a Murphi model of the protocol for a model checker (rumur)")  //
        ("caches", po::value(&caches)->value_name("N"), "--murphi: caches in the model, 2 to 8 (default 3)")  //
        ("lines", po::value(&lines)->value_name("N"), "--murphi: lines, 1 to 4 (default 2, or 1 with --granules)")  //
        ("granules", po::value(&granules)->value_name("N"),
         "--murphi: reservation granules per line, 1 to 4 (default 1)")  //
        ("broadcast", "--murphi: broadcast snoops (CCI-400) instead of a snoop filter")  //
        ("far-atomics", "--murphi: atomics on a line the cache cannot write are performed at the home")  //
        ("mutate", po::value(&mutations)->value_name("CELL"),
         "--murphi: replace a cache-table cell, cache:STATE:EVENT=NEXT[+ACTION...] (repeatable)")  //
        ("table", po::value(&table)->value_name("NAME"),
         "print only one table, without headings: cache, home or transactions (default: the whole document)")  //
        ("counts", po::value(&counts_file)->value_name("RUN_DIR"), "show how often a run executed each cell (a run's --out folder, or its result.json)");
    add_help_option(d);
    const parsed_args p = parse_args(args, d);
    if (p.vm.count("help")) {
        std::cout << protocol_help;
        return exit_ok;
    }
    if (!p.positional.empty()) throw usage_error("protocol takes no positional argument ('" + p.positional[0] + "')");
    if (p.vm.count("murphi")) {
        if (p.vm.count("table") || p.vm.count("counts")) throw usage_error("--murphi prints a model: it takes no --table or --counts");
        murphi_options o;
        o.caches = static_cast<int>(parse_count(caches, "--caches", 2, 8));
        o.granules = granules.empty() ? 1 : static_cast<int>(parse_count(granules, "--granules", 1, 4));
        o.lines = !lines.empty() ? static_cast<int>(parse_count(lines, "--lines", 1, 4)) : granules.empty() ? 2 : 1;
        o.broadcast = p.vm.count("broadcast") > 0;
        o.far_atomics = p.vm.count("far-atomics") > 0;
        for (const auto& text : mutations) {
            try {
                add_mutation(o, text);
            } catch (const std::invalid_argument& e) {
                throw usage_error(e.what());
            }
        }
        std::cout << murphi_model(o);
        return exit_ok;
    }
    for (const char* only : {"caches", "lines", "granules", "broadcast", "far-atomics", "mutate"})
        if (p.vm.count(only)) throw usage_error(std::string("--") + only + " belongs to --murphi");
    if (table != "all" && table != "cache" && table != "home" && table != "transactions")
        throw usage_error("--table " + table + ": no such table (expected cache, home or transactions)");
    protocol::cache_counts cc{};
    protocol::home_counts hc{};
    const bool with_counts = !counts_file.empty();
    if (with_counts) {
        if (!std::filesystem::exists(counts_file)) throw usage_error("--counts " + counts_file + ": no such file");
        // A run's folder (`cohsim run --out DIR`) stands for its result.json.
        if (std::filesystem::is_directory(counts_file)) {
            const std::string inside = (std::filesystem::path(counts_file) / "result.json").string();
            if (!std::filesystem::exists(inside))
                throw usage_error("--counts " + counts_file + ": a folder without result.json (expected the --out folder of "
                                  "`cohsim run`, or its result.json)");
            counts_file = inside;
        }
        json j;
        try {
            j = json::parse(read_file(counts_file));
        } catch (const json::exception& e) {
            throw usage_error("--counts " + counts_file + ": not a result of cohsim run (it is not valid JSON: " +
                              std::string(e.what()).substr(std::string(e.what()).find(' ') + 1) +
                              "; expected the result.json that `cohsim run --out DIR` writes)");
        }
        if (!j.contains("protocol_transitions"))
            throw usage_error("--counts " + counts_file + ": no \"protocol_transitions\" (expected a result.json of cohsim run)");
        const json& t = j["protocol_transitions"];
        counts_from_json<protocol::cstate, protocol::cevent>(t.value("cache", json::object()), cc);
        counts_from_json<protocol::hstate, protocol::hevent>(t.value("home", json::object()), hc);
    }
    if (table == "cache") std::cout << protocol::cache_table_markdown(with_counts ? &cc : nullptr);
    if (table == "home") std::cout << protocol::home_table_markdown(with_counts ? &hc : nullptr);
    if (table == "transactions") std::cout << protocol::transaction_table_markdown();
    if (table != "all") return exit_ok;
    std::cout << "# The MOESI protocol of cohsim " << version << "\n\n"
              << "## Cache controller (every L1)\n\n"
              << protocol::cache_table_markdown(with_counts ? &cc : nullptr) << "\n"
              << "## Home (point of serialisation: the SCU, the DSU or the interconnect)\n\n"
              << protocol::home_table_markdown(with_counts ? &hc : nullptr) << "\n"
              << "## Home transactions (one per line at a time: requests meeting a busy line wait)\n\n"
              << protocol::transaction_table_markdown();
    return exit_ok;
}

}  // namespace cohsim

// End-to-end, `cohsim plot`: a run's and a sweep's figures.
#include "e2e/cli_fixture.h"

// `cohsim plot`: PNG and SVG of the wait histograms and shares; the same
// results give byte-identical SVGs; a missing result is a clear error.
TEST_F(Cli, PlotDrawsPngAndSvg) {
    ASSERT_EQ(run({"run", "--duration", "2ms", "-q", "--out", "r"}).status, 0);
    const auto p = run({"plot", "r"});
    ASSERT_EQ(p.status, 0) << p.err;
    for (const char* f : {"wait_histogram", "share"}) {
        const std::string png = slurp(m_dir / "r" / (std::string(f) + ".png"));
        EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << f;
        const std::string svg = slurp(m_dir / "r" / (std::string(f) + ".svg"));
        EXPECT_NE(svg.find("<svg"), std::string::npos) << f;
        EXPECT_NE(svg.find("big.3"), std::string::npos) << f;  // the core is labelled
    }
    const std::string first = slurp(m_dir / "r" / "share.svg");
    ASSERT_EQ(run({"plot", "r", "--out", "again"}).status, 0);
    EXPECT_EQ(slurp(m_dir / "again" / "share.svg"), first);
    // The titles and bars name the clocks the run used, not the description's.
    ASSERT_EQ(run({"run", "--duration", "2ms", "-q", "--out", "f", "--set", "clusters.little.freq=1248MHz"}).status, 0);
    ASSERT_EQ(run({"plot", "f"}).status, 0);
    for (const char* f : {"wait_histogram", "share"}) {
        const std::string svg = slurp(m_dir / "f" / (std::string(f) + ".svg"));
        EXPECT_NE(svg.find("little 1.248 GHz, big 1.8 GHz"), std::string::npos) << f;
    }
    EXPECT_NE(slurp(m_dir / "f" / "share.svg").find("1.248 GHz"), std::string::npos);
    // A thread's cpu_relax other than yield is in the title: the yield and wfe_backoff plots differ.
    ASSERT_EQ(run({"run", "--duration", "2ms", "-q", "--out", "w", "--set", "workload.threads.1.cpu_relax=wfe_backoff"}).status, 0);
    ASSERT_EQ(run({"plot", "w"}).status, 0);
    EXPECT_NE(slurp(m_dir / "w" / "share.svg").find("big.3 wfe_backoff"), std::string::npos);
    EXPECT_EQ(slurp(m_dir / "f" / "share.svg").find("wfe_backoff"), std::string::npos);
    // The interpreter comes from $COHSIM_PYTHON when set (not a path compiled in).
    setenv("COHSIM_PYTHON", "/nonexistent/python3", 1);
    const auto np = run({"plot", "w"});
    unsetenv("COHSIM_PYTHON");
    EXPECT_NE(np.status, 0);
    EXPECT_NE(np.err.find("cannot run /nonexistent/python3"), std::string::npos) << np.err;
    const auto bad = run({"plot", "nowhere"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("nowhere/result.json: no such file"), std::string::npos) << bad.err;
}

TEST_F(Cli, PlotOfASweepDrawsAHeatmapAndLines) {
    ASSERT_EQ(run(with(small_sweep, {"--out", "s"})).status, 0);
    const auto h = run({"plot", "s", "--x", "clusters.little.freq", "--y", "workload.threads.1.cpu_relax", "--metric", "share"});
    ASSERT_EQ(h.status, 0) << h.err;
    EXPECT_EQ(slurp(m_dir / "s" / "sweep_share.png").substr(0, 4), std::string("\x89PNG", 4));
    EXPECT_NE(slurp(m_dir / "s" / "sweep_share.svg").find("<svg"), std::string::npos);
    const auto l = run({"plot", "s", "--x", "clusters.little.freq", "--metric", "acquisitions", "--core", "big.3"});
    ASSERT_EQ(l.status, 0) << l.err;
    EXPECT_TRUE(fs::exists(m_dir / "s" / "sweep_acquisitions_lines.svg"));
    // The lines of the heatmap's metric do not overwrite the heatmap.
    const std::string heat = slurp(m_dir / "s" / "sweep_share.svg");
    ASSERT_EQ(run({"plot", "s", "--x", "clusters.little.freq", "--metric", "share"}).status, 0);
    EXPECT_EQ(slurp(m_dir / "s" / "sweep_share.svg"), heat);
    EXPECT_TRUE(fs::exists(m_dir / "s" / "sweep_share_lines.svg"));
    const auto bad = run({"plot", "s", "--x", "run.seed", "--metric", "share"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--x/--y run.seed: not a swept path (swept: clusters.little.freq, workload.threads.1.cpu_relax)"),
              std::string::npos)
        << bad.err;
    // Two swept paths and no --x: which one goes along x is asked, not guessed.
    const auto which = run({"plot", "s"});
    EXPECT_EQ(which.status, 2);
    EXPECT_NE(which.err.find("say which goes along x with --x (swept: clusters.little.freq, workload.threads.1.cpu_relax)"),
              std::string::npos)
        << which.err;
    // One swept path: it goes along x without being named.
    ASSERT_EQ(run({"sweep", "--vary", "clusters.little.freq=832MHz,1248MHz", "--set", "run.duration=2ms", "--out", "one"}).status, 0);
    const auto one = run({"plot", "one"});
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_NE(slurp(m_dir / "one" / "sweep_share_lines.svg").find("<svg"), std::string::npos);
}

// ---- plots for every run (finding 6) ---------------------------------------

TEST_F(Cli, PlotsStayBoundedForManyCoresAndShowTrafficWithoutLocks) {
    std::string cfg = "clusters:\n  a: {freq: 2GHz, cores: 256, core: cortex-a55}\n  b: {freq: 2GHz, cores: 256, core: cortex-a55}\n"
                      "timer: {freq: 25MHz, evnti: 8}\ninterconnect: {freq: 1GHz}\nrun: {duration: 20us}\n"
                      "workload:\n  program: locks/ticket_lse.s\n  threads:\n";
    for (const char* c : {"a", "b"})
        for (int i = 0; i < 256; ++i) cfg += "    - {core: " + std::string(c) + "." + std::to_string(i) + "}\n";
    write("many.yaml", cfg);
    ASSERT_EQ(run({"run", "many.yaml", "-q", "--out", "m"}).status, 0);
    const auto p = run({"plot", "m"});
    ASSERT_EQ(p.status, 0) << p.err;
    for (const char* f : {"share", "wait_histogram", "lines"}) {
        const std::string png = slurp(m_dir / "m" / (std::string(f) + ".png"));
        ASSERT_GE(png.size(), 24u) << f;
        // PNG width: bytes 16..19 of the IHDR chunk, big-endian.
        const unsigned w = (static_cast<unsigned char>(png[16]) << 24) | (static_cast<unsigned char>(png[17]) << 16) |
                           (static_cast<unsigned char>(png[18]) << 8) | static_cast<unsigned char>(png[19]);
        EXPECT_LE(w, 1920u) << f;
        EXPECT_GE(w, 600u) << f;
    }
    // 512 cores: the legend names the clusters, not each core.
    const std::string svg = slurp(m_dir / "m" / "wait_histogram.svg");
    EXPECT_NE(svg.find("a: 256 cores"), std::string::npos);
    EXPECT_EQ(svg.find("a.17 @"), std::string::npos);
    // False sharing takes no lock: the traffic of its line and its regions, no empty share plot.
    ASSERT_EQ(run({"run", "teaching/false_sharing.yaml", "--duration", "1ms", "-q", "--out", "f"}).status, 0);
    ASSERT_EQ(run({"plot", "f"}).status, 0);
    EXPECT_FALSE(fs::exists(m_dir / "f" / "share.png"));
    EXPECT_NE(slurp(m_dir / "f" / "lines.svg").find("counters"), std::string::npos);
    EXPECT_NE(slurp(m_dir / "f" / "regions.svg").find("increments"), std::string::npos);
}

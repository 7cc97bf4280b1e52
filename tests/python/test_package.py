"""The Python package (python/cohsim): runs through the binary ($COHSIM) and
reads every kind of output directory. Expected values are invariants (shares
sum to 1, bands hold their medians) or what the files say, read
independently with json and csv."""

import csv
import json
import os
import shutil
import tempfile
import unittest

import cohsim


class Package(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="cohsim-py-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def out(self, name):
        return os.path.join(self.tmp, name)

    def test_run_gives_the_result_file_as_tables(self):
        r = cohsim.run(set={"clusters.little.freq": "1248MHz", "run.seed": 3}, duration="2ms", out=self.out("run"))
        with open(os.path.join(self.out("run"), "result.json")) as f:
            j = json.load(f)
        self.assertEqual(r.config["clusters"]["little"]["freq"], "1.248GHz")
        self.assertEqual(r.seed, 3)
        cores = r.cores
        self.assertEqual(list(cores.index), [c["id"] for c in j["cores"]])
        contenders = cores[cores["verdict"].notna()]
        self.assertEqual(sorted(contenders.index), ["big.3", "little.2"])
        self.assertAlmostEqual(contenders["share"].sum(), 1.0, places=6)
        for cid in contenders.index:
            lock = next(c for c in j["cores"] if c["id"] == cid)["lock"]
            self.assertEqual(contenders.loc[cid, "acquisitions"], lock["acquisitions"])
            self.assertAlmostEqual(contenders.loc[cid, "acq_per_s"], lock["acquisitions"] / (j["simulated_ns"] * 1e-9))
        self.assertGreater(len(r.lines), 0)
        # load() finds the same run
        self.assertEqual(cohsim.load(self.out("run")).result, j)

    def test_sweep_with_members_gives_bands(self):
        s = cohsim.sweep(vary={"clusters.little.freq": ["832MHz", "1248MHz"]}, members=3, set={"run.duration": "2ms"},
                         jobs=2, out=self.out("sweep"))
        self.assertEqual(s.axes, ["clusters.little.freq"])
        res = s.results
        self.assertEqual(len(res), 4)  # 2 points x 2 contending cores
        for _, row in res.iterrows():
            self.assertLessEqual(row["acq_per_s_p5"], row["acq_per_s"])
            self.assertLessEqual(row["acq_per_s"], row["acq_per_s_p95"])
            self.assertAlmostEqual(sum(row[c] for c in res.columns if c.startswith("p_")), 1.0)
        with open(os.path.join(self.out("sweep"), "members.csv")) as f:
            self.assertEqual(len(s.members), len(list(csv.DictReader(f))))
        self.assertEqual(len(s.points), 6)
        self.assertIsInstance(cohsim.load(self.out("sweep")), cohsim.Sweep)
        self.assertEqual(s.run(5).seed, 3)  # point 1's member 2: seed 1 + 2

    def test_predict_gives_bands_members_and_caveats(self):
        p = cohsim.predict(members=4, duration="2ms", jobs=2, out=self.out("predict"))
        cores = p.cores
        self.assertEqual(sorted(cores.index), ["big.3", "little.2"])
        for _, row in cores.iterrows():
            self.assertLessEqual(row["share_p5"], row["share_p50"])
            self.assertLessEqual(row["share_p50"], row["share_p95"])
        self.assertEqual(len(p.members), 4)
        self.assertTrue(any("with 4 members" in c for c in p.caveats))
        self.assertIsInstance(cohsim.load(self.out("predict")), cohsim.Prediction)

    def test_compare_gives_both_sides_and_what_differs(self):
        a = cohsim.run(duration="2ms", out=self.out("cmp-a"))
        b = cohsim.run(set={"clusters.little.freq": "1800MHz"}, duration="2ms", out=self.out("cmp-b"))
        same = cohsim.compare(a, self.out("cmp-a"))
        self.assertEqual(sorted(same["core"]), ["big.3", "little.2"])
        self.assertTrue((same["differs"] == "").all())
        self.assertTrue((same["rate_a"] == same["rate_b"]).all())
        d = cohsim.compare(a, b).set_index("core")
        for side, run in (("a", a), ("b", b)):
            for cid in d.index:
                lock = next(c for c in run.result["cores"] if c["id"] == cid)["lock"]
                self.assertAlmostEqual(d.loc[cid, f"rate_{side}"], lock["acquisitions"] / (run.simulated_ns * 1e-9))
                self.assertEqual(d.loc[cid, f"verdict_{side}"], lock["verdict"])
        # the starved little core at 832 MHz is not starved at the big core's clock: a changed verdict, flagged
        self.assertEqual(d.loc["little.2", "verdict_a"], "STARVED")
        self.assertNotEqual(d.loc["little.2", "verdict_b"], "STARVED")
        self.assertIn("verdict", d.loc["little.2", "differs"])

    def test_errors_say_what_is_wrong(self):
        with self.assertRaises(cohsim.CohsimError) as e:
            cohsim.run(set={"clusters.little.freqq": "1GHz"}, duration="1ms", out=self.out("bad"))
        self.assertEqual(e.exception.status, 2)
        self.assertIn("clusters.little.freqq", str(e.exception))
        with self.assertRaises(FileNotFoundError) as f:
            cohsim.load(self.out("nothing-here"))
        self.assertIn("no such directory", str(f.exception))


if __name__ == "__main__":
    unittest.main()

"""Every output file against its documented JSON schema (docs/schemas/):
each command run small, its file validated (jsonschema, Draft 2020-12); and a
file with a required key taken away or a value of the wrong kind fails, so
the schemas say something."""

import copy
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import jsonschema

import cohsim

SCHEMAS = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "schemas")


def schema(name):
    with open(os.path.join(SCHEMAS, name + ".schema.json")) as f:
        s = json.load(f)
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)


class Schemas(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="cohsim-schemas-")
        b = cohsim.binary()

        def run(*args):
            subprocess.run([b, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cls.tmp)

        run("run", "--duration", "2ms", "-q", "--out", "run")
        run("sweep", "--vary", "clusters.little.freq=832MHz,1248MHz", "--members", "2", "--set", "run.duration=1ms",
            "--out", "sweep")
        run("predict", "-n", "3", "--duration", "1ms", "--out", "predict")
        run("c2c", "asr_4xa53_4xa73", "--cores", "little.0,big.0", "--duration", "10us", "--out", "c2c")
        run("latmem", "asr_4xa53_4xa73", "--sizes", "16KiB", "--loads", "64", "--out", "latmem")
        run("litmus", "mp.litmus", "--batches", "2", "--iterations", "10", "--json", "litmus.json")
        run("litmus", "mp.litmus", "lse-cas.litmus", "--platforms", "asr_4xa53_4xa73", "--batches", "1",
            "--iterations", "10", "--json", "litmus-platforms.json")
        run("validate", "--quick", "-j", "1", "--out", "validate")
        run("compare", "run", "predict", "--json", "compare.json")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def load(self, rel):
        with open(os.path.join(self.tmp, rel)) as f:
            return json.load(f)

    def test_every_output_follows_its_schema(self):
        for name, rel in [("result", "run/result.json"), ("sweep", "sweep/sweep.json"),
                          ("prediction", "predict/prediction.json"), ("sweep", "predict/sweep.json"),
                          ("c2c", "c2c/c2c.json"), ("latmem", "latmem/latmem.json"), ("litmus", "litmus.json"),
                          ("litmus-platforms", "litmus-platforms.json"), ("compare", "compare.json"),
                          ("validate", "validate/validate.json"), ("result", "sweep/points/0000/result.json")]:
            with self.subTest(file=rel):
                errors = sorted(schema(name).iter_errors(self.load(rel)), key=str)
                self.assertEqual(errors, [], f"{rel}: {[e.message for e in errors]}")

    def test_a_schema_rejects_what_it_does_not_describe(self):
        r = self.load("run/result.json")
        v = schema("result")
        no_cores = copy.deepcopy(r)
        del no_cores["cores"]
        self.assertFalse(v.is_valid(no_cores))
        bad_verdict = copy.deepcopy(r)
        next(c for c in bad_verdict["cores"] if "lock" in c)["lock"]["verdict"] = "unfair-ish"
        self.assertFalse(v.is_valid(bad_verdict))
        p = self.load("predict/prediction.json")
        no_band = copy.deepcopy(p)
        del no_band["cores"][0]["share"]["p95"]
        self.assertFalse(schema("prediction").is_valid(no_band))
        lit = self.load("litmus.json")
        lit["observation"] = "Rarely"
        self.assertFalse(schema("litmus").is_valid(lit))
        cells = self.load("litmus-platforms.json")
        self.assertIsNone(cells["cells"][1]["observation"])  # lse-cas on Armv8.0 cores: n/a, with its reason
        del cells["cells"][1]["reason"]
        self.assertFalse(schema("litmus-platforms").is_valid(cells))


if __name__ == "__main__":
    unittest.main()

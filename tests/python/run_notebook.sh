#!/bin/sh
# Executes an example notebook as a user would (jupyter nbconvert --execute,
# Debian's python3-nbconvert and python3-ipykernel), in a scratch directory so
# that what it writes stays out of the tree; fails when a cell fails.
# Usage: run_notebook.sh NOTEBOOK [FILE...]: each FILE must exist after
# (what the notebook writes); PYTHONPATH and COHSIM come from the test.
set -eu
nb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$nb" "$tmp/"
cd "$tmp"
name=$(basename "$nb")
PYDEVD_DISABLE_FILE_VALIDATION=1 /usr/bin/python3 -m nbconvert --to notebook --execute --ExecutePreprocessor.timeout=600 \
    --output executed.ipynb "$name"
# Every code cell ran (has an execution count) and none holds an error.
/usr/bin/python3 - executed.ipynb <<'PY'
import json, sys
nb = json.load(open(sys.argv[1]))
code = [c for c in nb["cells"] if c["cell_type"] == "code"]
assert code and all(c["execution_count"] for c in code), "a code cell did not run"
errors = [o for c in code for o in c["outputs"] if o.get("output_type") == "error"]
assert not errors, errors
print(f"{len(code)} code cells ran")
PY
for f in "$@"; do
  test -s "$f" || { echo "FAIL: the notebook wrote no $f" >&2; exit 1; }
done

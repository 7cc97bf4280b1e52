#!/bin/sh
# Replaces the parameter table in README.md with `cohsim params --markdown`.
# Usage: sh scripts/update-readme-params.sh [path/to/cohsim]
set -eu
cd "$(dirname "$0")/.."
bin=${1:-build/cohsim}
table=$(mktemp)
"$bin" params --markdown > "$table"
python3 - "$table" <<'PY'
import sys
table = open(sys.argv[1]).read()
readme = open("README.md").read()
start = readme.index("| path | type | units | default | allowed | description |")
end = readme.index("\n\n", start) + 1
open("README.md", "w").write(readme[:start] + table + readme[end:])
PY
rm -f "$table"

#!/bin/sh
# `cohsim report`: one self-contained HTML page.
# Usage: report_render.sh COHSIM structure|browser
#   structure: the page of a run and of a sweep holds the verdicts, the
#              (a prediction's page its bands and verdict probabilities, a
#              c2c directory's its matrix and kinds of pair;
#              tables, inline SVG plots, the effective config and the
#              provenance, and nothing that needs the network or another
#              file (no script, no src/href outside the page).
#   browser:   headless Chromium renders the run's page: the screenshot is
#              not blank and the page logs no console message; a page with a
#              script error, rendered the same way, is caught (the check can
#              fail).
set -eu
cohsim=$1
mode=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }
# The interpreter with Debian's matplotlib (as cohsim plot finds it).
py=${COHSIM_PYTHON:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3 )}

"$cohsim" run --duration 2ms -q --out r
"$cohsim" report r > /dev/null
[ -s r/report.html ] || fail "no r/report.html"

if [ "$mode" = structure ]; then
  "$cohsim" sweep --set run.duration=1ms --vary clusters.little.freq=832MHz,1.8GHz -j 2 --out s > /dev/null 2>&1
  "$cohsim" report s --out s.html > /dev/null
  # A prediction's page: its bands and verdict probabilities, not a sweep's;
  # a c2c directory's: the matrix and the latency by kind of pair.
  "$cohsim" predict -n 4 -j 2 --duration 1ms --out p > /dev/null 2>&1
  "$cohsim" report p --out p.html > /dev/null
  "$cohsim" c2c dynamiq_4xa55_4xa75 --out c > /dev/null 2>&1
  "$cohsim" report c --out c.html > /dev/null
  "$py" - p.html c.html <<'PY'
import html.parser, sys
class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.text = [], []
    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
    def handle_data(self, d):
        self.text.append(d)
problems = []
for path, needles in ((sys.argv[1], ("cohsim prediction of", "Bands and verdicts", "little.2", "(95%:", "STARVED")),
                      (sys.argv[2], ("core-to-core latency", "By kind of pair", "same cluster", "little.0", "big.3"))):
    p = Page()
    p.feed(open(path).read())
    text = " ".join(p.text)
    if "svg" not in p.tags or "script" in p.tags:
        problems.append(f"{path}: no inline plot, or a script")
    for n in needles:
        if n not in text:
            problems.append(f"{path} lacks {n!r}")
    if "points done" in text:
        problems.append(f"{path} is a generic sweep page")
if problems:
    sys.exit("FAIL: " + "; ".join(problems))
PY
  "$py" - r/report.html s.html "$(cat r/result.json)" <<'PY'
import html.parser, json, sys

class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.links, self.text = [], [], []
    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k in ("src", "href") and v and not v.startswith("#"):
                self.links.append((tag, k, v))
    def handle_data(self, d):
        self.text.append(d)

def page(path):
    p = Page()
    p.feed(open(path).read())
    return p, " ".join(p.text)

result = json.loads(sys.argv[3])
run, text = page(sys.argv[1])
problems = []
if "script" in run.tags: problems.append("the run page has a <script>")
if run.links: problems.append(f"the run page links outside itself: {run.links[:3]}")
if run.tags.count("svg") < 2: problems.append(f"the run page has {run.tags.count('svg')} inline SVG plots, expected >= 2")
for c in result["cores"]:
    lock = c.get("lock", {})
    if "reason" in lock and lock["reason"] not in text:
        problems.append(f"the verdict reason of {c['id']} is missing: {lock['reason']}")
for needle in ("big.3", "lock", result["cohsim_commit"], result["command_line"], "clusters:", "Busiest lines"):
    if needle not in text: problems.append(f"the run page lacks {needle!r}")
sweep, stext = page(sys.argv[2])
if "script" in sweep.tags or sweep.links: problems.append("the sweep page is not self-contained")
if "svg" not in sweep.tags: problems.append("the sweep page has no plot")
for needle in ("clusters.little.freq", "832MHz", "1.8GHz", "2 of 2 points done", "STARVED"):
    if needle not in stext: problems.append(f"the sweep page lacks {needle!r}")
if problems:
    sys.exit("FAIL: " + "; ".join(problems))
PY
  echo "report structure OK"
  exit 0
fi

command -v chromium > /dev/null || fail "no chromium (scripts/setup.sh installs Debian's chromium)"
shot() {  # shot PAGE PNG LOG
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$tmp/profile-$2" \
    --enable-logging=stderr --v=0 --window-size=1200,1600 --screenshot="$tmp/$2" "file://$tmp/$1" > "$tmp/$3" 2>&1 || true
  [ -s "$tmp/$2" ] || { cat "$tmp/$3"; fail "chromium wrote no screenshot of $1"; }
}
shot r/report.html page.png page.log
if grep 'CONSOLE' page.log; then fail "the report logged console messages"; fi
"$py" - page.png <<'PY'
import sys
import matplotlib.image
img = matplotlib.image.imread(sys.argv[1])[:, :, :3]
dark = (img.mean(axis=2) < 0.6).mean()      # text, table rules, plot bars
coloured = (img.std(axis=2) > 0.15).mean()  # the verdict colours, the plots
if dark < 0.005 or coloured < 0.002:
    sys.exit(f"FAIL: the screenshot looks blank: {dark:.4f} dark, {coloured:.4f} coloured")
print(f"screenshot: {dark:.3f} dark, {coloured:.4f} coloured")
PY
# The console check can fail: a page with a script error is caught.
echo '<html><body>x<script>undefined_function();</script></body></html>' > bad.html
shot bad.html bad.png bad.log
grep -q 'CONSOLE.*undefined_function' bad.log || fail "a script error was not seen in chromium's log: the console check is blind"
echo "report renders OK"

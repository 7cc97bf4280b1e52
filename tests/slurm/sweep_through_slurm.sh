#!/bin/sh
# A sweep through a real Slurm on this machine: starts munged (if it is not
# running), then a one-node slurmctld and slurmd of our own (config, state,
# logs and ports in a temporary directory), submits `cohsim sweep --emit
# slurm`'s job array with sbatch --wait, merges, and checks that results.csv
# equals a local run of the same sweep byte for byte; then the same for an
# ensemble (`cohsim predict --emit slurm`, then --report). Needs root and the
# Debian packages slurm-wlm and munge (scripts/setup.sh installs them).
#   sh tests/slurm/sweep_through_slurm.sh COHSIM_BINARY
set -eu
cohsim=$(readlink -f "$1")
work=$(mktemp -d /tmp/cohsim-slurm.XXXXXX)
chmod 755 "$work"
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null || true; done
    sleep 1
    for p in $pids; do kill -9 "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
fail() {
    echo "slurm test: $*" >&2
    for f in "$work"/*.log; do [ -f "$f" ] && { echo "--- $f" >&2; tail -20 "$f" >&2; }; done
    exit 1
}
[ "$(id -u)" = 0 ] || fail "needs root (it starts munged, slurmctld and slurmd)"
for c in munged slurmctld slurmd sbatch sinfo; do
    command -v "$c" >/dev/null || [ -x "/usr/sbin/$c" ] || fail "$c not found: install slurm-wlm and munge (scripts/setup.sh)"
done

# munge: the package's key, a runtime directory, the daemon as the munge user.
[ -f /etc/munge/munge.key ] || { mungekey --create >/dev/null 2>&1 || fail "no /etc/munge/munge.key"; }
chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
mkdir -p /run/munge && chown munge:munge /run/munge
if ! munge -n 2>/dev/null | unmunge 2>/dev/null | grep -q 'STATUS: *Success'; then
    su -s /bin/sh munge -c /usr/sbin/munged || fail "munged did not start"
    sleep 1
    pids="$pids $(pgrep -x munged | head -1)"
fi
munge -n | unmunge | grep -q 'STATUS: *Success' || fail "munge does not work"

# A one-node Slurm of our own, on ports of our own.
host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
port=$((17000 + $$ % 1000))
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" <<CONF
ClusterName=cohsim
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CryptoType=crypto/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=cohsim Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
sleep 1
pids="$pids $(cat "$work/slurmctld.pid")"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
sleep 1
pids="$pids $(cat "$work/slurmd.pid")"
i=0
until sinfo -h -o '%T' 2>/dev/null | grep -q idle; do
    i=$((i + 1))
    [ $i -lt 60 ] || fail "the node never became idle: $(sinfo 2>&1)"
    sleep 1
done

# The sweep: through Slurm, then locally; the CSVs must be identical.
set -- --vary run.seed=1,2,3 --vary workload.threads.1.cpu_relax=yield,wfe_backoff --set run.duration=2ms
cd "$work"
"$cohsim" sweep "$@" --out "$work/s" --emit slurm > emit.log 2>&1 || fail "--emit slurm failed: $(cat emit.log)"
sbatch --wait "$work/s/sweep.sbatch" > sbatch.log 2>&1 || fail "the job array failed: $(cat sbatch.log; cat $work/s/points/slurm-*.out 2>/dev/null)"
"$cohsim" sweep --merge "$work/s" > merge.log 2>&1 || fail "merge failed: $(cat merge.log)"
"$cohsim" sweep "$@" --out "$work/local" > local.log 2>&1 || fail "the local sweep failed"
cmp "$work/s/results.csv" "$work/local/results.csv" || fail "results.csv through Slurm differs from the local one"
[ "$(grep -c '' "$work/s/results.csv")" -eq 13 ] || fail "expected 6 points x 2 busy cores + a header"
echo "slurm test: 6 points through a Slurm job array; results.csv equals the local run's"

# An ensemble (cohsim predict) the same way: the report through Slurm equals the local one.
set -- -n 4 --duration 2ms
"$cohsim" predict "$@" --out "$work/p" --emit slurm > pemit.log 2>&1 || fail "predict --emit slurm failed: $(cat pemit.log)"
sbatch --wait "$work/p/predict.sbatch" > psbatch.log 2>&1 || fail "the predict job array failed: $(cat psbatch.log; cat $work/p/points/slurm-*.out 2>/dev/null)"
"$cohsim" predict --report "$work/p" > preport.log 2>&1 || fail "predict --report failed: $(cat preport.log)"
"$cohsim" predict "$@" --out "$work/plocal" > plocal.log 2>&1 || fail "the local predict failed"
cmp "$work/p/prediction.json" "$work/plocal/prediction.json" || fail "prediction.json through Slurm differs from the local one"
cmp "$work/p/members.csv" "$work/plocal/members.csv" || fail "members.csv through Slurm differs from the local one"
echo "slurm test: a 4-member ensemble through a Slurm job array; its report equals the local one"

#!/usr/bin/env bash
# slurm-test.sh: procgen's --shard on a real Slurm cluster of one host.
#
# Installs Debian's slurmctld, slurmd, slurm-client and munge, starts munged,
# slurmctld and slurmd (one node with every CPU of this host) under a private
# slurm.conf, then submits six job arrays and checks them against one-process
# runs, byte for byte:
#   1. flame render over a genome folder, 3 tasks (--array=0-2): the union of
#      the tasks' images is the single run's folder;
#   2. one still from 3 tasks (--array=1-3, so SLURM_ARRAY_TASK_MIN counts):
#      each writes a .accum part, flame merge finishes them, and the image is
#      the one-shot render's;
#   3. flame animate, 10 frames over 4 tasks into one frame pattern;
#   4. rules run, 25 states over 3 tasks (-o part.%d.csv): the header and the
#      parts' rows are the single run's CSV;
#   5. lsys derive over configs/lsys/ and pga city over configs/pga/, 3 tasks
#      each (-o DIR/%s.obj): the union of the tasks' files is the single run's.
# No --shard is passed: the tasks read SLURM_ARRAY_TASK_ID/COUNT/MIN.
#
# Skips (exit 0, "SKIP: ...") where it cannot run: not root, no apt-get or
# dpkg, the packages cannot be installed, or the daemons do not come up
# (containers without the privileges slurmd wants). SLURM_TEST_STRICT=1 turns
# a skip into a failure (for CI jobs that must prove it). Daemons it started
# are stopped on exit; packages stay installed.
#
# Environment: PROCGEN (a procgen binary; default: go build ./cmd/procgen),
# SLURM_TEST_PORT (slurmctld's port, slurmd's is the next; default 16817),
# SLURM_TEST_TIMEOUT (seconds for each job array; default 300).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
PORT=${SLURM_TEST_PORT:-16817}
TIMEOUT=${SLURM_TEST_TIMEOUT:-300}

skip() {
	if [ "${SLURM_TEST_STRICT:-0}" = 1 ]; then
		echo "FAIL (SLURM_TEST_STRICT=1): $*" >&2
		exit 1
	fi
	echo "SKIP: $*"
	exit 0
}
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || skip "not root: slurmctld, slurmd and munged need it (and apt-get to install them)"
command -v apt-get >/dev/null && command -v dpkg >/dev/null || skip "no apt-get/dpkg: not a Debian-like system"

PKGS="slurmctld slurmd slurm-client munge"
missing=""
for p in $PKGS; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	if ! { apt-get install -y --no-install-recommends $missing >/dev/null 2>&1 ||
		{ apt-get update >/dev/null 2>&1 && apt-get install -y --no-install-recommends $missing >/dev/null 2>&1; }; }; then
		skip "apt-get could not install$missing (offline?)"
	fi
fi

W=$(mktemp -d /tmp/procgen-slurm.XXXXXX)
chmod 755 "$W"
PIDS=()
cleanup() {
	local rc=$?
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	if [ $rc != 0 ] && [ -d "$W" ]; then
		for f in "$W"/*.log; do
			[ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; } >&2
		done
	fi
	rm -rf "$W"
	exit $rc
}
trap cleanup EXIT

if [ -n "${PROCGEN:-}" ]; then
	cp "$PROCGEN" "$W/procgen"
else
	CGO_ENABLED=0 go build -o "$W/procgen" ./cmd/procgen
fi
PG="$W/procgen --device cpu -q"

# munge: a private key and socket, so a system munged (if any) is untouched.
mkdir -p "$W/munge"
dd if=/dev/urandom of="$W/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$W/munge"
chmod 400 "$W/munge/munge.key"
SOCK="$W/munge/munge.socket"
/usr/sbin/munged --force --key-file="$W/munge/munge.key" --socket="$SOCK" \
	--pid-file="$W/munge/munged.pid" --log-file="$W/munged.log" --seed-file="$W/munge/seed" \
	|| skip "munged does not start (see $W/munged.log)"
MUNGE_PID=$(cat "$W/munge/munged.pid")
PIDS+=("$MUNGE_PID")

HOST=$(hostname -s)
CPUS=$(nproc)
mkdir -p "$W/state" "$W/spool"
export SLURM_CONF="$W/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=procgentest
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
AuthInfo=socket=$SOCK
CredType=cred/munge
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/slurmctld.log
SlurmdLogFile=$W/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MaxArraySize=1001
NodeName=$HOST CPUs=$CPUS State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -D -i >"$W/slurmctld.out.log" 2>&1 &
PIDS+=($!)
slurmd -D >"$W/slurmd.out.log" 2>&1 &
PIDS+=($!)

up=0
for _ in $(seq 60); do
	if sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
		up=1
		break
	fi
	sleep 1
done
[ $up = 1 ] || skip "the one-node cluster did not come up in 60 s (slurmctld/slurmd logs: $W)"
echo "cluster up: $(sinfo -h -o '%P %D nodes %c CPUs %T')"

run_array() { # run_array NAME ARRAY COMMAND: one job array, waited for
	local name=$1 array=$2 cmd=$3
	local t0=$SECONDS
	if ! timeout "$TIMEOUT" sbatch --wait --quiet --job-name="$name" --array="$array" \
		--cpus-per-task=1 --output="$W/$name-%a.log" --chdir="$W" --wrap="$cmd"; then
		cat "$W/$name"-*.log >&2 || true
		fail "job array $name ($array) failed or timed out"
	fi
	echo "job array $name ($array): $((SECONDS - t0)) s"
}

# 1. A genome folder: the union of the tasks' files is the one run's folder.
mkdir -p "$W/genomes"
cp testdata/flame/simple.flam3 "$W/genomes/a.flam3"
cp testdata/flame/heavy.flam3 "$W/genomes/b.flam3"
sed 's/FF4020/40A0FF/' testdata/flame/simple.flam3 >"$W/genomes/c.flam3"
sed 's/center="0.5 0.45"/center="0.4 0.4"/' testdata/flame/simple.flam3 >"$W/genomes/d.flam3"
sed 's/scale="500"/scale="300"/' testdata/flame/simple.flam3 >"$W/genomes/e.flam3"
$PG flame render "$W/genomes" --width 96 --quality 20 -o "$W/one"
run_array folder 0-2 "$W/procgen --device cpu flame render $W/genomes --width 96 --quality 20 -o $W/array"
diff -r "$W/one" "$W/array" >/dev/null || { diff -r "$W/one" "$W/array" >&2; fail "the array's images differ from the single run's"; }
n=$(ls "$W/array" | wc -l)
[ "$n" = 5 ] || fail "the array wrote $n images, want 5"
for i in 0 1 2; do # each task took its shard from Slurm's variables
	grep -q "shard $i/3 (from SLURM_ARRAY_TASK_ID)" "$W/folder-$i.log" || fail "task $i did not run shard $i/3"
done
echo "ok: genome folder over 3 tasks = one run (5 images, byte for byte)"

# 2. One still from 3 tasks with ids 1-3: parts, merge, equal to one shot.
$PG flame render testdata/flame/simple.flam3 --width 160 --quality 60 -o "$W/oneshot.png"
mkdir -p "$W/parts"
run_array still 1-3 "$W/procgen --device cpu -q flame render $ROOT/testdata/flame/simple.flam3 --width 160 --quality 60 -o $W/parts/part\$SLURM_ARRAY_TASK_ID.accum"
$PG flame merge "$W"/parts/part*.accum -o "$W/merged.png"
cmp "$W/oneshot.png" "$W/merged.png" || fail "the merged still differs from the one-shot render"
echo "ok: still from 3 accumulation parts (array 1-3) = one-shot render (byte for byte)"
# 3. Animation frames over 4 tasks, into one pattern.
cat >"$W/seq.flam3" <<'SEQ'
<animation>
<flame name="k0" time="0" size="48 36" center="0.5 0.45" scale="30" quality="50" supersample="2" filter="0.5"
       brightness="4" gamma="4" estimator_radius="3" temporal_samples="4" temporal_filter_type="gaussian">
   <xform weight="1" color="0" linear="1" coefs="0.5 0 0 0.5 0 0"/>
   <xform weight="1" color="0.5" linear="1" spherical="0.1" coefs="0.5 0 0 0.5 0.5 0"/>
   <xform weight="1" color="1" linear="1" coefs="0.5 0 0 0.5 0.25 0.5"/>
   <palette count="2" format="RGB">FF8020 2080FF</palette>
</flame>
<flame name="k1" time="4" size="48 36" center="0.5 0.45" scale="30" quality="50" supersample="2" filter="0.5"
       brightness="4" gamma="4" estimator_radius="3" temporal_samples="4" temporal_filter_type="gaussian">
   <xform weight="1" color="0" linear="1" coefs="0 0.5 -0.5 0 0 0"/>
   <xform weight="1" color="0.5" linear="1" spherical="0.1" coefs="0.5 0 0 0.5 0.5 0"/>
   <xform weight="1" color="1" linear="1" coefs="0.5 0 0 0.5 0.25 0.5"/>
   <xform weight="0.5" color="1" julia="1" coefs="0.3 0 0 0.3 0 0"/>
   <finalxform color="0" color_speed="0" linear="1" coefs="1 0 0 1 0.05 0"/>
   <palette count="2" format="RGB">20FF80 FF2080</palette>
</flame>
</animation>
SEQ
$PG flame animate "$W/seq.flam3" --quality 10 --end 9 -o "$W/frames-one/f%03d.png"
run_array frames 0-3 "$W/procgen --device cpu -q flame animate $W/seq.flam3 --quality 10 --end 9 -o $W/frames-array/f%03d.png"
diff -r "$W/frames-one" "$W/frames-array" >/dev/null || fail "the array's frames differ from the single run's"
echo "ok: 10 animation frames over 4 tasks = one run"

# 4. Rule states over 3 tasks: the header and the parts' rows = one run's CSV.
RULES="rules run $ROOT/configs/rules/sandpile.rules -D W=8 -D H=8 --generate 25 --until-fixpoint --steps 1000"
$PG $RULES -o "$W/rules-one.csv"
run_array rules 0-2 "$W/procgen --device cpu -q $RULES -o $W/rules-part.%d.csv"
{ head -n 1 "$W/rules-part.0.csv"; for i in 0 1 2; do tail -n +2 "$W/rules-part.$i.csv"; done; } >"$W/rules-union.csv"
cmp "$W/rules-one.csv" "$W/rules-union.csv" || fail "the array's rule states differ from the single run's"
echo "ok: 25 rule states over 3 tasks = one run's CSV"

# 5. Folders of L-systems and grammars over 3 tasks: one run's files.
LSYS="lsys derive $ROOT/configs/lsys -n 4"
$PG $LSYS -o "$W/lsys-one/%s.obj"
run_array lsys 0-2 "$W/procgen --device cpu -q $LSYS -o $W/lsys-array/%s.obj"
diff -r "$W/lsys-one" "$W/lsys-array" >/dev/null || fail "the array's L-system files differ from the single run's"
PGA="pga city $ROOT/configs/pga --grid 1x1"
$PG $PGA -o "$W/pga-one/%s.obj"
run_array pga 0-2 "$W/procgen --device cpu -q $PGA -o $W/pga-array/%s.obj"
diff -r "$W/pga-one" "$W/pga-array" >/dev/null || fail "the array's city files differ from the single run's"
echo "ok: L-system and grammar folders over 3 tasks = one run"
echo "PASS"

#!/bin/bash
# Brings up a one-node Slurm cluster on this Debian machine, runs a syncsim
# sweep on it as a job array (scripts/slurm/sweep.sbatch), merges the
# shards and checks that the merged CSV equals the same sweep run locally.
#
#   sudo scripts/slurm/local-cluster.sh          # up, check, down
#   sudo scripts/slurm/local-cluster.sh up       # install and start only
#   scripts/slurm/local-cluster.sh check [SHARDS] # any cluster sbatch reaches
#   sudo scripts/slurm/local-cluster.sh down     # stop what 'up' started
#
# 'up' installs slurmctld, slurmd, slurm-client and munge with apt-get,
# writes /etc/slurm/slurm.conf for one node with this machine's cores (as
# 'slurmd -C' reports them) and starts munged, slurmctld and slurmd without
# systemd. It refuses to touch a slurm.conf it did not write. 'check'
# needs a Go toolchain and runs from anywhere in the repository; it works
# under the directory given by SYNCSIM_CHECK_DIR (default: a new directory
# under the repository, which compute nodes of a real cluster share).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
conf=/etc/slurm/slurm.conf
mark="# written by syncsim scripts/slurm/local-cluster.sh"
state=/var/lib/syncsim-slurm

say() { printf '%s\n' "$*"; }

# running reports whether a live (not zombie) process is called $1.
running() { ps -C "$1" -o stat= 2>/dev/null | grep -qv '^Z'; }
die() { printf 'local-cluster: %s\n' "$*" >&2; exit 1; }

up() {
	[[ $(id -u) == 0 ]] || die "'up' needs root (apt-get, /etc/slurm, daemons)"
	if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
		say "installing slurmctld slurmd slurm-client munge"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurmctld slurmd slurm-client munge >/dev/null
	fi
	if [[ -e $conf ]] && ! grep -qF "$mark" "$conf"; then
		die "$conf exists and was not written by this script; not touching it"
	fi
	local node cpus
	node=$(hostname -s)
	# NodeName=... CPUs=... RealMemory=... of this machine, minus the uptime line.
	cpus=$(slurmd -C | head -1)
	mkdir -p /etc/slurm "$state/ctld" "$state/d" /var/log/slurm /run/munge
	cat >"$conf" <<CONF
$mark
ClusterName=syncsim-local
SlurmctldHost=$node
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
MaxArraySize=10001
$cpus State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
	say "wrote $conf: $cpus"
	# munged: the package's key, run as its own user.
	[[ -s /etc/munge/munge.key ]] || mungekey --create
	chown munge:munge /run/munge
	if ! running munged; then
		runuser -u munge -- /usr/sbin/munged
		say "started munged"
	fi
	if ! running slurmctld; then
		slurmctld -c
		say "started slurmctld"
	fi
	if ! running slurmd; then
		slurmd
		say "started slurmd"
	fi
	for _ in $(seq 60); do
		if sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then
			sinfo
			return 0
		fi
		sleep 1
	done
	sinfo -N -l >&2 || true
	die "the node did not come up within 60 s (see /var/log/slurm/)"
}

down() {
	[[ $(id -u) == 0 ]] || die "'down' needs root"
	[[ -e $conf ]] && grep -qF "$mark" "$conf" || die "no cluster started by this script ($conf)"
	for pidfile in "$state/slurmd.pid" "$state/slurmctld.pid"; do
		if [[ -s $pidfile ]]; then
			kill "$(cat "$pidfile")" 2>/dev/null || true
		fi
	done
	for _ in $(seq 30); do
		running slurmd || running slurmctld || break
		sleep 1
	done
	say "stopped slurmd and slurmctld (munged keeps running)"
}

# job_state prints the state of a job (COMPLETED, FAILED, ...).
job_state() {
	scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1
}

check() {
	local shards=${1:-3}
	command -v sbatch >/dev/null || die "sbatch is not on the PATH"
	sinfo -h >/dev/null 2>&1 || die "no Slurm controller answers (sinfo)"
	command -v go >/dev/null || die "'check' builds syncsim and needs go"
	local dir=${SYNCSIM_CHECK_DIR:-}
	if [[ -z $dir ]]; then
		dir=$(mktemp -d "$repo/.slurm-check-XXXXXX")
	fi
	mkdir -p "$dir"
	local bin=$dir/syncsim
	(cd "$repo" && go build -ldflags "-X main.commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)" -o "$bin" ./cmd/syncsim)
	cp "$here/study-incast.toml" "$dir/study.toml"
	cd "$dir"
	say "submitting: sbatch --array=0-$((shards - 1)) sweep.sbatch study.toml cluster.csv"
	local array
	array=$(SYNCSIM=$bin sbatch --parsable --array="0-$((shards - 1))" "$here/sweep.sbatch" study.toml cluster.csv)
	say "array job $array"
	local merge="" st
	for _ in $(seq 600); do
		[[ -z $merge && -s cluster.merge-job ]] && merge=$(cat cluster.merge-job) && say "merge job $merge (after the array)"
		if [[ -n $merge ]]; then
			st=$(job_state "$merge")
			case $st in
			COMPLETED) break ;;
			FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY)
				cat syncsim-*.out >&2 || true
				die "merge job $merge ended $st"
				;;
			esac
			if [[ -z $st && -s cluster.csv ]]; then break; fi
		fi
		sleep 1
	done
	[[ -s cluster.csv ]] || { cat syncsim-*.out >&2 || true; die "no merged cluster.csv after 600 s"; }
	say "array tasks: $(ls cluster.shard-*-of-$shards.csv | tr '\n' ' ')"
	sed -n '1p' cluster.csv.json >/dev/null
	"$bin" sweep --scenario study.toml --csv local.csv --quiet
	if cmp -s cluster.csv local.csv; then
		say "cluster.csv ($(($(wc -l <cluster.csv) - 1)) rows, merged from $shards shards) and local.csv are byte-identical"
		[[ -n ${SYNCSIM_CHECK_DIR:-} ]] || rm -rf "$dir"
	else
		diff cluster.csv local.csv | head >&2
		die "cluster.csv and local.csv differ (kept in $dir)"
	fi
}

case ${1:-all} in
up) up ;;
down) down ;;
check) shift; check "$@" ;;
all)
	up
	check "${2:-3}"
	down
	;;
*) die "usage: local-cluster.sh [up|check [SHARDS]|down|all]" ;;
esac

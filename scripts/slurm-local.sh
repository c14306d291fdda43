#!/usr/bin/env bash
# A real single-node SLURM on loopback for the launcher tests: installs slurm-wlm and munge when
# missing (idempotent apt), writes a private slurm.conf, starts munged, slurmctld and slurmd.
#   scripts/slurm-local.sh start   # prints `export SLURM_CONF=...` on success
#   scripts/slurm-local.sh stop
# State lives in $ROBOSTREAM_SLURM_DIR (default /tmp/robostream-slurm). Needs root (CI runs as
# root). Exit codes: 3 = SLURM or munge cannot be installed here (not root, apt failing): callers
# report "skipped"; any other failure (a daemon that does not start with the configuration written
# here, a node that never becomes idle) is 1 with the daemons' log tails: callers fail, since that
# is this script's fault until shown otherwise.
set -euo pipefail
dir="${ROBOSTREAM_SLURM_DIR:-/tmp/robostream-slurm}"
conf="$dir/slurm.conf"
node="$(hostname -s)"

install_missing() {
  local missing=()
  command -v slurmctld >/dev/null || missing+=(slurm-wlm)
  command -v munged >/dev/null || missing+=(munge)
  if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || { echo "slurm-local: need root to install ${missing[*]}" >&2; exit 3; }
    echo "slurm-local: installing ${missing[*]}" >&2
    apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null \
      || { echo "slurm-local: cannot install ${missing[*]}" >&2; exit 3; }
  fi
}

write_conf() {
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  local cpus mem
  cpus=$(nproc)
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024 ))
  cat > "$conf" <<CONF
ClusterName=robostream-local
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
}

start() {
  install_missing
  write_conf
  if [ ! -s /etc/munge/munge.key ]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    chmod 400 /etc/munge/munge.key
    chown munge:munge /etc/munge/munge.key 2>/dev/null || true
  fi
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
  if ! munge -n >/dev/null 2>&1; then
    (su -s /bin/sh munge -c munged 2>/dev/null || munged --force) \
      || fail "munged did not start"
  fi
  stop_daemons
  SLURM_CONF="$conf" slurmctld -f "$conf" || fail "slurmctld failed"
  SLURM_CONF="$conf" slurmd -f "$conf" -N "$node" || fail "slurmd failed"
  for _ in $(seq 1 60); do
    if SLURM_CONF="$conf" sinfo -h -o '%t' 2>/dev/null | grep -Eq '^(idle|mix|alloc)'; then
      echo "export SLURM_CONF=$conf"
      return 0
    fi
    sleep 0.5
  done
  SLURM_CONF="$conf" sinfo >&2 || true
  fail "the node did not become idle"
}

fail() {
  echo "slurm-local: $1; log tails from $dir/log:" >&2
  tail -n 20 "$dir"/log/*.log >&2 2>/dev/null || true
  exit 1
}

stop_daemons() {
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid"; do
    if [ -s "$pidfile" ]; then
      kill "$(cat "$pidfile")" 2>/dev/null || true
      rm -f "$pidfile"
    fi
  done
  sleep 0.5
}

case "${1:-}" in
  start) start ;;
  stop) stop_daemons ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac

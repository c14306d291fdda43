#!/usr/bin/env bash
# Two simulated hosts on this machine, for the cross-host tests (root only). Each node has its own
# network namespace, addresses, hostname (UTS namespace), /dev/shm (a private tmpfs in a mount
# namespace) and /etc/hosts; a third namespace stands in for the Hub (later steps run nginx there).
# Usage:
#   hosts.sh check              exit 0 when the rig can be made here; else 3 and the reason
#   hosts.sh start              makes the rig (removes an earlier run's leftovers first)
#   hosts.sh stop               removes everything start made, and every process inside; idempotent
#   hosts.sh exec N -- CMD...   runs CMD on node N (0, 1, or hub) in the current directory
#   hosts.sh env                the names and addresses below as NAME=value lines
# Networks (documentation ranges: never routed anywhere):
#   job  198.51.100.0/24  node0 .10, node1 .11: one veth pair; the ranks meet here
#   data 203.0.113.0/24   hub .1 (a bridge), node0 .10, node1 .11: the nodes reach the Hub here
# The hub is not on the job network: a namespace outside the job. A node's name resolves to its
# job address (/etc/hosts, as a cluster's hosts file or DNS does), except node 1's own name on
# node 1 (see hosts_file).
# State: ROBOSTREAM_HOSTS_DIR (default /tmp/robostream-hosts-NAME); one start or stop at a time
# (flock). ROBOSTREAM_HOSTS_NAME (default rs) prefixes the namespaces and host names (rs-node0...),
# so two rigs can live side by side (two developers' test runs on one machine).
set -euo pipefail
cmd=${1:?usage: hosts.sh check|start|stop|exec N -- CMD...|env}
rig=${ROBOSTREAM_HOSTS_NAME:-rs}
[[ $rig =~ ^[a-z][a-z0-9]{0,7}$ ]] || { echo "ROBOSTREAM_HOSTS_NAME: 1-8 of a-z0-9" >&2; exit 2; }
state=${ROBOSTREAM_HOSTS_DIR:-/tmp/robostream-hosts-$rig}
nodes=(node0 node1 hub)
declare -A job=([node0]=198.51.100.10 [node1]=198.51.100.11)
declare -A data=([node0]=203.0.113.10 [node1]=203.0.113.11 [hub]=203.0.113.1)

# Why the rig cannot be made here, or nothing.
problem() {
  [ "$(id -u)" = 0 ] || { echo "not root (network namespaces need CAP_SYS_ADMIN)"; return; }
  for tool in ip unshare nsenter flock mount; do
    command -v "$tool" >/dev/null || { echo "no $tool"; return; }
  done
  ip netns list >/dev/null 2>&1 || { echo "ip netns does not work"; return; }
  unshare --net --uts --mount true 2>/dev/null || { echo "unshare --net --uts --mount fails"; return; }
}

# Removes what start made, in any state a crash left it: processes, namespaces, mounts.
teardown() {
  for n in "${nodes[@]}"; do
    # Every process still in the namespace was started in the rig: a test's, or nginx.
    if [ -e "/run/netns/$rig-$n" ]; then
      pids=$(ip netns pids "$rig-$n" 2>/dev/null || true)
      [ -z "$pids" ] || kill -TERM $pids 2>/dev/null || true
      for _ in $(seq 30); do
        [ -z "$(ip netns pids "$rig-$n" 2>/dev/null)" ] && break
        sleep 0.1
      done
      pids=$(ip netns pids "$rig-$n" 2>/dev/null || true)
      [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
      ip netns del "$rig-$n" 2>/dev/null || true # its veth ends go with it, and so their peers
    fi
    for f in "$state/ns/$n.uts" "$state/ns/$n.mnt"; do
      mountpoint -q "$f" 2>/dev/null && umount "$f"
    done
  done
  if mountpoint -q "$state/ns" 2>/dev/null; then umount "$state/ns"; fi
  rm -rf "${state:?}/ns" "$state/node0" "$state/node1" "$state/hub"
}

# /etc/hosts of namespace $1: loopback, then every node's name at its job address; but node 1
# names itself 127.0.1.1, as Debian's installer writes it (and this machine's own file does the
# same with 127.0.0.1): whatever picks an interface by resolving the host name gets loopback there.
hosts_file() {
  printf '127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n'
  printf "%s $rig-node0\n" "${job[node0]}"
  if [ "$1" = node1 ]; then echo "127.0.1.1 $rig-node1"; else echo "${job[node1]} $rig-node1"; fi
  printf "%s $rig-hub\n" "${data[hub]}"
}

# Namespace $1's UTS and mount namespaces, kept by bind mounts (no process holds them): hostname
# $rig-$1, a private /dev/shm, and the rig's /etc/hosts.
own_host() {
  local n=$1
  mkdir -p "$state/$n"
  hosts_file "$n" >"$state/$n/hosts"
  touch "$state/ns/$n.uts" "$state/ns/$n.mnt"
  nsenter --net="/run/netns/$rig-$n" unshare --uts="$state/ns/$n.uts" --mount="$state/ns/$n.mnt" \
    --propagation private sh -ec "
      hostname $rig-$n
      mount -t tmpfs -o size=1g,mode=1777 $rig-$n-shm /dev/shm
      mount --bind '$state/$n/hosts' /etc/hosts"
}

start() {
  teardown
  mkdir -p "$state/ns"
  # unshare keeps a mount namespace only on a mount that does not propagate: its own, private.
  mount --bind "$state/ns" "$state/ns"
  mount --make-private "$state/ns"
  for n in "${nodes[@]}"; do
    ip netns add "$rig-$n"
    ip -n "$rig-$n" link set lo up
  done
  ip link add job netns $rig-node0 type veth peer name job netns $rig-node1
  ip -n $rig-hub link add data type bridge
  ip -n $rig-hub addr add "${data[hub]}/24" dev data
  ip -n $rig-hub link set data up
  for n in node0 node1; do
    ip -n "$rig-$n" addr add "${job[$n]}/24" dev job
    ip -n "$rig-$n" link set job up
    ip link add data netns "$rig-$n" type veth peer name "$n" netns $rig-hub
    ip -n $rig-hub link set "$n" master data up
    ip -n "$rig-$n" addr add "${data[$n]}/24" dev data
    ip -n "$rig-$n" link set data up
  done
  for n in "${nodes[@]}"; do own_host "$n"; done
  # A veth end reports its carrier a moment after both ends are up: wait, so a test's first
  # connection does not meet a link still down.
  for n in "${nodes[@]}"; do
    for _ in $(seq 50); do
      ip -n "$rig-$n" -br link | grep -qv LOWER_UP || break
      sleep 0.1
    done
  done
}

case "$cmd" in
  check)
    why=$(problem)
    [ -z "$why" ] || { echo "hosts.sh: cannot make the rig here: $why" >&2; exit 3; }
    ;;
  start | stop)
    why=$(problem)
    [ -z "$why" ] || { echo "hosts.sh: cannot make the rig here: $why" >&2; exit 3; }
    mkdir -p "$state"
    exec 9>"$state/lock"
    flock -w 60 9
    if [ "$cmd" = start ]; then start; else teardown; fi
    ;;
  exec)
    n=${2:?usage: hosts.sh exec N -- CMD...}
    [ "$n" = hub ] || n=node$n
    [ -e "$state/ns/$n.mnt" ] || { echo "hosts.sh: no $n: run hosts.sh start" >&2; exit 3; }
    [ "${3:-}" = -- ] || { echo "usage: hosts.sh exec N -- CMD..." >&2; exit 2; }
    shift 3
    exec nsenter --net="/run/netns/$rig-$n" --uts="$state/ns/$n.uts" --mount="$state/ns/$n.mnt" \
      --wdns="$PWD" -- "$@"
    ;;
  env)
    for n in node0 node1; do echo "RS_${n^^}_JOB=${job[$n]}"; done
    for n in "${nodes[@]}"; do echo "RS_${n^^}_DATA=${data[$n]}"; done
    ;;
  *)
    echo "unknown command $cmd" >&2
    exit 2
    ;;
esac

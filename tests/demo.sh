#!/usr/bin/env bash
# make demo: topo and simulate on this machine, then on fixture machines.
# Everything simulate prints is a model (labelled "simulated"); topo reads
# real files (this machine's, or a fixture's copy of a real layout).
set -euo pipefail
build=${1:-build}
tt="$build/tiertune"
fx=tests/fixtures/sysfs
say() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }

say "$tt" topo
say "$tt" simulate --nodes 0 --pages 8
say "$tt" --sysfs-root "$fx/spr-ddr5-2cxl" topo
say "$tt" --sysfs-root "$fx/spr-ddr5-2cxl" simulate --nodes 0-2 --weights auto --pages 31
say "$tt" --sysfs-root "$fx/qemu-3node-hmat" simulate --nodes 0-2 --weights 0:3,1:1,2:2 --pages 12
say "$tt" --sysfs-root "$fx/rfc-4node" simulate --interface rfc --source-node 0 --nodes 0-2 --pages 12
say "$tt" bench --kernel triad --nodes 0 --weights 0:1 --size 268435456 --repeat 5

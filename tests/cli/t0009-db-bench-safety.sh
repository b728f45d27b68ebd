#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 12, items 11 and 12. Read-only commands (runs, show, export) on a
# missing, empty, read-only and full database: nothing created, the file
# byte for byte as it was. db merge of a good and a bad file: all or
# nothing. bench under a narrowed CPU affinity (taskset): threads only on
# allowed CPUs, impossible thread counts refused, an empty intersection
# named; a fixture root refused unless the run is modelled.
. "$(dirname "$0")/lib.sh"

skip() { echo "ok $((n += 1)) # SKIP $*"; }
sum() { sha256sum <"$1"; }

# This machine, read first: the first node with CPUs this process may use,
# those CPUs, and one CPU of each such node (for --matrix).
read -r node cpus last per_node < <(python3 - <<'EOF'
import glob, os, re
allowed = os.sched_getaffinity(0)
def parse(s):
    out = []
    for part in s.strip().split(","):
        if not part:
            continue
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out
found, per = None, []
for d in sorted(glob.glob("/sys/devices/system/node/node[0-9]*"), key=lambda p: int(re.sub(r"\D", "", p))):
    ok = [c for c in parse(open(d + "/cpulist").read()) if c in allowed]
    if ok:
        per.append(str(ok[-1]))
        if found is None:
            found = (re.sub(r"\D", "", os.path.basename(d)), ok)
print(found[0], ",".join(map(str, found[1])), found[1][-1], ",".join(per))
EOF
)
ncpus=$(awk -F, '{print NF}' <<<"$cpus")

# A database with one bench run and one recommendation, for the readers.
db="$WORK/ro/t.db"
run "$TT" bench --kernel copy --size 4M --repeat 2 --source-node "$node" --record --db "$db"
is "a database to read: bench --record exits 0" "$rc" 0
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("INSERT INTO recommendations (run_id, source_node, interface, weights, gain) VALUES (1, ?, \"upstream\", ?, 0.05)", (int(sys.argv[2]), sys.argv[2] + ":1")); c.commit()' "$db" "$node"
readers=("runs" "show 1" "export --run 1 --format csv")

# Missing: an error naming the file, no file and no folder made.
root=$(copy_fixture vm-1node)
mkdir "$WORK/empty"
for r in "${readers[@]}"; do
	# shellcheck disable=SC2086 # the reader's words
	expect_bad_input 2 "database '$WORK/empty/typo/t.db' does not exist" - "$TT" $r --db "$WORK/empty/typo/t.db"
	is "$r on a missing database creates nothing" "$(ls -A "$WORK/empty")" ""
done
# A 0-byte file is not a database to read, and stays 0 bytes.
: >"$WORK/empty/zero.db"
for r in "${readers[@]}"; do
	# shellcheck disable=SC2086
	expect_bad_input 2 "database '$WORK/empty/zero.db' is empty (0 bytes)" - "$TT" $r --db "$WORK/empty/zero.db"
done
is "the 0-byte file is still 0 bytes" "$(stat -c %s "$WORK/empty/zero.db")" 0
# "" is not a path (sqlite would use a temporary database).
for r in "${readers[@]}" "db check"; do
	# shellcheck disable=SC2086
	expect_bad_input 2 "database path '' is empty" - "$TT" $r --db ""
done

# What a reader prints from the database, to compare with under each
# read-only condition below.
run "$TT" runs --db "$db" --json
want_runs=$(json '[(r["id"], r["kind"], r["status"]) for r in j["runs"]]' <"$WORK/out")
is "runs lists the one run" "$rc:$want_runs" "0:[(1, 'bench', 'done')]"
run "$TT" export --run 1 --format csv --db "$db"
is "export reads it" "$rc" 0
want_csv=$(sha256sum <"$WORK/out")

# readers_on DIR DESC [WRAP...]: every reader on DIR/t.db exits 0 with the
# same output, and the file is byte for byte as it was.
readers_on() {
	local dir=$1 desc=$2 before
	shift 2
	before=$(sum "$dir/t.db")
	run "$@" "$TT" runs --db "$dir/t.db" --json
	is "runs on a $desc database: exit 0, the same run" \
		"$rc:$(json '[(r["id"], r["kind"], r["status"]) for r in j["runs"]]' <"$WORK/out" 2>&1)" "0:$want_runs"
	[ "$rc" = 0 ] || diag <"$WORK/err"
	run "$@" "$TT" show 1 --db "$dir/t.db" --json
	is "show on a $desc database: exit 0, its trial" "$rc:$(json 'len(j["trials"])' <"$WORK/out" 2>&1)" "0:1"
	run "$@" "$TT" export --run 1 --format csv --db "$dir/t.db"
	is "export on a $desc database: exit 0, the same CSV" "$rc:$(sha256sum <"$WORK/out")" "0:$want_csv"
	is "the $desc database is byte for byte unchanged" "$(sum "$dir/t.db")" "$before"
}

# In a private mount namespace a root user can make a read-only bind and a
# full tmpfs; chmod does not stop root. Without root, chmod is enough for
# the read-only case and the full disk is skipped.
if [ "$(id -u)" = 0 ] && ! unshare -m true 2>/dev/null; then
	skip "read-only database: root, whom chmod does not stop, and no mount namespace (unshare -m failed)"
	skip "full database: no mount namespace for a private tmpfs (unshare -m failed)"
elif [ "$(id -u)" = 0 ]; then
	# ns SETUP cmd...: runs cmd in a private mount namespace after SETUP.
	ns() {
		local setup=$1
		shift
		unshare -m sh -c "$setup"' && exec "$@"' ns "$@"
	}
	mkdir "$WORK/rodir"
	cp "$db" "$WORK/rodir/t.db"
	readers_on "$WORK/rodir" "read-only (ro bind mount)" \
		ns "mount --bind '$WORK/rodir' '$WORK/rodir' && mount -o remount,ro,bind '$WORK/rodir'"
	is "nothing was created beside it" "$(ls -A "$WORK/rodir")" "t.db"
	# A tmpfs of 256 KiB, filled: the database and not one byte more.
	mkdir "$WORK/full"
	cp "$db" "$WORK/full/t.db"
	fill="mount -t tmpfs -o size=256k tmpfs '$WORK/full' && cp '$db' '$WORK/full/t.db' && \
		{ dd if=/dev/zero of='$WORK/full/fill' bs=4k 2>/dev/null; \
		  test \"\$(df --output=avail '$WORK/full' | tail -1)\" -eq 0; }"
	readers_on "$WORK/full" "full (tmpfs with 0 bytes free)" ns "$fill"
else
	chmod a-w "$WORK/ro"
	mkdir "$WORK/rodir"
	cp "$db" "$WORK/rodir/t.db"
	chmod a-w "$WORK/rodir/t.db" "$WORK/rodir"
	readers_on "$WORK/rodir" "read-only (chmod)"
	is "nothing was created beside it" "$(ls -A "$WORK/rodir")" "t.db"
	chmod u+w "$WORK/rodir" "$WORK/ro"
	skip "full database: needs root for a private tmpfs (running as uid $(id -u))"
fi

# db merge: a good file (a run the target lacks) and a bad one leave the
# target as it was.
target="$WORK/merge/target.db"
mkdir -p "$WORK/merge"
cp "$db" "$target"
other="$WORK/merge/other.db"
run "$TT" bench --kernel copy --size 4M --repeat 2 --source-node "$node" --record --db "$other"
printf 'not a database, though long enough to hold a header of a hundred bytes %080d\n' 0 \
	>"$WORK/merge/garbage.db"
before=$(sum "$target")
run "$TT" db merge "$other" "$WORK/merge/garbage.db" --db "$target"
is "db merge good garbage: exit 2, names the bad file, target unchanged" \
	"$rc:$(grep -c "garbage.db" "$WORK/err"):$(sum "$target")" "2:1:$before"
# A file that passes every check at open (a tiertune schema version, the
# three tables) and fails halfway through the merge: the rows of the good
# file merged before it are rolled back too.
version=$("$TT" db check --db "$target" --json | json 'j["db_schema_supported"]')
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript("CREATE TABLE hosts (id INTEGER PRIMARY KEY); CREATE TABLE runs (id INTEGER PRIMARY KEY); CREATE TABLE trials (id INTEGER PRIMARY KEY); INSERT INTO hosts VALUES (1); PRAGMA user_version = %d;" % int(sys.argv[2])); c.close()' "$WORK/merge/hollow.db" "$version"
run "$TT" db merge "$other" "$WORK/merge/hollow.db" --db "$target"
is "db merge good hollow: exit 1, names the bad file, target unchanged" \
	"$rc:$(grep -c "merging '$WORK/merge/hollow.db'" "$WORK/err"):$(sum "$target")" "1:1:$before"
run "$TT" db merge "$other" --db "$target" --json
is "the good file alone merges (one run)" "$rc:$(json 'j["merged"][0]["runs_added"]' <"$WORK/out")" "0:1"

# bench: threads go only to the node's CPUs this process may use.
B=("$TT" bench --kernel triad --size 4M --repeat 2 --source-node "$node" --json)
run "${B[@]}"
is "bench: a thread on each allowed CPU of node $node ($cpus)" \
	"$rc:$(json 'j["threads"], ",".join(map(str, j["cpus"]))' <"$WORK/out")" "0:$ncpus $cpus"
if taskset -c "$last" true 2>/dev/null; then
	run taskset -c "$last" "${B[@]}"
	is "under taskset -c $last: one thread, on CPU $last" \
		"$rc:$(json 'j["threads"], j["cpus"]' <"$WORK/out")" "0:1 [$last]"
	expect_bad_input 2 "2 threads are more than the 1 CPU of node $node that this process may run on ($last)" \
		- taskset -c "$last" "$TT" bench --kernel triad --size 4M --source-node "$node" --threads 2
	run taskset -c "$per_node" "$TT" bench --matrix --size 4M --repeat 2 --json
	is "--matrix under taskset -c $per_node: one bandwidth thread per CPU node" \
		"$rc:$(json 'sorted(set(m["threads"] for m in j["matrix"]))' <"$WORK/out")" "0:[1]"
else
	skip "taskset cannot narrow this process to CPU $last"
	skip "taskset cannot narrow this process to CPU $last"
	skip "taskset cannot narrow this process to CPU $last"
fi
expect_bad_input 2 "4096 threads are more than the $ncpus CPU" - "$TT" bench --kernel triad --size 4M --source-node "$node" --threads 4096
expect_bad_input 2 "kernel latency runs one thread" - "$TT" bench --kernel latency --size 4M --source-node "$node" --threads 2

# An empty intersection. This machine's nodes may all hold every allowed
# CPU, so the node comes from a fixture (qemu-3node-hmat: node 1 has CPUs
# 2-3), in a modelled run, the only kind bench takes under a fixture, and
# the process is narrowed to one allowed CPU outside 2-3.
away=$(python3 -c 'import os; print(min(c for c in os.sched_getaffinity(0) if c not in (2, 3)))')
if taskset -c "$away" true 2>/dev/null; then
	expect_bad_input 3 "node 1 has CPUs 2-3, and this process may run on none of them (its allowed CPUs: $away)" \
		- taskset -c "$away" "$TT" --sysfs-root "$FIX/qemu-3node-hmat" bench --kernel triad \
		--size 4M --source-node 1 --nodes 0 --weights 0:1 --collect model
else
	skip "taskset cannot narrow this process to CPU $away"
fi

# A fixture root: refused, unless modelled, and then marked simulated.
expect_bad_input 2 "--sysfs-root '$root' is not this machine" "$root" "$TT" --sysfs-root "$root" bench --kernel triad --size 4M
expect_bad_input 2 "is not this machine" "$root" "$TT" --sysfs-root "$root" bench --matrix --size 4M
run "$TT" --sysfs-root "$FIX/qemu-3node-hmat" bench --kernel triad --nodes 0 --weights 0:1 --size 4M \
	--repeat 2 --collect model --json
is "a modelled run under a fixture is marked simulated" "$rc:$(json 'j["simulated"]' <"$WORK/out")" "0:True"
run "$TT" --sysfs-root "$FIX/qemu-3node-hmat" bench --kernel triad --nodes 0 --weights 0:1 --size 4M \
	--repeat 2 --collect model
is "and says so first in its text output" "$rc:$(head -c 10 "$WORK/out")" "0:simulated:"
# Issue 21 item 9: export -o writes through what is not a regular file (a
# symlink, a FIFO) instead of renaming a new file over it.
echo old >"$WORK/target.csv"
ln -sf "$WORK/target.csv" "$WORK/link.csv"
run "$TT" export --run 1 --format csv --db "$db" -o "$WORK/link.csv"
cmp -s "$WORK/target.csv" <("$TT" export --run 1 --format csv --db "$db") && same=same || same=differs
is "export -o SYMLINK: still a symlink, its target holds the CSV" \
	"$rc:$(test -L "$WORK/link.csv" && echo link):$same" "0:link:same"
mkfifo "$WORK/fifo.csv"
timeout 10 cat "$WORK/fifo.csv" >"$WORK/fifo.out" &
run "$TT" export --run 1 --format csv --db "$db" -o "$WORK/fifo.csv"
wait
is "export -o FIFO: still a FIFO, its reader got the CSV" \
	"$rc:$(test -p "$WORK/fifo.csv" && echo fifo):$(cmp -s "$WORK/fifo.out" "$WORK/target.csv" && echo same)" \
	"0:fifo:same"

# Issue 21 item 8: a stored string a spreadsheet would run as a formula
# leaves the CSV export neutralised (OWASP: a single quote first).
cp "$db" "$WORK/inj.db"
chmod u+w "$WORK/inj.db"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("UPDATE trials SET kernel = ?", ("=HYPERLINK(\"http://x\")",)); c.commit()' "$WORK/inj.db"
run "$TT" export --run 1 --format csv --db "$WORK/inj.db"
is "export --format csv: a formula-like stored string is prefixed with a quote" \
	"$rc:$(python3 -c 'import csv,sys; print(*sorted(set(r["kernel"] for r in csv.DictReader(sys.stdin))))' <"$WORK/out")" \
	"0:'=HYPERLINK(\"http://x\")"

done_testing

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The database from the command line: bench --record, runs, show, db check,
# db merge; files that are not ours, a newer schema, a read-only folder, a
# full disk, and a bench killed mid-run.
. "$(dirname "$0")/lib.sh"

export TIERTUNE_DB="$WORK/a/tiertune.db"
B=("$TT" bench --size 4M --repeat 2)
run "${B[@]}" --kernel triad --record
is "bench --record on a new database (folder made) exits 0" "$rc:$(test -s "$TIERTUNE_DB" && echo file)" "0:file"
run "${B[@]}" --kernel latency --record
run "${B[@]}" --kernel loaded-latency --delays 0,400 --point-ms 30 --record
run "$TT" runs --json
is "runs: newest first, kinds, status done, one trial per loaded-latency point" \
	"$(json '[(r["id"], r["kind"], r["status"], r["ntrials"], r["simulated"]) for r in j["runs"]]' <"$WORK/out")" \
	"[(3, 'bench', 'done', 2, False), (2, 'bench', 'done', 1, False), (1, 'bench', 'done', 1, False)]"
is "runs: best figure per run (bandwidth, latency)" \
	"$(json '(j["runs"][2]["bw_best_bytes_s"] > 1e9, j["runs"][1]["bw_best_bytes_s"], j["runs"][1]["lat_best_ns"] > 0)' <"$WORK/out")" \
	"(True, None, True)"
run "$TT" runs
# A loaded-latency curve's trials are its points: no best pass, so its
# headline is its lowest latency and peak bandwidth (it was the delay-0
# point's bandwidth twice, "best pass, median"), and show gives each
# point's traffic and delay (issue 44).
is "runs: a loaded-latency run's headline is its curve's lowest latency and peak bandwidth" \
	"$(grep -cE '^ +3 .* curve: [0-9]+\.[0-9] ns lowest latency, [0-9]+\.[0-9]{2} GB/s peak( |$)' "$WORK/out")" 1
run "$TT" show 3
is "show: a curve's points listed with their traffic and delay" \
	"$rc:$(grep -cE '^ +[12] loaded-latency .* reads, delay (0|400) ' "$WORK/out")" "0:2"
run "$TT" runs --limit 1 --json
is "runs --limit 1" "$(json 'len(j["runs"])' <"$WORK/out")" 1
run "$TT" runs
is "runs: a table with a header" "$rc:$(head -1 "$WORK/out" | awk '{print $1, $2}')" "0:run started"
is "runs: a bench run's headline is its best pass, the median beside it, named so" \
	"$(grep -cE '^ +1 .* [0-9]+\.[0-9]{2} GB/s best pass, median [0-9]+\.[0-9]{2}(  UNSTABLE)?(  DESCHEDULED)?(  cache-resident)?$' "$WORK/out"):$(grep -cE '^ +2 .* [0-9]+\.[0-9] ns best pass, median [0-9]+\.[0-9](  UNSTABLE)?(  DESCHEDULED)?(  cache-resident)?$' "$WORK/out")" "1:1"
# Issue 34 item 1: a figure the tool disowns is said so in the list, in
# show's words after the headline (this host's runs may be either: the list
# says what show says of each), and in the JSON as counts of such trials.
for r in 1 2 3; do
	want=$("$TT" show "$r" | sed -n 's/^\(UNSTABLE\|DESCHEDULED\|cache-resident\): .*/  \1/p' | tr -d '\n')
	is "runs: run $r marked as show marks its trials ('${want# }')" \
		"$(awk -v r="$r" '$1 == r' "$WORK/out" | grep -oE '(  UNSTABLE)?(  DESCHEDULED)?(  cache-resident)?$')" "$want"
done
cp "$TIERTUNE_DB" "$WORK/marks.db"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE trials SET unstable = run_id = 1, cache_resident = run_id = 1, descheduled = 0"); c.commit()' "$WORK/marks.db"
run "$TT" runs --db "$WORK/marks.db"
is "runs: a run recorded unstable and cache-resident says both after its headline, the others neither" \
	"$rc:$(grep -cE '^ +1 .* GB/s best pass, median [0-9.]+  UNSTABLE  cache-resident$' "$WORK/out"):$(grep -c 'UNSTABLE\|cache-resident' "$WORK/out")" "0:1:1"
run "$TT" show 1 --db "$WORK/marks.db"
is "... the words show says them in" \
	"$(grep -c '^    1 triad .*  UNSTABLE$' "$WORK/out"):$(grep -c '^UNSTABLE: 1 trial whose passes spread beyond 10%' "$WORK/out"):$(grep -c '^cache-resident: 1 trial whose working set fitted in the last-level cache:$' "$WORK/out")" "1:1:1"
run "$TT" runs --db "$WORK/marks.db" --json
is "runs --json: the counts of such trials" \
	"$(json '[(r["id"], r["unstable_trials"], r["cache_resident_trials"]) for r in j["runs"]]' <"$WORK/out")" \
	"[(3, 0, 0), (2, 0, 0), (1, 1, 1)]"
run "$TT" show 1 --json
is "show: the trial with its placement per node, the command line" \
	"$(json '(j["trials"][0]["kernel"], j["trials"][0]["validated"], [(n["node"], n["weight"], n["achieved_share"]) for n in j["trials"][0]["nodes"]], "--record" in j["command"], j["kernel_release"] != "")' <"$WORK/out")" \
	"('triad', True, [(0, 1, 1.0)], True, True)"
run "$TT" show 3 --csv
is "show --csv: a header and a row per trial and node" "$rc:$(wc -l <"$WORK/out"):$(cut -d, -f3 "$WORK/out" | sort -u | tr '\n' ' ')" \
	'0:3:kernel loaded-latency '
is "show --csv: RFC 4180 (CRLF, the mix's comma quoted), each point's delay in its own column" \
	"$(python3 -c 'import csv, sys; print([(r["mix"], r["delay_iterations"], r["recommended"]) for r in csv.DictReader(open(sys.argv[1], newline=""))])' "$WORK/out"):$(grep -vc $'\r$' "$WORK/out")" \
	"[('reads, delay 0', '0', ''), ('reads, delay 400', '400', '')]:0"
run "$TT" show 1
host=$(cat /proc/sys/kernel/hostname)
is "show: human output names this host and the trial" \
	"$rc:$(awk -v h="$host" '$1 == "host" && $2 == h' "$WORK/out" | wc -l):$(grep -cE '^ +1 triad' "$WORK/out")" "0:1:1"
run "$TT" db check
is "db check" "$rc:$(cat "$WORK/out")" "0:database '$TIERTUNE_DB': schema version 9, integrity ok, foreign keys ok"

# The matrix, recorded: a trial per CPU node and memory node.
run "$TT" bench --matrix --size 4M --repeat 2 --record --db "$WORK/matrix.db"
cp "$WORK/out" "$WORK/matrix.out"
run "$TT" runs --db "$WORK/matrix.db" --json
mrun=$(json 'j["runs"][0]["id"]' <"$WORK/out")
# As every bench says it (issue 44), with the pages of both its halves.
is "bench --matrix --record: recorded as run $mrun, the bandwidth and the latency runs' pages named" \
	"$(grep -c "^recorded as run $mrun\$" "$WORK/matrix.out"):$(grep -cE '^(bandwidth|latency) pages: [0-9]+ ' "$WORK/matrix.out")" "1:2"
run "$TT" show "$mrun" --db "$WORK/matrix.db" --json
is "bench --matrix --record: objective, no source node, one bind trial with bandwidth and latency" \
	"$(json '(j["objective"], j["source_node"], [(t["placement"], t["bw_best_bytes_s"] > 0, t["lat_median_ns"] > 0, [n["node"] for n in t["nodes"]]) for t in j["trials"]])' <"$WORK/out")" \
	"('matrix:reads', None, [('bind', True, True, [0])])"

# Another host's database, merged twice. The host differs by its hostname
# (a fixture root whose hostname is a quoted SQL fragment) and its root's
# folder name has a quote, so the command line has one too. bench takes a
# fixture root only for a modelled run (--collect model, which needs HMAT).
other="$WORK/b/other.db"
fx="$WORK/fx it's"
cp -a "$FIX/qemu-3node-hmat" "$fx"
printf '%s\n' "x'); DROP TABLE runs; --" >"$fx/proc/sys/kernel/hostname"
run "${B[@]}" --kernel copy --record --db "$other" --sysfs-root "$fx" --collect model --nodes 0 --weights 0:1
is "record into a second database for another host" "$rc" 0
run "$TT" db merge "$other" --json
is "merge: one host and one run added" \
	"$(json '(j["merged"][0]["hosts_added"], j["merged"][0]["runs_added"], j["merged"][0]["runs_already_present"], j["merged"][0]["trials_added"])' <"$WORK/out")" "(1, 1, 0, 1)"
run "$TT" db merge "$other" --json
is "merge again: nothing added twice" \
	"$(json '(j["merged"][0]["hosts_added"], j["merged"][0]["runs_added"], j["merged"][0]["runs_already_present"], j["merged"][0]["trials_added"])' <"$WORK/out")" "(0, 0, 1, 0)"
run "$TT" runs --host "x'); DROP TABLE runs; --" --json
is "the merged host keeps its name, quotes and all, and its command line" \
	"$(json '(len(j["runs"]), j["runs"][0]["host"], "fx it'"'"'\\'"'"''"'"'s" in j["runs"][0]["command"])' <"$WORK/out")" \
	"(1, \"x'); DROP TABLE runs; --\", True)"
run "$TT" runs --json
is "all four runs are there" "$(json 'len(j["runs"])' <"$WORK/out")" 4

# A killed bench leaves its run running; the next command marks it.
"$TT" bench --kernel latency --size 64M --repeat 100000 --record >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
	"$TT" runs --json 2>/dev/null | json '"running" in [r["status"] for r in j["runs"]]' | grep -q True && break
	sleep 0.1
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
run "$TT" runs --json
is "a SIGKILLed run shows as interrupted" "$(json 'j["runs"][0]["status"]' <"$WORK/out")" interrupted
grep -q "1 run in '$TIERTUNE_DB' had stopped without finishing" "$WORK/err"
is "and the command that found it says so" $? 0
run "$TT" db check
is "the database is consistent after the kill" "$rc" 0

# Files that are not ours are refused and left as they were.
bad_db() { # exit text file -- command...
	local want=$1 text=$2 f=$3 before
	shift 4
	before=$(sha256sum <"$f")
	run "$@"
	local why=""
	[ "$rc" -eq "$want" ] || why="exit $rc, want $want;"
	grep -qF -- "$text" "$WORK/err" || why="$why stderr does not name '$text';"
	grep -qF -- "$f" "$WORK/err" || why="$why stderr does not name the file;"
	[ ! -s "$WORK/out" ] || why="$why stdout not empty;"
	[ "$before" = "$(sha256sum <"$f")" ] || why="$why the file changed;"
	if [ -z "$why" ]; then tap 0 "bad database: $text"; else
		tap 1 "bad database: $text" "$why"
	fi
}
mkdir -p "$WORK/bad"
head -c 8192 /dev/urandom >"$WORK/bad/random.db"
bad_db 2 "is not a sqlite database" "$WORK/bad/random.db" -- "$TT" runs --db "$WORK/bad/random.db"
cp "$TIERTUNE_DB" "$WORK/bad/trunc.db"
truncate -s $(($(stat -c %s "$TIERTUNE_DB") / 2 + 100)) "$WORK/bad/trunc.db"
bad_db 2 "is truncated or damaged" "$WORK/bad/trunc.db" -- "$TT" runs --db "$WORK/bad/trunc.db"
cp "$TIERTUNE_DB" "$WORK/bad/newer.db"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("PRAGMA user_version=99"); c.commit(); c.close()' "$WORK/bad/newer.db"
bad_db 2 "has schema version 99, newer than this tiertune's 9" "$WORK/bad/newer.db" -- "$TT" runs --db "$WORK/bad/newer.db"
bad_db 2 "has schema version 99" "$WORK/bad/newer.db" -- "${B[@]}" --kernel copy --record --db "$WORK/bad/newer.db"
python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE t(x)"); c.commit(); c.close()' "$WORK/bad/foreign.db"
bad_db 2 "is a sqlite database but not a tiertune one" "$WORK/bad/foreign.db" -- "$TT" db merge "$WORK/bad/foreign.db"
bad_db 2 "is not a sqlite database" "$WORK/bad/random.db" -- "$TT" db merge "$WORK/bad/random.db"
run "$TT" show 999
is "show of a run that is not there: exit 2, named" "$rc:$(grep -c "no run 999 in database" "$WORK/err")" "2:1"
run "$TT" db check --db "$WORK/bad/none.db"
is "db check of a missing file: exit 2, not created" "$rc:$(test -e "$WORK/bad/none.db" && echo made)" "2:"

# A read-only folder and a full disk need a file system of their own:
# root mounts small tmpfs; anyone else gets a read-only folder by mode.
if [ "$(id -u)" -eq 0 ] && mkdir -p "$WORK/ro" && mount -t tmpfs -o ro,size=1m tiertune-test "$WORK/ro" 2>/dev/null; then
	run "${B[@]}" --kernel copy --record --db "$WORK/ro/sub/t.db"
	umount "$WORK/ro"
	is "a read-only folder: exit 1 naming the path" "$rc:$(grep -c "$WORK/ro/sub" "$WORK/err")" "1:1"
	mkdir -p "$WORK/full"
	mount -t tmpfs -o size=256k tiertune-test "$WORK/full"
	cp "$TIERTUNE_DB" "$WORK/full/t.db"
	# Fill the rest of the disk, then ask for a run that needs pages.
	head -c 1M /dev/zero >"$WORK/full/filler" 2>/dev/null
	before=$(sha256sum <"$WORK/full/t.db")
	run "${B[@]}" --kernel loaded-latency --delays "$(seq -s, 0 40)" --point-ms 10 --record --db "$WORK/full/t.db"
	is "a full disk: exit 1, 'full' named, the database file as it was" \
		"$rc:$(grep -c 'full' "$WORK/err"):$( [ "$before" = "$(sha256sum <"$WORK/full/t.db")" ] && echo same)" "1:1:same"
	rm -f "$WORK/full/filler"
	run "$TT" db check --db "$WORK/full/t.db"
	is "and it passes its check once there is room" "$rc" 0
	umount "$WORK/full"
else
	for i in 1 2 3; do skip "read-only folder and full disk need root to mount a tmpfs"; done
fi
# First writers racing to create one database: each run is recorded, none
# sees it empty or without its tables (three races of eight).
fails=0 rows=0
for r in 1 2 3; do
	for i in 1 2 3 4 5 6 7 8; do
		"$TT" bench --kernel triad --size 1M --repeat 2 --record --db "$WORK/race$r.db" \
			>/dev/null 2>"$WORK/race$r.$i.err" &
	done
	for i in 1 2 3 4 5 6 7 8; do wait -n || fails=$((fails + 1)); done
	rows=$((rows + $("$TT" runs --json --db "$WORK/race$r.db" | json 'len(j["runs"])')))
done
is "eight writers creating one database at once: all recorded, no error, no temporary left" \
	"$fails:$rows:$(cat "$WORK"/race*.err | wc -l):$(ls "$WORK" | grep -c '\.new-')" "0:24:0:0"

done_testing

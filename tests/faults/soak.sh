#!/usr/bin/env bash
# Start/stop soak of nb2lite-studio (issue 11, item 10: one SIGABRT on start with an empty
# session folder right after another instance was killed).
#
#   tests/faults/soak.sh [--quick] [--starts N] [--build DIR] [--keep]
#
# Starts the app N times (default 100; --quick: 20, what ctest runs) under Xvfb and kills each
# one with SIGKILL after a random 0.2-3 s, then starts the next 0.1 s later on the same kind of
# session, so that starts land on locks, journals and manifests a killed instance just left.
# The starts rotate over five sessions:
#   fresh    a folder that does not exist yet
#   empty    an empty folder (made again before each start)
#   again    that same folder again, as the instance killed 0.1 s before left it (its lock,
#            journal and manifest half-written, the dead owner possibly still a zombie): item 10
#   big      a 1,000-frame session, reused by every start (each one killed mid-start)
#   pending  the 1,000-frame session plus a turn left pending by a dead process (copied anew)
# Core dumps are enabled (ulimit -c unlimited) and each app runs in its own folder, so a core
# with the kernel's default relative pattern ("core") lands there. The pattern itself is not
# changed, even as root: /proc/sys/kernel/core_pattern is one setting for the whole machine,
# shared with everyone on it. Aborts are found by exit status in any case: an instance that ends
# before it is killed is reported with its status, its signal and the last lines it printed.
# Exit status: 0 when every start was killed alive (no abort, no crash), 1 otherwise.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${NB2_BUILD_DIR:-$root/build}
starts=100
keep=0
while [[ $# -gt 0 ]]; do
    case $1 in
        --quick) starts=20 ;;
        --starts) starts=$2; shift ;;
        --build) build=$2; shift ;;
        --keep) keep=1 ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "soak.sh: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done

[[ -d $build ]] && build=$(cd "$build" && pwd) # each start runs in its own folder: no relative paths
studio=$build/app/studio/nb2lite-studio
cli=$build/app/cli/nb2lite
for bin in "$studio" "$cli"; do
    [[ -x $bin ]] || { echo "soak.sh: $bin is missing; build first (packaging/build.sh)" >&2; exit 2; }
done

# One X server for the whole run (a server per start would measure Xvfb, not the app).
if [[ -z ${NB2_SOAK_UNDER_X:-} ]]; then
    command -v xvfb-run >/dev/null || { echo "soak.sh: xvfb-run is missing (apt-get install xvfb)" >&2; exit 2; }
    NB2_SOAK_UNDER_X=1 exec xvfb-run -a -s "-screen 0 1280x800x24" "$0" --starts "$starts" --build "$build" \
        $([[ $keep == 1 ]] && echo --keep)
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/nb2-soak.XXXXXX")
cleanup() {
    [[ -n ${app_pid:-} ]] && kill -9 "$app_pid" 2>/dev/null
    # Nothing started from this run's folder may outlive it: a clean clone's run of test.sh once
    # left an ASan-built studio of the soak running after the end (a killed start's leftover).
    local cmdline cmd
    for cmdline in /proc/[0-9]*/cmdline; do
        cmd=$(tr '\0' ' ' <"$cmdline" 2>/dev/null) || continue
        [[ $cmd == *"$work/"* ]] && { kill -9 "${cmdline//[^0-9]/}" 2>/dev/null || true; }
    done
    if [[ $keep == 1 ]]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_CACHE_HOME=$work/home/.cache
export XDG_DATA_HOME=$work/home/.local/share XDG_RUNTIME_DIR=$work/runtime
unset GEMINI_API_KEY GOOGLE_API_KEY DBUS_SESSION_BUS_ADDRESS
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" "$work/runs" && chmod 700 "$XDG_RUNTIME_DIR"
ulimit -c unlimited 2>/dev/null || echo "note: core dumps could not be enabled (ulimit -c)"

# --- the sessions -------------------------------------------------------------------------
"$cli" --session "$work/seed" --demo generate "a lighthouse at dusk" >/dev/null 2>&1 \
    || { echo "soak.sh: could not make the seed frame with $cli --demo" >&2; exit 2; }
dead_pid=$(sh -c 'echo $$')   # a pid that has just ended: the owner of the pending turn
python3 - "$work/seed" "$work/big" "$work/pending-template" "$dead_pid" <<'EOF'
import copy, json, os, shutil, sys
seed, big, pending, dead = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
m = json.load(open(os.path.join(seed, "manifest.json")))
first = m["frames"][0]
frames, parent = [], None
for i in range(1000):
    f = copy.deepcopy(first)
    f["id"] = "%08x" % (0x10000000 + i)
    f["prompt"] = "frame %d" % i
    f["kind"] = "generate" if parent is None else "edit"
    f.pop("interaction_id", None); f.pop("id_expires_at", None)
    if parent:
        f["parent_id"] = parent
    # every 100th frame forks from the one 50 before it: a few branches, not one line
    parent = frames[-50]["id"] if i % 100 == 99 else f["id"]
    frames.append(f)
m["frames"] = frames
m["current_frame"] = frames[-1]["id"]
for d in (big, pending):
    shutil.copytree(seed, d)
    shutil.rmtree(os.path.join(d, "demo"), ignore_errors=True)
    if os.path.exists(os.path.join(d, "journal.jsonl")):
        os.remove(os.path.join(d, "journal.jsonl"))
    out = copy.deepcopy(m)
    if d == pending:
        p = copy.deepcopy(first)
        for k in ("image", "interaction_id", "id_expires_at", "finished_at", "usage", "model_text", "attempts"):
            p.pop(k, None)
        p.update(id="0dead001", kind="edit", parent_id=frames[-1]["id"], prompt="left pending by a killed window",
                 status="pending", owner_pid=dead)
        out["frames"].append(p)
    json.dump(out, open(os.path.join(d, "manifest.json"), "w"), indent=1)
EOF

# --- the starts ---------------------------------------------------------------------------
kinds=(fresh empty again big pending)
aborts=0 crashes=0 killed=0
declare -A per_kind_ok=()
t0=$(date +%s)
for ((i = 1; i <= starts; i++)); do
    kind=${kinds[$(( (i - 1) % ${#kinds[@]} ))]}
    case $kind in
        fresh)   session=$work/fresh-$i ;;
        empty)   session=$work/empty; rm -rf "$session"; mkdir -p "$session" ;;
        again)   session=$work/empty ;;
        big)     session=$work/big ;;
        pending) session=$work/pending; rm -rf "$session"; cp -a "$work/pending-template" "$session" ;;
    esac
    run=$work/runs/$i && mkdir -p "$run"
    # 0.2-3.0 s: kills land before the window shows, while the session opens, and after.
    wait_ms=$(( 200 + RANDOM % 2800 ))
    (cd "$run" && exec "$studio" --demo "$session" >"$run/out.log" 2>&1) &
    app_pid=$!
    sleep "$(printf '%d.%03d' $((wait_ms / 1000)) $((wait_ms % 1000)))"
    if kill -0 "$app_pid" 2>/dev/null; then
        kill -9 "$app_pid" 2>/dev/null
        wait "$app_pid" 2>/dev/null
        killed=$((killed + 1))
        per_kind_ok[$kind]=$(( ${per_kind_ok[$kind]:-0} + 1 ))
    else
        wait "$app_pid"; status=$?
        if (( status == 134 )); then
            aborts=$((aborts + 1)); what="ABORT (SIGABRT)"
        elif (( status > 128 )); then
            crashes=$((crashes + 1)); what="CRASH (signal $((status - 128)))"
        else
            crashes=$((crashes + 1)); what="EXIT $status (ended by itself)"
        fi
        echo "start $i ($kind, after ${wait_ms} ms): $what"
        tail -n 15 "$run/out.log" | sed 's/^/    /'
        ls "$run"/core* 2>/dev/null | sed 's/^/    core: /'
        keep=1
    fi
    app_pid=
    sleep 0.1  # the next start comes right after the kill, as in item 10
done
t1=$(date +%s)
cores=$(find "$work/runs" -name 'core*' -type f | wc -l)

echo "soak: $starts starts in $((t1 - t0)) s (fresh ${per_kind_ok[fresh]:-0}, empty ${per_kind_ok[empty]:-0}," \
     "empty again after the kill ${per_kind_ok[again]:-0}," \
     "1000-frame ${per_kind_ok[big]:-0}, 1000-frame + pending ${per_kind_ok[pending]:-0} killed alive);" \
     "aborts $aborts, other crashes $crashes, core files $cores"
# The sessions must still open after all that killing.
for s in "$work/big" "$work/empty"; do
    # A kill 0.2 s after the start can land before the app made the empty folder a session:
    # an empty folder that stayed empty is fine; anything the app began must open.
    if [[ "$s" == "$work/empty" && ! -e "$s/manifest.json" && ! -s "$s/journal.jsonl" ]]; then
        echo "soak: $s was killed before it became a session (still an empty folder: nothing to lose)"
        continue
    fi
    if ! "$cli" --session "$s" log --ids >/dev/null 2>"$work/log.err"; then
        echo "soak: $s does not open after the soak: $(cat "$work/log.err")"
        crashes=$((crashes + 1))
    fi
done
(( aborts == 0 && crashes == 0 && cores == 0 ))

#!/usr/bin/env bash
# The key store against a real Secret Service: gnome-keyring-daemon on a private D-Bus session
# (dbus-run-session), in a throw-away HOME, never the user's keyring or bus.
#
#   1. keyring unlocked with a test password: the key saved in the Settings dialog lands in the
#      keyring; a new process (the app restarted) reads it back; so does a process after a
#      "re-login" (new bus, new daemon, same keyring file); secret-tool sees it under the app's
#      service name; and the key is in no file under HOME or the XDG folders.
#   2. the same keyring, locked (the daemon started without the password, and no prompt can
#      unlock it here): saving falls back to ~/gemini.key, and the dialog says why.
#   3. no Secret Service on the bus: the file again, with its own message.
#
# The bus has no service directories, so nothing is D-Bus-activated behind the test's back.
# Usage: run_keyring.sh TST_KEYRING_BINARY
set -euo pipefail

if [[ "${1:-}" == --inside ]]; then
    # ---- one D-Bus session: start the daemon as asked, run the given test functions --------
    shift
    daemon_mode=$1 bin=$2
    shift 2
    daemon_pid=""
    stop_daemon() { if [[ -n "$daemon_pid" ]]; then kill "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true; fi; }
    trap stop_daemon EXIT
    case "$daemon_mode" in
        unlocked)
            printf '%s' "$NB2_KEYRING_PASSWORD" | gnome-keyring-daemon --foreground --unlock --components=secrets \
                >"$NB2_KEYRING_TMP/daemon.out" 2>"$NB2_KEYRING_TMP/daemon.err" &
            daemon_pid=$! ;;
        locked)
            gnome-keyring-daemon --foreground --components=secrets </dev/null \
                >"$NB2_KEYRING_TMP/daemon.out" 2>"$NB2_KEYRING_TMP/daemon.err" &
            daemon_pid=$! ;;
        absent) ;;
    esac
    if [[ -n "$daemon_pid" ]]; then
        # Ready when it owns org.freedesktop.secrets on this bus.
        for _ in $(seq 100); do
            dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
                org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true' && break
            kill -0 "$daemon_pid" 2>/dev/null || { cat "$NB2_KEYRING_TMP/daemon.err" >&2; echo "FAIL: gnome-keyring-daemon exited" >&2; exit 1; }
            sleep 0.1
        done
    fi
    for fn in "$@"; do
        if [[ "$fn" == check:* ]]; then
            # secret-tool, independently of QtKeychain: the item the app stored, by its attributes.
            stored=$(timeout 20 secret-tool lookup server nb2lite-studio user gemini-api-key 2>&1) || true
            [[ "$stored" == "$NB2_TEST_KEY" ]] || { echo "FAIL: secret-tool does not find the key in the keyring (got '${stored:0:40}')" >&2; exit 1; }
            continue
        fi
        "$bin" "$fn" || { echo "FAIL: $fn (keyring $daemon_mode)" >&2; exit 1; }
    done
    exit 0
fi

bin=$1
for tool in dbus-run-session dbus-send gnome-keyring-daemon secret-tool; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool not found; run packaging/install-deps.sh" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/run"
chmod 700 "$tmp/run" "$tmp/home"
export HOME=$tmp/home XDG_RUNTIME_DIR=$tmp/run XDG_CONFIG_HOME=$tmp/home/.config \
       XDG_DATA_HOME=$tmp/home/.local/share XDG_CACHE_HOME=$tmp/home/.cache XDG_DATA_DIRS=/usr/share
export NB2_KEYRING_TEST=1 NB2_KEYRING_TMP=$tmp QT_QPA_PLATFORM=offscreen
# NB2_SCREENSHOT_OUT=DIR (absolute) also saves the dialog of the locked case there.
# Per run, never on a command line (the environment is private to these processes).
NB2_TEST_KEY="AIza-keyring-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
NB2_KEYRING_PASSWORD="test-password-$RANDOM"
export NB2_TEST_KEY NB2_KEYRING_PASSWORD
unset GEMINI_API_KEY GOOGLE_API_KEY DBUS_SESSION_BUS_ADDRESS GNOME_KEYRING_CONTROL

cat >"$tmp/bus.conf" <<'EOF'
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF

session() {
    # dbus-daemon's complaint about the fd limit in a container is noise, not a failure.
    timeout 120 dbus-run-session --config-file="$tmp/bus.conf" -- bash "$0" --inside "$@" 2> >(grep -v 'Failed to set fd limit' >&2)
}

echo "-- keyring unlocked: save in Settings, read back in a new process"
session unlocked "$bin" settingsSavesKeyInKeyring freshProcessReadsKeyFromKeyring check:secret-tool
echo "-- after a re-login (new bus, new daemon, same keyring file): read back again"
session unlocked "$bin" freshProcessReadsKeyFromKeyring

# The key must be in no file: not in the settings, not in a cache, not in ~/gemini.key; the
# keyring file itself is encrypted with the password.
[[ -f "$XDG_DATA_HOME/keyrings/login.keyring" ]] || { echo "FAIL: no login keyring was written" >&2; exit 1; }
if found=$(grep -rlF -- "$NB2_TEST_KEY" "$HOME" "$XDG_RUNTIME_DIR" 2>/dev/null); then
    echo "FAIL: the key appears in: $found" >&2
    exit 1
fi

echo "-- keyring locked: falls back to ~/gemini.key and says why"
session locked "$bin" lockedKeyringFallsBackWithMessage
echo "-- no Secret Service: falls back to ~/gemini.key and says so"
session absent "$bin" absentKeyringFallsBackWithMessage
echo "keyring: all phases passed"

#!/usr/bin/env bash
# The catalogue check (issue 9): fails when
#   - lupdate warns while reading the sources (a tr() it cannot translate: a variable instead
#     of a literal, tr() in a class without Q_OBJECT or Q_DECLARE_TR_FUNCTIONS, ...);
#   - a committed .ts file is stale (some tr() text changed and update_translations was not
#     run): lupdate runs on a temporary copy, exactly as the update_translations target
#     does, and the copy must come out unchanged;
#   - the English catalogue has a plural message without its filled, finished numerus forms
#     (the app would show "1 frame(s)").
# Usage: check_translations.sh LUPDATE LIST_FILE "LUPDATE OPTIONS" TS_FILE...
set -euo pipefail
lupdate=$1 list=$2 options=$3
shift 3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nb2-ts-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
read -r -a opts <<<"$options"
status=0
for ts in "$@"; do
    name=$(basename "$ts")
    cp "$ts" "$tmp/$name"
    if ! output=$("$lupdate" -silent "${opts[@]}" "@$list" -ts "$tmp/$name" 2>&1); then
        echo "FAIL: lupdate failed on $name:" >&2
        echo "$output" >&2
        status=1
        continue
    fi
    if [[ -n "$output" ]]; then
        echo "FAIL: lupdate warns (every user-visible text must be a literal inside tr()):" >&2
        echo "$output" >&2
        status=1
    fi
    if ! diff -u "$ts" "$tmp/$name" >"$tmp/$name.diff"; then
        echo "FAIL: $name is stale; run: cmake --build build --target update_translations" >&2
        echo "      then: python3 packaging/tools/fill_english_plurals.py resources/translations/nb2lite_en.ts" >&2
        echo "      (fills new English plural forms), and commit the .ts. The change:" >&2
        head -n 60 "$tmp/$name.diff" >&2
        status=1
    fi
done
# The English catalogue: every plural message has finished, non-empty singular and plural forms.
for ts in "$@"; do
    [[ "$(basename "$ts")" == *_en.ts ]] || continue
    python3 - "$ts" <<'PY' || status=1
import sys
import xml.etree.ElementTree as ET
bad = []
for context in ET.parse(sys.argv[1]).getroot().iter("context"):
    for message in context.iter("message"):
        if message.get("numerus") != "yes":
            continue
        translation = message.find("translation")
        forms = [f.text or "" for f in translation.iter("numerusform")]
        if translation.get("type") in ("unfinished", "obsolete", "vanished") or len(forms) != 2 or "" in [f.strip() for f in forms]:
            bad.append(f"{context.findtext('name')}: {message.findtext('source')!r}")
if bad:
    print("FAIL: plural messages without finished English forms (run packaging/tools/fill_english_plurals.py "
          "on the .ts, or fill both <numerusform>s by hand and drop type=\"unfinished\"):", file=sys.stderr)
    for b in bad:
        print("  " + b, file=sys.stderr)
    sys.exit(1)
PY
done
[[ $status -eq 0 ]] && echo "catalogue check: $* current, lupdate clean, English plural forms complete"
exit $status

#!/usr/bin/env bash
# No object's compile flags may define a macro whose value names the source or build folder,
# except the two files that exist to carry those paths: tests/testpaths.cpp (with its moc unit)
# and bench/main.cpp. ccache keys an object on its flags, so any other would miss in a clone in
# another folder, and CI builds a clean clone: before this check the tests' own objects all
# missed (~12 min of compiling per build tree on two cores).
#
#   check_path_free_objects.sh COMPILE_COMMANDS_JSON SOURCE_DIR BINARY_DIR
set -euo pipefail
db=$1 src=$2 bin=$3
[[ -f "$db" ]] || { echo "no $db (CMAKE_EXPORT_COMPILE_COMMANDS is on in CMakeLists.txt)" >&2; exit 1; }
awk -v src="$src" -v bin="$bin" '
    /^  "command": / { command = $0 }
    /^  "file": / {
        file = $0
        sub(/^  "file": "/, "", file)
        sub(/",?$/, "", file)
        allowed = file ~ /\/tests\/testpaths\.cpp$/ || file ~ /\/nb2testpaths_autogen\// || file ~ /\/bench\/main\.cpp$/
        n = split(command, words, " ")
        for (i = 1; i <= n; i++) {
            if (words[i] !~ /^-D/ || (index(words[i], "\"" src) == 0 && index(words[i], "\"" bin) == 0))
                continue
            if (allowed) {
                carried++
            } else {
                printf "%s: %s names the checkout (it would miss ccache in another folder)\n", file, words[i]
                bad++
            }
        }
        objects++
    }
    END {
        # The check must see the paths where they are meant to be, or it reads the file wrongly.
        if (carried == 0) { print "no path definition found on tests/testpaths.cpp: the check reads nothing"; exit 1 }
        printf "%d objects, %d path definitions where allowed, %d elsewhere\n", objects, carried, bad
        exit bad > 0
    }' "$db"

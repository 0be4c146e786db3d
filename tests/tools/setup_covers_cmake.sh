#!/usr/bin/env bash
# Fails when the CMake configuration looks for something (find_package,
# find_path, find_program, find_library) that tools/setup.sh does not install:
# each name must appear in a `cmake:` comment of the setup script.
set -euo pipefail
root=${1:-$(dirname "$0")/../..}
script="$root/tools/setup.sh"
status=0
names=$(grep -rhoE 'find_(package|path|program|library)\([A-Za-z0-9_]+' \
          --include=CMakeLists.txt --include='*.cmake' "$root" \
          --exclude-dir='build*' | sed 's/.*(//' | sort -u)
[ -n "$names" ] || { echo "no find_* calls found under $root"; exit 1; }
for name in $names; do
  if ! grep -qE "cmake: $name\b" "$script"; then
    echo "tools/setup.sh installs nothing for CMake's '$name'"
    status=1
  fi
done
exit $status

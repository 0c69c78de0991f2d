#!/usr/bin/env bash
# `uniference --version` names the ns-3 the binary really loaded: its core library must lie
# in the prefix this build was configured against (Debian's package and the source build
# share sonames, so a library picked up from the wrong folder would otherwise go unseen), and
# logging must be as that ns-3 was built.
#
#   version_check.sh UNIFERENCE NS3_PREFIX LOGGING(ON|OFF)
set -euo pipefail
out=$("$1" --version)
echo "$out"
library=$(echo "$out" | sed -n 's/^ *library: //p')
case "$(readlink -f "$library")" in
"$(readlink -f "$2")"/*) ;;
*) echo "loaded $library, not from the ns-3 in $2"; exit 1 ;;
esac
if [ "$3" = ON ]; then want="compiled in"; else want="compiled out"; fi
echo "$out" | grep -q "logging: $want" || { echo "logging should be $want"; exit 1; }

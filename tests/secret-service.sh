#!/bin/sh
# Runs a TAP test program on a private D-Bus session bus of its own, with or
# without a Secret Service on it:
#
#   secret-service.sh keyring PROGRAM [ARG...]   gnome-keyring-daemon, its
#                                                login keyring unlocked, in a
#                                                temporary home
#   secret-service.sh none PROGRAM [ARG...]      no Secret Service at all
#
# The bus starts nothing by activation, so "none" stays none even where
# gnome-keyring is installed, and no test ever waits on a keyring prompt.
# PALAVER_TEST_SECRET_SERVICE tells the program which it got. Without
# dbus-run-session (or gnome-keyring-daemon for "keyring") the whole
# program is skipped.
set -eu

mode=${1:-}
case "$mode" in
  keyring|none) shift ;;
  *) echo "usage: $0 keyring|none PROGRAM [ARG...]" >&2; exit 2 ;;
esac

if ! command -v dbus-run-session >/dev/null 2>&1; then
  echo "1..0 # SKIP dbus-run-session is not installed"
  exit 0
fi
if [ "$mode" = keyring ] && ! command -v gnome-keyring-daemon >/dev/null 2>&1; then
  echo "1..0 # SKIP gnome-keyring-daemon is not installed"
  exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/palaver-secrets-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/bus.conf" <<CONF
<busconfig>
  <type>session</type>
  <listen>unix:dir=$tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF

PALAVER_TEST_SECRET_SERVICE=$mode
export PALAVER_TEST_SECRET_SERVICE
dbus-run-session --config-file="$tmp/bus.conf" -- sh -c '
  set -eu
  mode=$1 tmp=$2
  shift 2
  if [ "$mode" = keyring ]; then
    mkdir -m 700 "$tmp/home" "$tmp/data" "$tmp/run"
    # the password of the login keyring, which --unlock creates unlocked;
    # the daemon is no program under test: its warnings are not fatal
    printf "palaver-test" | env -u G_DEBUG -u MALLOC_CHECK_ -u MALLOC_PERTURB_ \
      HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" XDG_RUNTIME_DIR="$tmp/run" \
      gnome-keyring-daemon --foreground --unlock --components=secrets >"$tmp/keyring.log" 2>&1 &
    keyring=$!
    trap "kill $keyring 2>/dev/null || true" EXIT
    if ! gdbus wait --session --timeout 60 org.freedesktop.secrets; then
      cat "$tmp/keyring.log" >&2
      exit 1
    fi
  fi
  status=0
  "$@" || status=$?
  if [ "$mode" = keyring ] && [ $status != 0 ]; then
    cat "$tmp/keyring.log" >&2
  fi
  exit $status
' sh "$mode" "$tmp" "$@"

#!/usr/bin/env bash
# One command to go from a fresh Debian 12 machine to a running Palaver or a
# finished test run:
#
#   build-aux/setup.sh run    install what is missing, build, launch the app
#   build-aux/setup.sh test   install what is missing, build, run every test
#                             headless (Xvfb, a private D-Bus session)
#
# Packages are installed with apt-get when missing (as root, or through sudo).
# The test run also installs, with npm, the real agent and MCP server that the
# integration tests talk to, into the build directory.
set -euo pipefail

mode=${1:-}
case "$mode" in
  run|test) ;;
  *) echo "usage: $0 run|test" >&2; exit 2 ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
builddir=${PALAVER_BUILDDIR:-$top/_build}
cd "$top"

build_packages=(
  meson ninja-build pkg-config gcc gettext itstool
  libglib2.0-dev libglib2.0-dev-bin libgtk-4-dev libadwaita-1-dev
  libjson-glib-dev libsoup-3.0-dev libmd4c-dev libsecret-1-dev libvte-2.91-gtk4-dev
  libsqlite3-dev libgtksourceview-5-dev
  desktop-file-utils appstream
)
test_packages=(
  xvfb xauth dbus dbus-x11 gnome-keyring nodejs npm flatpak-builder
  at-spi2-core python3-pyatspi gir1.2-atspi-2.0 xdotool
  clang libclang-rt-14-dev
)

missing=()
wanted=("${build_packages[@]}")
[ "$mode" = test ] && wanted+=("${test_packages[@]}")
for pkg in "${wanted[@]}"; do
  if [ "$pkg" = nodejs ] || [ "$pkg" = npm ]; then
    # A node from elsewhere (nvm, NodeSource) is as good as Debian's.
    command -v "${pkg/nodejs/node}" >/dev/null 2>&1 && continue
  fi
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing missing packages: ${missing[*]}"
  sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Both modes build the same way (warnings are errors, as in CI), so that
# running the app after testing it, or the other way round, rebuilds nothing.
options=(-Dwerror=true)
if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" "${options[@]}"
elif ! meson configure "$builddir" | grep -Eq '^ *werror +true '; then
  meson configure "$builddir" "${options[@]}" >/dev/null
fi

if [ "$mode" = run ]; then
  # what running needs: the app, its demo agent and the compiled schemas
  meson compile -C "$builddir" palaver palaver-demo-agent gschemas.compiled
  export GSETTINGS_SCHEMA_DIR="$builddir/data"
  export PALAVER_DEMO_AGENT="$builddir/src/demo-agent/palaver-demo-agent"
  exec "$builddir/src/palaver" "${@:2}"
fi

meson compile -C "$builddir"

# Real third-party peers for the integration tests, installed once per build
# directory: the ACP SDK's example agent (only 1.9.0 ships it), the MCP
# reference server, and the real agents tests/test-real-agents.c runs
# against a canned model (pinned; codex-acp wants @openai/codex ^0.166.0,
# which is the agent proper: pinned too).
node_prefix="$builddir/test-deps"
node_packages=(
  @agentclientprotocol/sdk@1.9.0
  @modelcontextprotocol/server-everything
  @agentclientprotocol/claude-agent-acp@0.101.0
  @agentclientprotocol/codex-acp@2.6.0
  @openai/codex@0.166.0
  @google/gemini-cli@0.61.0
)
# What the tests run, native programs from optional dependencies included
# (npm skips those silently when they fail to install).
node_files=(
  @agentclientprotocol/sdk/dist/examples/agent.js
  @modelcontextprotocol/server-everything/dist/index.js
  .bin/claude-agent-acp
  .bin/codex-acp
  .bin/gemini
  '@anthropic-ai/claude-agent-sdk-linux-*/claude'
  '@openai/codex-linux-*/vendor/*/bin/codex'
)

peers_installed () {
  local spec name version json file
  for spec in "${node_packages[@]}"; do
    name=$spec version=
    if [[ $spec == ?*@* ]]; then
      name=${spec%@*} version=${spec##*@}
    fi
    json="$node_prefix/node_modules/$name/package.json"
    [ -f "$json" ] || return 1
    if [ -n "$version" ]; then
      node -e 'process.exit(require(process.argv[1]).version === process.argv[2] ? 0 : 1)' \
        "$json" "$version" || return 1
    fi
  done
  for file in "${node_files[@]}"; do
    compgen -G "$node_prefix/node_modules/$file" >/dev/null || return 1
  done
}

if ! peers_installed; then
  echo "Installing the test peers from npm into $node_prefix"
  mkdir -p "$node_prefix"
  npm install --prefix "$node_prefix" --save-exact --no-audit --no-fund --loglevel=error \
    "${node_packages[@]}"
  if ! peers_installed; then
    echo "The test peers in $node_prefix are incomplete after npm install" >&2
    exit 1
  fi
fi

export GTK_A11Y=none
export GSETTINGS_BACKEND=memory
status=0
xvfb-run -a -s '-screen 0 1280x900x24' \
  dbus-run-session -- meson test -C "$builddir" --print-errorlogs --num-processes 2 || status=1

# The same code and tests again under AddressSanitizer and UBSan, leaks
# included: tests/lsan.supp names the system libraries whose leaks are not
# ours, and tests/lsan-glib.c keeps GLib's start-up allocations in sight.
# intercept_tls_get_addr=0: this LeakSanitizer misreads the bounds of some
# threads' dynamic TLS blocks and crashes while checking for leaks.
# GDK_DEBUG=gl-disable: GTK draws with cairo (as on a machine without a GPU)
# and does not load Mesa, whose driver is unloaded before the leak check
# and so leaves leaks that no suppression can name.
asandir=${PALAVER_ASAN_BUILDDIR:-$top/_build-asan}
if [ ! -f "$asandir/build.ninja" ]; then
  meson setup "$asandir" -Db_sanitize=address,undefined -Db_lundef=false -Dwerror=true
fi
meson compile -C "$asandir"
ln -sfn "$node_prefix" "$asandir/test-deps"
asan_env=(
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:intercept_tls_get_addr=0
  LSAN_OPTIONS=suppressions="$top/tests/lsan.supp":print_suppressions=0
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  GDK_DEBUG=gl-disable
)
env "${asan_env[@]}" xvfb-run -a -s '-screen 0 1280x900x24' \
  dbus-run-session -- meson test -C "$asandir" --print-errorlogs --num-processes 2 \
    --suite acp --suite core --suite fake-agent || status=1
# The GTK tests one at a time (logged apart): GTK processes sharing an X
# server trade selections, and GDK leaves a transfer that the end of a
# process cut short unfreed.
env "${asan_env[@]}" xvfb-run -a -s '-screen 0 1280x900x24' \
  dbus-run-session -- meson test -C "$asandir" --print-errorlogs --num-processes 1 \
    --suite gui --logbase testlog-gui || status=1

# The entry points of untrusted input, fuzzed briefly so that the fuzz
# targets keep working (tests/fuzz/README.md: fuzzing for longer). They need
# clang and libFuzzer: a build directory of their own, building only them.
fuzzdir=${PALAVER_FUZZ_BUILDDIR:-$top/_build-fuzz}
if [ ! -f "$fuzzdir/build.ninja" ]; then
  CC=clang meson setup "$fuzzdir" -Dfuzzing=true -Dtests=false \
    -Db_sanitize=address,undefined -Db_lundef=false -Dwerror=true
fi
meson compile -C "$fuzzdir" fuzz
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  meson test -C "$fuzzdir" --no-rebuild --print-errorlogs --num-processes 2 --suite fuzz || status=1
exit $status

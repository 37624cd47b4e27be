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
  libjson-glib-dev libsoup-3.0-dev libmd4c-dev
  desktop-file-utils appstream
)
test_packages=(
  xvfb xauth dbus dbus-x11 nodejs npm flatpak-builder
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

werror=false
[ "$mode" = test ] && werror=true
if [ -f "$builddir/build.ninja" ]; then
  meson configure "$builddir" -Dwerror=$werror >/dev/null
else
  meson setup "$builddir" -Dwerror=$werror
fi
meson compile -C "$builddir"

if [ "$mode" = run ]; then
  export GSETTINGS_SCHEMA_DIR="$builddir/data"
  export PALAVER_DEMO_AGENT="$builddir/src/demo-agent/palaver-demo-agent"
  exec "$builddir/src/palaver" "${@:2}"
fi

# Real third-party peers for the integration tests, installed once per build
# directory: the ACP SDK's example agent (only 1.9.0 ships it) and the MCP
# reference server.
node_prefix="$builddir/test-deps"
if [ ! -f "$node_prefix/node_modules/@agentclientprotocol/sdk/dist/examples/agent.js" ] ||
   [ ! -f "$node_prefix/node_modules/@modelcontextprotocol/server-everything/dist/index.js" ]; then
  echo "Installing the test peers from npm into $node_prefix"
  mkdir -p "$node_prefix"
  npm install --prefix "$node_prefix" --no-audit --no-fund --loglevel=error \
    @agentclientprotocol/sdk@1.9.0 @modelcontextprotocol/server-everything
fi

export GTK_A11Y=none
export GSETTINGS_BACKEND=memory
status=0
xvfb-run -a -s '-screen 0 1280x900x24' \
  dbus-run-session -- meson test -C "$builddir" --print-errorlogs --num-processes 2 || status=1

# The same code and tests again under AddressSanitizer and UBSan. Leak
# reports are off: GTK and fontconfig keep caches for the life of a process.
asandir=${PALAVER_ASAN_BUILDDIR:-$top/_build-asan}
if [ ! -f "$asandir/build.ninja" ]; then
  meson setup "$asandir" -Db_sanitize=address,undefined -Db_lundef=false -Dwerror=true
fi
meson compile -C "$asandir"
ln -sfn "$node_prefix" "$asandir/test-deps"
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
xvfb-run -a -s '-screen 0 1280x900x24' \
  dbus-run-session -- meson test -C "$asandir" --print-errorlogs --num-processes 2 \
    --suite acp --suite core --suite gui --suite fake-agent || status=1
exit $status

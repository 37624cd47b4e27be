#!/bin/sh
# Builds the benchmarks if need be and runs each of them several times on a
# virtual 1280×900 display, then prints a table. See bench/README.md.
#
#   bench/run.sh [--build DIR] [--runs N] [--only replay|stream|startup] [--quick]
#                [--renderer gl|cairo] [--agent CMD [--session-id ID]] [--compare]
#
# Every run is its own process, so memory figures do not carry over.
# bench-startup launches palaver itself, N times per count of stored
# sessions and settings backend, the counts in turn. The raw
# key=value lines are kept in DIR/bench-results.txt. --renderer sets
# GSK_RENDERER; without it the programs choose as the application does
# (cairo on a machine without a GPU render node, else GTK's default, GL).
# --agent replays the session ID (default bench-replay) of that agent command
# line instead of the fake agent's N updates. --compare also times acpx@0.19.1
# (installed with npm into DIR/acpx) loading the same session of the same
# agent, right after each replay.

set -eu

src_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir="$src_dir/_build-bench"
runs=3
only=
quick=
renderer=
agent=
session_id=bench-replay
compare=
acpx_version=0.19.1

while [ $# -gt 0 ]; do
  case "$1" in
    --build) build_dir=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --renderer) renderer=$2; shift 2 ;;
    --agent) agent=$2; shift 2 ;;
    --session-id) session_id=$2; shift 2 ;;
    --compare) compare=1; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done

for tool in meson ninja xvfb-run dbus-run-session; do
  command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done

# --- build ---
if [ ! -f "$build_dir/build.ninja" ]; then
  meson setup "$build_dir" "$src_dir" -Dbenchmarks=true
elif ! meson introspect --buildoptions "$build_dir" |
     grep -q '"name": "benchmarks", "value": true'; then
  meson configure "$build_dir" -Dbenchmarks=true
fi
# bench-startup needs only itself, the application and the schemas
if [ "$only" = startup ]; then
  targets="bench/bench-startup src/palaver data/gschemas.compiled"
else
  targets=benchmarks
fi
# shellcheck disable=SC2086 # a list of targets
if ! ninja -C "$build_dir" -j2 $targets >"$build_dir/bench-build.log" 2>&1; then
  grep -E -A5 'error|FAILED' "$build_dir/bench-build.log" | head -40 >&2
  echo "The build failed (whole log: $build_dir/bench-build.log)" >&2
  exit 1
fi

# --- acpx, for --compare ---
acpx_cli="$build_dir/acpx/node_modules/acpx/dist/cli.js"
if [ -n "$compare" ]; then
  command -v node >/dev/null && command -v npm >/dev/null ||
    { echo "--compare needs node and npm" >&2; exit 1; }
  if [ ! -f "$acpx_cli" ] ||
     ! grep -q "\"version\": \"$acpx_version\"" "$build_dir/acpx/node_modules/acpx/package.json"; then
    echo "Installing acpx@$acpx_version into $build_dir/acpx"
    npm install --prefix "$build_dir/acpx" --save-exact --no-audit --no-fund --loglevel=error \
      "acpx@$acpx_version" >&2 || { echo "npm could not install acpx" >&2; exit 1; }
  fi
fi

results="$build_dir/bench-results${renderer:+-$renderer}.txt"
: > "$results"

if [ -n "$renderer" ]; then
  GSK_RENDERER=$renderer
  export GSK_RENDERER
fi
echo "$(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //');" \
     "load average $(cut -d' ' -f1-3 /proc/loadavg); renderer ${renderer:-as the application chooses}"

# --- run ---
run() {
  # the virtual display, a private session bus, in-memory settings
  if ! GTK_A11Y=none NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory \
       GSETTINGS_SCHEMA_DIR="$build_dir/data" \
       xvfb-run -a -s '-screen 0 1280x900x24' dbus-run-session -- "$@" \
       >"$build_dir/bench-out.txt" 2>"$build_dir/bench-err.txt"; then
    echo "  failed: $*" >&2
    grep -v dbus-daemon "$build_dir/bench-err.txt" | sed 's/^/  /' >&2 || true
  fi
  # each program runs once: number the runs here
  sed "s/ run=[0-9]* / run=$i /" "$build_dir/bench-out.txt" | tee -a "$results" | sed 's/^/  /' 
}

# acpx loads session $2 of agent command line $1 ($3 updates, 0 when not
# known), in a home and a folder of its own: the wall time from its start to
# its exit (Node's start-up included)
run_acpx() {
  scratch=$(mktemp -d)
  mkdir "$scratch/home" "$scratch/work"
  start=$(date +%s%N)
  if (cd "$scratch/work" && HOME="$scratch/home" node "$acpx_cli" --agent "$1" \
        --cwd "$scratch/work" sessions new --resume-session "$2") \
       >"$build_dir/acpx-out.txt" 2>"$build_dir/acpx-err.txt"; then
    ok=yes
  else
    ok=no
    echo "  acpx failed:" >&2
    sed 's/^/  /' "$build_dir/acpx-err.txt" >&2
  fi
  end=$(date +%s%N)
  rm -rf "$scratch"
  echo "bench=acpx run=$i ok=$ok updates=$3 total_ms=$(( (end - start) / 1000000 ))" |
    tee -a "$results" | sed 's/^/  /'
}

# one replay of $1 updates (the fake agent) or of --agent (no count), then
# acpx on the same
replay() {
  if [ -z "$agent" ]; then
    scenario="$build_dir/bench-replay-$1.json"
    cmd=$("$build_dir/bench/bench-replay" --updates "$1" --write-scenario "$scenario") || exit 1
    run "$build_dir/bench/bench-replay" --agent "$cmd" --session-id "$session_id" --updates "$1"
  else
    cmd=$agent
    run "$build_dir/bench/bench-replay" --agent "$cmd" --session-id "$session_id"
  fi
  if [ -n "$compare" ]; then
    run_acpx "$cmd" "$session_id" "${1:-0}"
  fi
}

if [ -n "$quick" ]; then
  replay_sizes="10000"; stream_chunks=20000; long_line_chunks=8192
else
  replay_sizes="10000 100000"; stream_chunks=200000; long_line_chunks=65536
fi

# start-up first, before the other programs leave the machine warm
if [ -z "$only" ] || [ "$only" = startup ]; then
  for backend in dconf keyfile; do
    echo "start-up, $backend settings: $runs runs of each count, in turn"
    if ! GTK_A11Y=none NO_AT_BRIDGE=1 GSETTINGS_SCHEMA_DIR="$build_dir/data" \
         xvfb-run -a -s '-screen 0 1280x900x24' \
         "$build_dir/bench/bench-startup" --runs "$runs" --backend "$backend" \
         >"$build_dir/bench-out.txt" 2>"$build_dir/bench-err.txt"; then
      echo "  failed: bench-startup --backend $backend" >&2
      sed 's/^/  /' "$build_dir/bench-err.txt" >&2
    fi
    tee -a "$results" <"$build_dir/bench-out.txt" | sed 's/^/  /'
  done
fi

i=1
while [ "$i" -le "$runs" ] && [ "$only" != startup ]; do
  echo "run $i of $runs"
  if [ "$only" != stream ] && [ -n "$agent" ]; then
    replay ""
  elif [ "$only" != stream ]; then
    for n in $replay_sizes; do
      replay "$n"
    done
  fi
  if [ "$only" != replay ]; then
    run "$build_dir/bench/bench-stream" --chunks "$stream_chunks"
    run "$build_dir/bench/bench-stream" --direct --chunks "$stream_chunks"
    run "$build_dir/bench/bench-stream" --long-line --chunks "$long_line_chunks"
  fi
  i=$((i + 1))
done

# --- the table ---
awk '
function get(key,   i, kv) {
  for (i = 1; i <= NF; i++) {
    split($i, kv, "=")
    if (kv[1] == key) return substr($i, length(key) + 2)
  }
  return "-"
}
/^bench=replay/ {
  if (!(get("updates") in seen)) { seen[get("updates")] = 1; sizes[++nsizes] = get("updates") }
  r[++nr] = $0
}
/^bench=stream/ { s[++ns] = $0 }
/^bench=acpx/ { a[++na] = $0 }
/^bench=startup-summary/ { u[++nu] = $0 }
function median(list, n,   i, j, t) {
  for (i = 2; i <= n; i++)
    for (j = i; j > 1 && list[j - 1] > list[j]; j--) { t = list[j]; list[j] = list[j - 1]; list[j - 1] = t }
  return n % 2 ? list[(n + 1) / 2] : (list[n / 2] + list[n / 2 + 1]) / 2
}
END {
  if (nu) {
    print ""
    print "Start-up, launch to the first frame, medians (targets: < 250 ms; 10,000 sessions"
    print "within 100 ms of none)"
    fmt = "%-8s %-4s %-9s %-5s %10s %8s %8s %8s %9s\n"
    printf fmt, "backend", "exe", "sessions", "runs", "median_ms", "min_ms", "max_ms", "cpu_ms",
           "over_none"
    for (k = 1; k <= nu; k++) {
      $0 = u[k]
      if (get("sessions") == 0) none[get("backend") "/" get("executable")] = get("median_first_frame_ms")
    }
    for (k = 1; k <= nu; k++) {
      $0 = u[k]
      key = get("backend") "/" get("executable")
      over = (key in none) ? sprintf("%+.0f", get("median_first_frame_ms") - none[key]) : "-"
      printf fmt, get("backend"), get("executable"), get("sessions"), get("runs"),
             get("median_first_frame_ms"), get("min_first_frame_ms"), get("max_first_frame_ms"),
             get("median_cpu_ms"), over
    }
  }
  if (nr) {
    print ""
    print "Replay (targets: 100,000 updates in total < 1000 ms with cpu < 1200 ms, no frame"
    print "over 33 ms, RSS growth < 100 MiB; 10,000 in total < 200 ms)"
    fmt = "%-8s %-3s %-3s %8s %8s %7s %8s %10s %7s %10s %7s %8s %10s %9s %7s %7s\n"
    printf fmt, "updates", "run", "ok", "total_ms", "ready_ms", "cpu_ms", "cpu_main", "cpu_reader",
           "frames", "longest_ms", "p95_ms", "over_50", "rss_before", "rss_peak", "growth", "closed"
    for (z = 1; z <= nsizes; z++)
      for (k = 1; k <= nr; k++) {
        $0 = r[k]
        if (get("updates") != sizes[z]) continue
        printf fmt, get("updates"), get("run"), get("ok"), get("total_ms"), get("ready_ms"),
               get("cpu_ms"), get("cpu_main_ms"), get("cpu_reader_ms"), get("frames"),
               get("longest_frame_ms"), get("p95_frame_ms"),
               get("frames_over_50ms"), get("rss_before_mib"), get("rss_peak_mib"),
               get("rss_growth_mib"), get("rss_closed_mib")
      }
  }
  if (na) {
    print ""
    print "acpx " acpx_version " against Palaver, the same agent and updates (total_ms: from the"
    print "start of the load, for acpx from its start, to fully shown, for acpx to its exit)"
    fmt = "%-8s %-4s %16s %14s %14s\n"
    printf fmt, "updates", "runs", "palaver_median", "acpx_median", "acpx/palaver"
    for (z = 1; z <= nsizes; z++) {
      np = 0; nx = 0
      for (k = 1; k <= nr; k++) { $0 = r[k]; if (get("updates") == sizes[z] && get("ok") == "yes") p[++np] = get("total_ms") + 0 }
      for (k = 1; k <= na; k++) { $0 = a[k]; if (get("updates") == sizes[z] && get("ok") == "yes") x[++nx] = get("total_ms") + 0 }
      if (np == 0 || nx == 0) continue
      mp = median(p, np); mx = median(x, nx)
      printf "%-8s %-4s %16.0f %14.0f %13.1fx\n", sizes[z], np "/" nx, mp, mx, mx / mp
    }
  }
  if (ns) {
    print ""
    print "Stream (target: no frame with more than 16 ms of work)"
    fmt = "%-7s %-7s %-3s %-3s %8s %7s %7s %10s %8s %8s %9s %10s %10s %8s %8s %8s %8s\n"
    printf fmt, "mode", "chunks", "run", "ok", "total_ms", "cpu_ms", "frames", "longest_ms",
           "work_ms", "p95_work", "work>16ms", "work_first", "work_last", "frame_cpu", "cpu>16ms",
           "own_ms", "own>16ms"
    for (m = 1; m <= 2; m++)
      for (k = 1; k <= ns; k++) {
        $0 = s[k]
        if (get("mode") != (m == 1 ? "agent" : "direct")) continue
        printf fmt, get("mode"), get("chunks"), get("run"), get("ok"), get("total_ms"),
               get("cpu_ms"), get("frames"), get("longest_frame_ms"),
               get("longest_frame_work_ms"), get("p95_frame_work_ms"),
               get("frames_work_over_16ms"), get("first_tenth_work_ms"), get("last_tenth_work_ms"),
               get("longest_frame_cpu_ms"), get("frames_cpu_over_16ms"),
               get("longest_frame_own_ms"), get("frames_own_over_16ms")
      }
  }
}' acpx_version="$acpx_version" "$results"
echo
echo "raw results: $results"

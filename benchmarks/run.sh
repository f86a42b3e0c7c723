#!/usr/bin/env bash
# Runs every benchmark side by side with its peers and prints one line per figure and peer:
#   NAME: ours=X peer=Y ratio=Z unit=U      (ratio > 1: ours is better)
# and writes a Markdown table to benchmarks/results/<mode>.md (<mode>-<areas>.md for some areas).
#
#   benchmarks/run.sh            full run, the numbers we publish
#   benchmarks/run.sh --quick    routine check: every informer, converge and latency contender 3
#                                times, interleaved and rotated (about 20 minutes on 2 cores
#                                before converge grew to 24 runs: about 30, estimated)
#   benchmarks/run.sh --quick workqueue apiserver    only some areas (workqueue, apiserver,
#                                                    informer, converge, latency, cluster,
#                                                    scale)
#
# The scale area (not in a run without areas: about 15 minutes on 2 cores) measures how our cost
# grows with the work: the operator converging 1k, 3k and 10k PodSets x 3 pods (quick: 100, 300,
# 1000) and its pod informer syncing 10k, 50k and 100k pods (quick: 1k, 5k, 10k), with time, API
# calls, the operator's heap after GC, CPU, and the fake server's heap per stored pod, and writes
# results/<mode>-scale.md (SCALE_PODSETS, SCALE_PODS and SCALE_REPEATS override sizes and the
# informer's repeats).
#
# The cluster area (not in a run without areas: it needs the simulated cluster's binaries of
# testkit/kube/build-control-plane.sh) converges N ReplicaSets (the real ReplicaSet controller,
# with its default client limits and with limits equal to ours) and N PodSets (our operator, and
# ours-warm: the same after one unmeasured round in its JVM, what the JIT of a fresh JVM costs) on a
# SimulatedCluster, one contender per fresh cluster, and writes results/<mode>-cluster.md
# (CLUSTER_CONTENDERS="ours ours-warm" runs only those, in that order; CLUSTER_SIZES="100 300" and
# CLUSTER_REPEATS=1 override the sizes and repeats; CLUSTER_KEEP=1 keeps each run's audit log, the
# control plane's process logs (kube-apiserver.log tells why it ended a watch),
# operator log and operator-threads.md: the operator JVM's CPU per phase by thread kind (JIT
# compilers, collector, event loops, workers) and the phase's pod events; with it, CLUSTER_PPROF=60
# also keeps apiserver.pprof: kube-apiserver's CPU profile of the 60 s from the first create on,
# for go tool pprof (results/cluster-apiserver-profile.md reads two), and CLUSTER_PERF=499 keeps
# operator-perf.md: a perf record of our operator's JVM through the three phases (499 samples a
# second), its CPU by phase, thread kind and category, native and kernel frames included (needs
# perf on the PATH; a recorded run's timings are not comparable). The operator's JVM gets
# deploy/operator.yaml's JVM options (JAVA_TOOL_OPTIONS, the container's CPU and memory limits),
# then CONTENDER_JAVA_OPTS, which win: -XX:TieredStopAtLevel=4 measures it with the C2 compiler).
#
# For profiling: CONVERGE_CONTENDERS="ours josdk" (LATENCY_CONTENDERS, INFORMER_CONTENDERS
# likewise) runs only those contenders (converge: ours josdk seed-loop floor; floor is no
# controller but the operator's writes from a plain client, the fake server's capacity for them);
# CONVERGE_LATENCIES_MS="0 5" sets the latencies (ms per request) the converge server injects,
# each a run of every contender (5: a real API server's round trip); CONVERGE_PODSETS and
# CONVERGE_REPEATS the converge size and repeats; INFORMER_REPEATS and LATENCY_REPEATS set how
# many fresh JVMs each informer and latency contender gets (3; the order is rotated each repeat;
# fewer than 2 makes the timing figures invalid: the order was not rotated); besides ours,
# fabric8-informer and josdk, the latency contenders ours-fabric8-watch and ours-inline are ours
# with fabric8's watch or with inline handlers, for A/B runs; and
# CONTENDER_JAVA_OPTS="-XX:StartFlightRecording=filename=/tmp/x.jfr" adds JVM options to every
# contender JVM of the informer and operator benchmarks (informer, converge, latency);
# SERVER_JAVA_OPTS likewise to every server JVM (say "-Xlog:gc:file=/tmp/server-gc-%p.log").
#
# Each figure carries the conditions it needs (benchmarks/.../report/Validity.java): the machine
# was quiet (load average before each run at most 1.5x the CPUs), the latency server sustained
# the rate with its own update round trip below a bound, the informer server was warmed and the
# order rotated. A figure measured outside them prints as "NAME: invalid (reason)" instead of a
# ratio, and the first line of the report says how many are invalid.
# Before each run it waits (at most QUIET_WAIT seconds, 120) for the load average the previous
# run left to fall to that bound, so that back-to-back runs are not judged busy by their own load.
#
# The informer area reports sync two ways, each against the fabric8 backends: the first sync in a
# fresh JVM (informer.sync_time, sync_cpu: what a restarting operator pays), and, in the same JVM
# afterwards, the warm steady state (informer.warm_sync_rate, pods/s: what the code costs): rounds
# of a full sync by a new informer until two consecutive rounds are within 10% (at most 10), then
# INFORMER_WARM_ROUNDS measured rounds (5; 0 leaves the warm rounds out), the median. It needs the
# rounds to have settled (client_warm) and no other process on the CPUs while they ran (others at
# most 0.25 CPUs, as in the cluster area). ours-operator has no warm rounds (no peers for it).
# The warm rounds add about 2 to 3 minutes to --quick informer on a quiet machine (estimated from
# 8 to 15 syncs of 10k pods in each of 12 JVMs; at load 20 they took 1 to 2 minutes per JVM).
#
# Builds what it needs with ./mvnw (package, tests skipped) and go. Progress goes to stderr, the
# figure lines to stdout. Every server it starts listens on 127.0.0.1 only and is stopped at exit.
set -euo pipefail

mode=full
areas=()
for arg in "$@"; do
  case "$arg" in
    --quick) mode=quick ;;
    --full) mode=full ;;
    workqueue | apiserver | informer | converge | latency | cluster | scale) areas+=("$arg") ;;
    -h | --help)
      sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"
      exit 0
      ;;
    *)
      echo "unknown argument: $arg (expected --quick, --full or an area)" >&2
      exit 2
      ;;
  esac
done
# The table: results/<mode>.md for a whole run, results/<mode>-<area>-....md for some areas only
# (so a partial run never overwrites the whole run's table).
if [[ ${#areas[@]} -eq 0 ]]; then
  areas=(workqueue apiserver informer converge latency)
  table_name=$mode
else
  table_name=$mode-$(IFS=-; echo "${areas[*]}")
fi

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bench=benchmarks
raw=$bench/target/raw-$mode
results=$bench/results
rm -rf "$raw"
mkdir -p "$raw" "$results"

if [[ $mode == quick ]]; then
  jmh_opts=(-f 1 -wi 2 -w 500ms -i 3 -r 500ms)
  wq_adds_dedup=1000000 wq_adds_unique=300000 wq_warm=1 wq_rounds=3
  go_opts=(-count 3 -benchtime 500ms)
  api_repeats=1 api_seconds=2 api_rounds=2 api_startups=5 write_per_round=2000 write_rounds=5
  # Smaller sizes and shorter phases than the full run, but still 3 fresh JVMs per contender,
  # interleaved and rotated, so that no figure is one contender's single run.
  informer_sizes=(10000) informer_repeats=${INFORMER_REPEATS:-3}
  informer_warm_max=10 informer_warm_rounds=${INFORMER_WARM_ROUNDS:-5}
  converge_podsets=200 converge_repeats=3
  cluster_sizes=(100) cluster_repeats=1
  scale_podsets=(100 300 1000) scale_pods=(1000 5000 10000)
  latency_rates=1000 latency_seconds=5 latency_repeats=${LATENCY_REPEATS:-3}
else
  jmh_opts=(-f 3 -wi 3 -w 2s -i 5 -r 2s)
  wq_adds_dedup=4000000 wq_adds_unique=1000000 wq_warm=3 wq_rounds=7
  go_opts=(-count 7 -benchtime 2s)
  api_repeats=3 api_seconds=5 api_rounds=3 api_startups=10 write_per_round=5000 write_rounds=7
  informer_sizes=(10000 50000) informer_repeats=${INFORMER_REPEATS:-3}
  informer_warm_max=10 informer_warm_rounds=${INFORMER_WARM_ROUNDS:-5}
  converge_podsets=1000 converge_repeats=3
  cluster_sizes=(100 300 1000) cluster_repeats=2
  scale_podsets=(1000 3000 10000) scale_pods=(10000 50000 100000)
  latency_rates=100,1000,5000 latency_seconds=20 latency_repeats=${LATENCY_REPEATS:-3}
fi

log() { printf '[run.sh %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
# Run-level conditions (conditions.txt): check_quiet <figure scope regex> [file] records whether
# the machine is quiet before a run: 1-minute load average at most 1.5x
# the CPUs (the benchmark's own JVMs load at most the CPUs; more is other work sharing them, and
# then timing says nothing); into file instead of conditions.txt, it applies to that file only.
condition() { echo "CONDITION $1 $2 $3 $4" >>"${5:-$raw/conditions.txt}"; }
# wait_quiet: right after a run the benchmark's own JVMs and servers still count in the 1-minute
# load average for a minute or so, which says nothing about other work; so before a run wait (at
# most QUIET_WAIT seconds, 120) for it to fall to the quiet bound. The check records what it finds.
wait_quiet() {
  local waited=0 limit=${QUIET_WAIT:-120} bound
  bound=$(awk -v n="$ncpu" 'BEGIN { print 1.5 * n }')
  while ((waited < limit)) &&
    ! awk -v l="$(cut -d' ' -f1 /proc/loadavg)" -v b="$bound" 'BEGIN { exit !(l <= b) }'; do
    sleep 5
    waited=$((waited + 5))
  done
  ((waited == 0)) || log "waited ${waited} s for the load average to fall to $bound"
}
check_quiet() {
  local load bound file=${2:-$raw/conditions.txt}
  wait_quiet
  load=$(cut -d' ' -f1 /proc/loadavg)
  bound=$(awk -v n="$ncpu" 'BEGIN { print 1.5 * n }')
  if awk -v l="$load" -v b="$bound" 'BEGIN { exit !(l <= b) }'; then
    condition "$1" quiet_machine ok "load average $load <= $bound before the run" "$file"
  else
    condition "$1" quiet_machine violated \
      "machine busy: load average $load > $bound before the run" "$file"
  fi
}
# cpu_mark prints "<machine busy ticks> <this run's ticks> <ns>": the run's ticks are this script's
# own, its waited-for children's (each contender, a stopped server) and the running server's, so
# two marks tell how much CPU processes outside the run used between them.
cpu_mark() {
  local busy run server=0
  busy=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat)
  # Fields 14-17 of /proc/PID/stat: utime stime cutime cstime (after "(comm)", which has no spaces
  # for bash and java).
  run=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$$/stat")
  if [[ -n "$server_pid" ]]; then
    server=$(awk '{ print $14 + $15 }' "/proc/$server_pid/stat" 2>/dev/null || echo 0)
  fi
  echo "$busy $((run + server)) $(date +%s%N)"
}
# check_others <figure scope regex> <cpu_mark from the run's start> [file]: the run's figures hold
# only if processes outside it used at most 0.25 CPUs on average meanwhile (the cluster area's
# bound). After a run the load average cannot tell: it counts the run's own threads, and an
# operator's 8 workers beside the server's event loops keep it above 1.5x the CPUs on a quiet
# machine.
check_others() {
  local -a start now
  read -r -a start <<<"$2"
  read -r -a now <<<"$(cpu_mark)"
  local others
  others=$(awk -v b0="${start[0]}" -v r0="${start[1]}" -v t0="${start[2]}" \
    -v b1="${now[0]}" -v r1="${now[1]}" -v t1="${now[2]}" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { o = ((b1 - b0) - (r1 - r0)) / hz / ((t1 - t0) / 1e9); printf "%.2f", o < 0 ? 0 : o }')
  if awk -v o="$others" 'BEGIN { exit !(o <= 0.25) }'; then
    condition "$1" quiet_machine ok "others used $others CPUs during the run (bound 0.25)" "${3:-}"
  else
    condition "$1" quiet_machine violated \
      "machine busy: others used $others CPUs during the run (bound 0.25)" "${3:-}"
  fi
}
has_area() { [[ " ${areas[*]} " == *" $1 "* ]]; }

# Pinning: with two or more CPUs, a server runs on the first and its client on the others.
ncpu=$(nproc)
if command -v taskset >/dev/null && ((ncpu >= 2)); then
  pin_server=(taskset -c 0)
  pin_client=(taskset -c "1-$((ncpu - 1))")
else
  pin_server=()
  pin_client=()
fi

log "building (mode $mode, areas: ${areas[*]})"
./mvnw -B -q -pl benchmarks -am package -DskipTests
cp="$bench/target/classes:$(cat "$bench/target/classpath.txt")"
java_opts=(-Xms1g -Xmx1g -XX:+UseG1GC)

{
  echo "- mode: \`$mode\` (\`benchmarks/run.sh$([[ $mode == quick ]] && echo ' --quick')\`)"
  echo "- date: $(date -u +%Y-%m-%dT%H:%MZ), commit \`$(git rev-parse --short HEAD 2>/dev/null || echo unknown)\`"
  echo "- machine: $ncpu CPUs, load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- $(java -version 2>&1 | sed -n 2p), $(go version 2>/dev/null | cut -d' ' -f3-4)"
  echo "- JMH: \`${jmh_opts[*]} -prof gc\`; Go: \`${go_opts[*]} -benchmem\`"
  echo "- fresh JVMs per contender: informer $informer_repeats, latency $latency_repeats," \
    "converge $converge_repeats (median)"
} >"$raw/meta.md"

if has_area workqueue; then
  log "work queue: JMH (ours, client-java, lbq)"
  check_quiet 'workqueue\..*'
  java -cp "$cp" org.openjdk.jmh.Main 'io\.podset\.benchmarks\.workqueue\..*' \
    "${jmh_opts[@]}" -prof gc -rf json -rff "$raw/workqueue.jmh.json" >"$raw/workqueue.jmh.log" 2>&1 ||
    { tail -40 "$raw/workqueue.jmh.log" >&2; exit 1; }
  log "work queue: 1 producer / 2 workers"
  check_quiet 'workqueue\..*'
  for contender in ours client-java lbq; do
    java "${java_opts[@]}" -cp "$cp" io.podset.benchmarks.workqueue.WorkerThroughput \
      "$contender" dedup "$wq_adds_dedup" "$wq_warm" "$wq_rounds" >>"$raw/workqueue-workers.txt"
    java "${java_opts[@]}" -cp "$cp" io.podset.benchmarks.workqueue.WorkerThroughput \
      "$contender" unique "$wq_adds_unique" "$wq_warm" "$wq_rounds" >>"$raw/workqueue-workers.txt"
  done
  log "work queue: client-go (go test -bench)"
  check_quiet 'workqueue\..*'
  (cd "$bench/go" && go test -run '^$' -bench . -benchmem "${go_opts[@]}") >"$raw/workqueue.go.txt" 2>&1 ||
    { tail -40 "$raw/workqueue.go.txt" >&2; exit 1; }
fi

# An API server in its own JVM on its own CPU: start_server <kind> [ServerMain options...] sets
# server_url; stop_server closes its standard input, which stops it. start_main <label> <class>
# [args...] does the same for another server main class (the operator benchmarks' drivers), whose
# output is in $server_out.
server_pid=
server_out=
start_server() {
  local kind=$1
  shift
  start_main "$kind" io.podset.benchmarks.server.ServerMain "$kind" "$@"
}
start_main() {
  local label=$1 main=$2
  shift 2
  server_out="$raw/server-$label-$((++server_runs)).txt"
  rm -f "$raw/server.in"
  mkfifo "$raw/server.in"
  # shellcheck disable=SC2086 # SERVER_JAVA_OPTS holds several options
  "${pin_server[@]}" java -Xmx8g -XX:+UseG1GC ${SERVER_JAVA_OPTS:-} -cp "$cp" "$main" "$@" \
    <"$raw/server.in" >"$server_out" 2>"$server_out.log" &
  server_pid=$!
  exec 3>"$raw/server.in"
  local deadline=$((SECONDS + 900))
  until grep -qs '^READY ' "$server_out"; do
    if ! kill -0 "$server_pid" 2>/dev/null || ((SECONDS > deadline)); then
      tail -20 "$server_out.log" >&2
      echo "server $label did not become ready" >&2
      exit 1
    fi
    sleep 0.2
  done
  server_url=$(sed -n 's/^READY //p' "$server_out")
}
stop_server() {
  exec 3>&-
  wait "$server_pid" || true
  server_pid=
  rm -f "$raw/server.in"
}
# A contender JVM on the other CPUs against the running server: run_contender <label> <class>
# [args...] starts it, waits until the server prints DONE (or exits), then closes the contender's
# standard input, which stops it. Its standard output (figures, if it measures) is a .txt file.
contender_pid=
run_contender() {
  local label=$1 main=$2
  shift 2
  local out="$raw/contender-$label-$server_runs"
  rm -f "$raw/contender.in"
  mkfifo "$raw/contender.in"
  # shellcheck disable=SC2086 # CONTENDER_JAVA_OPTS holds several options
  "${pin_client[@]}" java -Xmx2g -XX:+UseG1GC ${CONTENDER_JAVA_OPTS:-} -cp "$cp" "$main" "$@" \
    <"$raw/contender.in" >"$out.txt" 2>"$out.log" &
  contender_pid=$!
  exec 4>"$raw/contender.in"
  local deadline=$((SECONDS + 1200))
  until grep -qs '^DONE' "$server_out"; do
    if ! kill -0 "$server_pid" 2>/dev/null || ! kill -0 "$contender_pid" 2>/dev/null ||
      ((SECONDS > deadline)); then
      tail -20 "$server_out.log" "$out.log" >&2
      echo "run of $label did not finish" >&2
      exit 1
    fi
    sleep 0.5
  done
  exec 4>&-
  wait "$contender_pid" || true
  contender_pid=
  rm -f "$raw/contender.in"
}
cleanup() {
  if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; fi
  if [[ -n $contender_pid ]]; then kill "$contender_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT
server_runs=0
client_java=("${pin_client[@]}" java -XX:+UseG1GC -cp "$cp")

if has_area apiserver; then
  for ((rep = 1; rep <= api_repeats; rep++)); do
    for kind in ours fabric8-mock; do
      log "API server: $kind (start-up, GET/PUT, watch; repeat $rep/$api_repeats)"
      check_quiet 'apiserver\..*'
      start_server "$kind" --startups "$api_startups"
      "${client_java[@]}" -Xmx2g io.podset.benchmarks.apiserver.ApiServerLoad \
        "$kind" "$server_url" "$api_seconds" "$api_rounds" >>"$raw/apiserver-load.txt"
      stop_server
    done
  done
  # The fake's own cost per write (server-thread CPU and allocation, a watch open) and its heap per
  # stored pod: ours only, server and client in one JVM (WriteCost).
  log "API server: ours, CPU and allocation per write"
  check_quiet 'apiserver\.write_cpu\..*'
  java -Xmx4g -XX:+UseG1GC -cp "$cp" io.podset.benchmarks.apiserver.WriteCost \
    "$write_per_round" "$write_rounds" >>"$raw/apiserver-write-cost.txt"
  grep "^RESULT" "$raw/apiserver-write-cost.txt" >&2
fi

# Untimed full lists (one whole, one in pages of 500, as the contenders ask), so that no contender
# pays for the server's JIT warm-up of list serialization.
warm_lists() {
  local url=$1/api/v1/pods page=$raw/warm-page.json token=
  for ((w = 0; w < 2; w++)); do
    "${pin_client[@]}" curl -sf -o /dev/null "$url"
  done
  while :; do
    "${pin_client[@]}" curl -sf -o "$page" -G --data-urlencode "limit=500" \
      ${token:+--data-urlencode "continue=$token"} "$url"
    token=$(head -c 4096 "$page" | sed -n 's/.*"continue":"\([^"]*\)".*/\1/p')
    [[ -n $token ]] || break
  done
  rm -f "$page"
}

if has_area informer; then
  # shellcheck disable=SC2206 # INFORMER_CONTENDERS holds several names
  informer_contenders=(${INFORMER_CONTENDERS:-ours ours-operator fabric8-vertx fabric8-okhttp fabric8-jdk})
  n_contenders=${#informer_contenders[@]}
  for pods in "${informer_sizes[@]}"; do
    label="$((pods / 1000))k"
    log "informer: seeding $pods pods"
    start_server ours --pods "$pods"
    log "informer: warming the server with untimed lists"
    warm_lists "$server_url"
    for ((rep = 1; rep <= informer_repeats; rep++)); do
      # Each repeat starts with the next contender, so none is always first or always after one.
      for ((i = 0; i < n_contenders; i++)); do
        contender=${informer_contenders[$(((i + rep - 1) % n_contenders))]}
        log "informer: $contender syncs $pods pods (repeat $rep/$informer_repeats)"
        # One file per run: its conditions apply to its figures only.
        out="$raw/informer-$label-$rep-$contender.txt"
        condition 'informer\..*' server_warmed ok "untimed full and paged lists before the runs" "$out"
        if ((informer_repeats >= 2)); then
          condition 'informer\..*' order_rotated ok "$informer_repeats repeats, order rotated" "$out"
        else
          condition 'informer\..*' order_rotated violated \
            "one run per contender: the order was not rotated" "$out"
        fi
        check_quiet 'informer\..*'
        # After the first sync the same JVM measures the warm steady state (informer.warm_sync_rate:
        # rounds of a new informer's full sync); not ours-operator's, which has no peers here.
        warm=()
        if [[ $contender != ours-operator ]] && ((informer_warm_rounds > 0)); then
          warm=("$informer_warm_max" "$informer_warm_rounds")
        fi
        mark=$(cpu_mark)
        # shellcheck disable=SC2086 # CONTENDER_JAVA_OPTS holds several options
        "${client_java[@]}" -Xmx6g ${CONTENDER_JAVA_OPTS:-} \
          io.podset.benchmarks.informer.InformerSync \
          "$contender" "$server_url" "$pods" "$label" "${warm[@]}" >>"$out"
        # The warm rounds run long after the load average was read: others must stay off the CPUs.
        check_others 'informer\.warm_sync_rate\..*' "$mark" "$out"
      done
    done
    stop_server
  done
fi

if has_area converge; then
  # For profiling: CONVERGE_PODSETS and CONVERGE_REPEATS override the mode's size and repeats,
  # CONVERGE_LATENCIES_MS the latencies (ms per request, 0: none) the server injects.
  converge_podsets=${CONVERGE_PODSETS:-$converge_podsets}
  converge_repeats=${CONVERGE_REPEATS:-$converge_repeats}
  read -r -a converge_contenders <<<"${CONVERGE_CONTENDERS:-ours josdk seed-loop floor}"
  read -r -a converge_latencies <<<"${CONVERGE_LATENCIES_MS:-0 5}"
  n=${#converge_contenders[@]}
  for latency in "${converge_latencies[@]}"; do
    for ((rep = 1; rep <= converge_repeats; rep++)); do
      # Rotated as the other areas: repeat r starts with contender r (mod n).
      for ((i = 0; i < n; i++)); do
        contender=${converge_contenders[$(((i + rep - 1) % n))]}
        log "converge: $contender, $converge_podsets PodSets x 3 pods, $latency ms per request" \
          "(repeat $rep/$converge_repeats)"
        check_quiet 'operator\.converge_.*'
        start_main "converge-$contender" io.podset.benchmarks.operator.ConvergeServer \
          "$converge_podsets" 3 10 "$latency"
        run_contender "converge-$contender" io.podset.benchmarks.operator.ConvergeContender \
          "$contender" "$server_url"
        stop_server
      done
    done
  done
fi

if has_area latency; then
  # Interleaved and rotated: repeat r starts with contender r (mod n), so each contender runs
  # first, in the middle and last equally often, and a drift of the machine's load is shared.
  read -r -a latency_contenders <<<"${LATENCY_CONTENDERS:-ours fabric8-informer josdk}"
  n=${#latency_contenders[@]}
  for ((rep = 0; rep < latency_repeats; rep++)); do
    for ((i = 0; i < n; i++)); do
      contender=${latency_contenders[$(((rep + i) % n))]}
      log "latency: $contender at $latency_rates updates/s, ${latency_seconds}s each" \
        "(repeat $((rep + 1))/$latency_repeats)"
      check_quiet 'operator\.latency_.*'
      start_main "latency-$contender" io.podset.benchmarks.operator.LatencyServer \
        "$latency_rates" "$latency_seconds"
      run_contender "latency-$contender" io.podset.benchmarks.operator.LatencyContender \
        "$contender" "$server_url"
      # The server's checks of its rate and round trip in each phase apply to this run's figures.
      grep '^CONDITION ' "$server_out" >>"$raw/contender-latency-$contender-$server_runs.txt" || true
      stop_server
    done
  done
fi

if has_area cluster; then
  # Rows go straight to the table: one per contender, size, repeat and phase.
  cluster_table=$results/$mode-cluster.md
  {
    echo "# Simulated cluster: ReplicaSet controller vs our operator ($mode)"
    echo
    cat "$raw/meta.md"
    echo
    echo "N objects x 3 pods on a SimulatedCluster (10 kwok nodes); wall s; CPU s of the contender"
    echo "(kube-controller-manager or the operator JVM), kube-apiserver and etcd; the contender's"
    echo "API calls from the audit log. Rows marked INVALID: processes outside the run used more than"
    echo "a quarter of a CPU on average while it ran. Ours runs on a controller manager with the equal"
    echo "limits (its garbage collector deletes our pods); ours-warm is ours after one unmeasured round"
    echo "of the same work in the same operator JVM. Ours is the operator's jar in its own JVM with the"
    echo "JVM options of deploy/operator.yaml: its JAVA_TOOL_OPTIONS ($(sed -n 's/^ *value: "\(-XX:.*\)"$/\1/p' deploy/operator.yaml))"
    echo "and its container's limits as -XX:ActiveProcessorCount and -XX:MaxRAM."
    echo
    echo "| contender | N | phase | wall s | contender CPU s | apiserver CPU s | etcd CPU s | API calls | load |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  } >"$cluster_table"
  KUBEBUILDER_ASSETS="${KUBEBUILDER_ASSETS:-$(testkit/kube/build-control-plane.sh)}"
  export KUBEBUILDER_ASSETS
  read -r -a cluster_sizes <<<"${CLUSTER_SIZES:-${cluster_sizes[*]}}"
  cluster_repeats=${CLUSTER_REPEATS:-$cluster_repeats}
  for n in "${cluster_sizes[@]}"; do
    for ((rep = 1; rep <= cluster_repeats; rep++)); do
      for contender in ${CLUSTER_CONTENDERS:-replicaset-default replicaset-equal ours ours-warm}; do
        log "cluster: $contender, $n x 3 pods (repeat $rep/$cluster_repeats)"
        wait_quiet
        java -Xmx4g -XX:+UseG1GC -cp "$cp" io.podset.benchmarks.operator.ClusterConverge \
          "$contender" "$n" "$cluster_table" >>"$raw/cluster.txt" 2>"$raw/cluster-$contender-$n-$rep.log" ||
          { tail -20 "$raw/cluster-$contender-$n-$rep.log" >&2; exit 1; }
      done
    done
  done
  log "table written to $cluster_table"
  # The cluster area writes its own table; the report covers the other areas.
  [[ "${areas[*]}" != cluster ]] || exit 0
fi

if has_area scale; then
  # One run per size: the operator's JVM and the server's, as the converge area; then the operator's
  # pod informer against a seeded server, warmed, SCALE_REPEATS fresh JVMs per size. Each run's
  # load average before and after goes into its own files' conditions.
  read -r -a scale_podsets <<<"${SCALE_PODSETS:-${scale_podsets[*]}}"
  read -r -a scale_pods <<<"${SCALE_PODS:-${scale_pods[*]}}"
  scale_repeats=${SCALE_REPEATS:-3}
  for n in "${scale_podsets[@]}"; do
    log "scale: ours converges $n PodSets x 3 pods"
    quiet=$raw/scale-quiet.tmp
    rm -f "$quiet"
    check_quiet 'operator\.converge_.*' "$quiet"
    mark=$(cpu_mark)
    start_main "scale-converge-$n" io.podset.benchmarks.operator.ConvergeServer "$n" 3 10
    run_contender "scale-converge-$n" io.podset.benchmarks.operator.ConvergeContender \
      ours "$server_url" "$n"
    stop_server
    check_others 'operator\.converge_.*' "$mark" "$quiet"
    cat "$quiet" >>"$server_out"
    cat "$quiet" >>"$raw/contender-scale-converge-$n-$server_runs.txt"
  done
  for pods in "${scale_pods[@]}"; do
    label=$( ((pods % 1000 == 0)) && echo "$((pods / 1000))k" || echo "$pods")
    log "scale: seeding $pods pods"
    start_server ours --pods "$pods"
    warm_lists "$server_url"
    for ((rep = 1; rep <= scale_repeats; rep++)); do
      log "scale: the operator's pod informer syncs $pods pods (repeat $rep/$scale_repeats)"
      out="$raw/scale-informer-$label-$rep.txt"
      condition 'informer\..*' server_warmed ok "untimed full and paged lists before the runs" "$out"
      check_quiet 'informer\..*' "$out"
      mark=$(cpu_mark)
      # shellcheck disable=SC2086 # CONTENDER_JAVA_OPTS holds several options
      "${client_java[@]}" -Xmx6g ${CONTENDER_JAVA_OPTS:-} \
        io.podset.benchmarks.informer.InformerSync ours-operator "$server_url" "$pods" "$label" \
        >>"$out"
      check_others 'informer\..*' "$mark" "$out"
    done
    stop_server
  done
  echo "- wall time: ${SECONDS} s, build included; load average at the end $(cut -d' ' -f1-3 /proc/loadavg)" \
    >>"$raw/meta.md"
  java -cp "$cp" io.podset.benchmarks.report.ScaleReport "$raw" "$results/$mode-scale.md" "$mode"
  log "table written to $results/$mode-scale.md"
  [[ "${areas[*]}" != scale ]] || exit 0
fi

log "report"
echo "- wall time: ${SECONDS} s, build included; load average at the end $(cut -d' ' -f1-3 /proc/loadavg)" \
  >>"$raw/meta.md"
java -cp "$cp" io.podset.benchmarks.report.Report "$raw" "$results/$table_name.md" "$mode"
log "table written to $results/$table_name.md"

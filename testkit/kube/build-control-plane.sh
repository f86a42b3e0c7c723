#!/usr/bin/env bash
# Builds a Kubernetes control plane for tests (kube-apiserver, kube-controller-manager,
# kube-scheduler, etcd), kwok (fake nodes and pod lifecycles, for the simulated cluster) and the
# testkit's client-go conformance suite (testkit/clientgo, run against the fake and the real server) from
# Go modules fetched through the Go module proxy, into a cache directory outside the repository,
# and only the binaries that are missing or were built from other versions. No Docker, no other
# downloads, and no binary ever lands in the repository.
#
# Usage: testkit/kube/build-control-plane.sh [--dir DIR] [--force] [--print-dir]
#
# The last line printed on stdout is the directory that holds the binaries, so
#   export KUBEBUILDER_ASSETS="$(testkit/kube/build-control-plane.sh)"
# works; progress goes to stderr.
#
# Environment (all optional):
#   KUBE_VERSION            k8s.io/kubernetes release to build (default below)
#   ETCD_VERSION            go.etcd.io/etcd/server/v3 release to build (default below)
#   KWOK_VERSION            sigs.k8s.io/kwok release to build (default below)
#   PODSET_KUBE_ASSETS_DIR  where the binaries go
#                           (default ${XDG_CACHE_HOME:-$HOME/.cache}/podset/kube/$KUBE_VERSION)
#   PODSET_GO_BUILD_P       go build parallelism (-p), default 2: the machines have 2 cores
#
# The launcher (io.podset.testkit.envtest) looks in the same default directory, so keep the
# default versions in step with ControlPlaneBinaries.DEFAULT_KUBE_VERSION (a test checks this).
#
# The stamp file .stamp names the version each component's binaries were built from
# ("kube=v1.34.4 etcd=v3.6.16 kwok=v0.8.0 clientgo=src-<hash of its sources>"); it is rewritten
# after each component, so an
# interrupted or failed build keeps what it finished, and a binary that is missing (such as
# kube-scheduler in a cache made before it was added) is built alone.
set -euo pipefail

KUBE_VERSION="${KUBE_VERSION:-v1.34.4}"
ETCD_VERSION="${ETCD_VERSION:-v3.6.16}"
KWOK_VERSION="${KWOK_VERSION:-v0.8.0}"
GO_BUILD_P="${PODSET_GO_BUILD_P:-2}"
ASSETS_DIR="${PODSET_KUBE_ASSETS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/podset/kube/${KUBE_VERSION}}"
FORCE=0
PRINT_ONLY=0
CLIENTGO_DIR="$(cd "$(dirname "$0")/../clientgo" && pwd)"

log() { printf '[build-control-plane] %s\n' "$*" >&2; }
die() {
  printf '[build-control-plane] ERROR: %s\n' "$*" >&2
  exit 1
}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --dir)
      [[ $# -ge 2 ]] || die "--dir needs a value"
      ASSETS_DIR="$2"
      shift 2
      ;;
    --force) FORCE=1; shift ;;
    --print-dir) PRINT_ONLY=1; shift ;;
    -h | --help)
      sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *) die "unknown argument '$1' (try --help)" ;;
  esac
done

[[ "$KUBE_VERSION" =~ ^v1\.([0-9]+)\.([0-9]+)$ ]] \
  || die "KUBE_VERSION must look like v1.34.4, got '$KUBE_VERSION'"
KUBE_MINOR="${BASH_REMATCH[1]}"
KUBE_PATCH="${BASH_REMATCH[2]}"
STAGING_VERSION="v0.${KUBE_MINOR}.${KUBE_PATCH}"
[[ "$ETCD_VERSION" =~ ^v3\.[0-9]+\.[0-9]+$ ]] \
  || die "ETCD_VERSION must look like v3.6.16, got '$ETCD_VERSION'"
[[ "$KWOK_VERSION" =~ ^v0\.[0-9]+\.[0-9]+$ ]] \
  || die "KWOK_VERSION must look like v0.8.0, got '$KWOK_VERSION'"
[[ "$GO_BUILD_P" =~ ^[1-9][0-9]*$ ]] || die "PODSET_GO_BUILD_P must be a positive integer, got '$GO_BUILD_P'"

if [[ "$PRINT_ONLY" == 1 ]]; then
  echo "$ASSETS_DIR"
  exit 0
fi

# Which binaries each component has, and the version the stamp must name for them.
# The client-go suite's version is a hash of its sources: an edit rebuilds it.
CLIENTGO_VERSION="src-$(cd "$CLIENTGO_DIR" && cat go.mod go.sum ./*.go | sha256sum | cut -c1-16)"
declare -A WANT=([kube]="$KUBE_VERSION" [etcd]="$ETCD_VERSION" [kwok]="$KWOK_VERSION" [clientgo]="$CLIENTGO_VERSION")
declare -A BINARIES=(
  [kube]="kube-apiserver kube-controller-manager kube-scheduler"
  [etcd]="etcd"
  [kwok]="kwok"
  [clientgo]="clientgo-conformance"
)
COMPONENTS=(kube etcd kwok clientgo)
STAMP_CONTENT="kube=${KUBE_VERSION} etcd=${ETCD_VERSION} kwok=${KWOK_VERSION} clientgo=${CLIENTGO_VERSION}"

# HAVE[component] = the version the stamp names for it (none when absent or --force).
declare -A HAVE=()
read_stamp() {
  HAVE=()
  [[ "$FORCE" == 0 && -f "$ASSETS_DIR/.stamp" ]] || return 0
  local word
  for word in $(cat "$ASSETS_DIR/.stamp"); do
    [[ "$word" == *=* ]] && HAVE["${word%%=*}"]="${word#*=}"
  done
  return 0
}

# The binaries of a component that must be built: all of them when the stamp names another
# version, else the ones that are missing.
missing() {
  local component="$1" b out=()
  for b in ${BINARIES[$component]}; do
    if [[ "${HAVE[$component]:-}" != "${WANT[$component]}" || ! -x "$ASSETS_DIR/$b" ]]; then
      out+=("$b")
    fi
  done
  echo "${out[*]:-}"
}

is_complete() {
  local c
  read_stamp
  for c in "${COMPONENTS[@]}"; do
    [[ -z "$(missing "$c")" ]] || return 1
  done
}

write_stamp() {
  local c words=()
  for c in "${COMPONENTS[@]}"; do
    [[ -n "${HAVE[$c]:-}" ]] && words+=("${c}=${HAVE[$c]}")
  done
  if [[ ${#words[@]} -eq 0 ]]; then
    rm -f "$ASSETS_DIR/.stamp"
    return 0
  fi
  echo "${words[*]}" >"$ASSETS_DIR/.stamp.tmp"
  mv -f "$ASSETS_DIR/.stamp.tmp" "$ASSETS_DIR/.stamp"
}

if is_complete; then
  log "up to date: ${STAMP_CONTENT} in ${ASSETS_DIR}"
  echo "$ASSETS_DIR"
  exit 0
fi

command -v go >/dev/null 2>&1 \
  || die "Go is not installed: install Go >= 1.24 (the Go module proxy must be reachable), or point KUBEBUILDER_ASSETS at existing binaries"

mkdir -p "$ASSETS_DIR" || die "cannot create $ASSETS_DIR"
ASSETS_DIR="$(cd "$ASSETS_DIR" && pwd)"

# One build at a time per directory (several worktrees may run tests at once).
exec 9>"$ASSETS_DIR/.lock"
if command -v flock >/dev/null 2>&1; then
  flock 9 || die "cannot lock $ASSETS_DIR/.lock"
fi
if is_complete; then
  log "built meanwhile by another process: ${ASSETS_DIR}"
  echo "$ASSETS_DIR"
  exit 0
fi
KUBE_MISSING="$(missing kube)"
ETCD_MISSING="$(missing etcd)"
KWOK_MISSING="$(missing kwok)"
CLIENTGO_MISSING="$(missing clientgo)"
# A component built from other versions loses its word in the stamp until all its binaries are
# replaced; one whose version matches keeps it while its missing binaries are built.
for c in "${COMPONENTS[@]}"; do
  [[ "${HAVE[$c]:-}" == "${WANT[$c]}" ]] || unset "HAVE[$c]"
done
write_stamp
log "to build: ${KUBE_MISSING} ${ETCD_MISSING} ${KWOK_MISSING} ${CLIENTGO_MISSING}"

# install COMPONENT BINARY...: moves the built binaries into the cache, then stamps the component.
install_component() {
  local component="$1" b
  shift
  for b in "$@"; do
    mv -f "$WORK/out/$b" "$ASSETS_DIR/$b"
  done
  HAVE[$component]="${WANT[$component]}"
  write_stamp
  log "installed $(cd "$ASSETS_DIR" && ls -l "$@" | awk '{printf "%s %d MB; ", $NF, $5/1048576}')"
}

WORK="$(mktemp -d "${TMPDIR:-/tmp}/podset-kube-build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

export CGO_ENABLED=0
export GOFLAGS="${GOFLAGS:-} -mod=mod -p=${GO_BUILD_P}"
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
log "$(go version); GOFLAGS='${GOFLAGS}'"

# ---------------------------------------------------------------- kube-apiserver, controller-manager, scheduler
build_kube() {
  log "resolving k8s.io/kubernetes@${KUBE_VERSION}"
  local kube_gomod
  kube_gomod="$(go mod download -json "k8s.io/kubernetes@${KUBE_VERSION}" \
    | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')" \
    || die "cannot download k8s.io/kubernetes@${KUBE_VERSION} from the Go module proxy"
  [[ -f "$kube_gomod" ]] || die "go mod download gave no go.mod for k8s.io/kubernetes@${KUBE_VERSION}"
  local kube_info="${kube_gomod%.mod}.info" build_date
  build_date="$(sed -n 's/.*"Time":"\([^"]*\)".*/\1/p' "$kube_info")"
  build_date="${build_date:-1970-01-01T00:00:00Z}"

  # Staging modules are required as k8s.io/X v0.0.0 and replaced by ./staging/src/k8s.io/X in the
  # release's own go.mod; replace directives of a dependency are ignored, so the wrapper maps each
  # one to its published tag v0.MINOR.PATCH.
  local staging go_line godebug_line m
  mapfile -t staging < <(sed -n 's#^[[:space:]]*\(k8s\.io/[A-Za-z0-9._-]*\)[[:space:]]*=>[[:space:]]*\./staging/src/.*#\1#p' "$kube_gomod")
  [[ ${#staging[@]} -gt 0 ]] || die "found no staging replace directives in $kube_gomod"
  go_line="$(grep -m1 '^go ' "$kube_gomod")"
  godebug_line="$(grep -m1 '^godebug ' "$kube_gomod" || true)"
  log "${#staging[@]} staging modules mapped to ${STAGING_VERSION}"

  mkdir -p "$WORK/kube"
  {
    echo "module podset.test/kube-control-plane"
    echo
    echo "$go_line"
    [[ -n "$godebug_line" ]] && echo "$godebug_line"
    echo
    echo "require k8s.io/kubernetes ${KUBE_VERSION}"
    echo
    echo "replace ("
    for m in "${staging[@]}"; do
      echo "	${m} => ${m} ${STAGING_VERSION}"
    done
    echo ")"
  } >"$WORK/kube/go.mod"

  local kube_ldflags="" pkg b
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    kube_ldflags+=" -X ${pkg}.gitVersion=${KUBE_VERSION}"
    kube_ldflags+=" -X ${pkg}.gitMajor=1"
    kube_ldflags+=" -X ${pkg}.gitMinor=${KUBE_MINOR}"
    kube_ldflags+=" -X ${pkg}.gitTreeState=clean"
    kube_ldflags+=" -X ${pkg}.buildDate=${build_date}"
  done
  local targets=()
  for b in $KUBE_MISSING; do
    targets+=("k8s.io/kubernetes/cmd/$b")
  done

  log "building ${KUBE_MISSING} ${KUBE_VERSION} (this takes a while on a cold cache)"
  (
    cd "$WORK/kube"
    go build -trimpath -tags=selinux,notest,grpcnotrace \
      -ldflags="all=${kube_ldflags} -s -w" \
      -o "$WORK/out/" \
      "${targets[@]}"
  ) || die "go build of k8s.io/kubernetes ${KUBE_VERSION} failed (see above)"

  # Capture the output before matching: with pipefail, `--version | grep -q` fails whenever grep
  # exits before the binary finished writing (SIGPIPE), which a loaded machine hits now and then.
  local reported
  for b in $KUBE_MISSING; do
    reported="$("$WORK/out/$b" --version 2>&1 || true)"
    [[ "$reported" == "Kubernetes ${KUBE_VERSION}" ]] \
      || die "built $b reports '${reported}', expected 'Kubernetes ${KUBE_VERSION}'"
  done
  # shellcheck disable=SC2086 # a list of binary names
  install_component kube $KUBE_MISSING
}

# ---------------------------------------------------------------- etcd
build_etcd() {
  # etcd's modules carry local replace directives, so `go install pkg@version` refuses them: build
  # through a wrapper module too.
  log "building etcd ${ETCD_VERSION}"
  mkdir -p "$WORK/etcd"
  cat >"$WORK/etcd/go.mod" <<GOMOD
module podset.test/etcd

go 1.24

require go.etcd.io/etcd/server/v3 ${ETCD_VERSION}
GOMOD
  (
    cd "$WORK/etcd"
    go build -trimpath -ldflags="-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=podset-${ETCD_VERSION}" \
      -o "$WORK/out/etcd" go.etcd.io/etcd/server/v3
  ) || die "go build of go.etcd.io/etcd/server/v3 ${ETCD_VERSION} failed (see above)"
  local reported
  reported="$("$WORK/out/etcd" --version 2>&1 || true)"
  [[ "$reported" == *"etcd Version: ${ETCD_VERSION#v}"* ]] \
    || die "built etcd reports '${reported%%$'\n'*}', expected ${ETCD_VERSION#v}"
  install_component etcd etcd
}

# ---------------------------------------------------------------- kwok
build_kwok() {
  # kwok's module has no replace directives, so `go install pkg@version` builds it with exactly
  # the dependencies of its own go.mod and go.sum (k8s.io/* of its release, not ours). It talks to
  # kube-apiserver only through the API, so the client version need not match the server's.
  log "building kwok ${KWOK_VERSION}"
  (
    cd "$WORK"
    GOFLAGS="-p=${GO_BUILD_P}" GOBIN="$WORK/out" go install -trimpath \
      -ldflags="-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=${KWOK_VERSION}" \
      "sigs.k8s.io/kwok/cmd/kwok@${KWOK_VERSION}"
  ) || die "go install of sigs.k8s.io/kwok/cmd/kwok@${KWOK_VERSION} failed (see above)"
  local reported
  reported="$("$WORK/out/kwok" --version 2>&1 || true)"
  [[ "$reported" == *"version ${KWOK_VERSION} "* ]] \
    || die "built kwok reports '${reported%%$'\n'*}', expected version ${KWOK_VERSION}"
  install_component kwok kwok
}

# ---------------------------------------------------------------- client-go conformance suite
build_clientgo() {
  # Its own module (testkit/clientgo: go.mod and go.sum in the repository) with the client-go of
  # the control plane's release; built after kube, whose build leaves most of client-go compiled.
  log "building the client-go conformance suite (${CLIENTGO_VERSION})"
  (
    cd "$CLIENTGO_DIR"
    GOFLAGS="-mod=readonly -p=${GO_BUILD_P}" go build -trimpath -tags=selinux,notest,grpcnotrace \
      -ldflags="-s -w" \
      -o "$WORK/out/clientgo-conformance" .
  ) || die "go build of testkit/clientgo failed (see above)"
  install_component clientgo clientgo-conformance
}

mkdir -p "$WORK/out"
[[ -z "$KUBE_MISSING" ]] || build_kube
[[ -z "$ETCD_MISSING" ]] || build_etcd
[[ -z "$KWOK_MISSING" ]] || build_kwok
[[ -z "$CLIENTGO_MISSING" ]] || build_clientgo
[[ "$(cat "$ASSETS_DIR/.stamp")" == "$STAMP_CONTENT" ]] \
  || die "stamp says '$(cat "$ASSETS_DIR/.stamp")' after the build, expected '${STAMP_CONTENT}'"
log "done: ${STAMP_CONTENT} in ${ASSETS_DIR}"
echo "$ASSETS_DIR"

#!/usr/bin/env bash
# Builds a Kubernetes control plane for tests (kube-apiserver, kube-controller-manager, etcd)
# from Go modules fetched through the Go module proxy, into a cache directory outside the
# repository, and only when the binaries are missing. No Docker, no other downloads, and no
# binary ever lands in the repository.
#
# Usage: testkit/kube/build-control-plane.sh [--dir DIR] [--force] [--print-dir]
#
# The last line printed on stdout is the directory that holds the three binaries, so
#   export KUBEBUILDER_ASSETS="$(testkit/kube/build-control-plane.sh)"
# works; progress goes to stderr.
#
# Environment (all optional):
#   KUBE_VERSION            k8s.io/kubernetes release to build (default below)
#   ETCD_VERSION            go.etcd.io/etcd/server/v3 release to build (default below)
#   PODSET_KUBE_ASSETS_DIR  where the binaries go
#                           (default ${XDG_CACHE_HOME:-$HOME/.cache}/podset/kube/$KUBE_VERSION)
#   PODSET_GO_BUILD_P       go build parallelism (-p), default 2: the machines have 2 cores
#
# The launcher (io.podset.testkit.envtest) looks in the same default directory, so keep the
# default versions in step with RealApiServer's DEFAULT_KUBE_VERSION (a test checks this).
set -euo pipefail

KUBE_VERSION="${KUBE_VERSION:-v1.34.4}"
ETCD_VERSION="${ETCD_VERSION:-v3.6.16}"
GO_BUILD_P="${PODSET_GO_BUILD_P:-2}"
ASSETS_DIR="${PODSET_KUBE_ASSETS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/podset/kube/${KUBE_VERSION}}"
FORCE=0
PRINT_ONLY=0

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
      sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
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
[[ "$GO_BUILD_P" =~ ^[1-9][0-9]*$ ]] || die "PODSET_GO_BUILD_P must be a positive integer, got '$GO_BUILD_P'"

if [[ "$PRINT_ONLY" == 1 ]]; then
  echo "$ASSETS_DIR"
  exit 0
fi

# The stamp records what the directory holds; a mismatch (other versions, or a half-finished
# build) means rebuild.
STAMP_CONTENT="kube=${KUBE_VERSION} etcd=${ETCD_VERSION}"
is_complete() {
  local b
  for b in kube-apiserver kube-controller-manager etcd; do
    [[ -x "$ASSETS_DIR/$b" ]] || return 1
  done
  [[ -f "$ASSETS_DIR/.stamp" && "$(cat "$ASSETS_DIR/.stamp")" == "$STAMP_CONTENT" ]]
}

if [[ "$FORCE" == 0 ]] && is_complete; then
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
if [[ "$FORCE" == 0 ]] && is_complete; then
  log "built meanwhile by another process: ${ASSETS_DIR}"
  echo "$ASSETS_DIR"
  exit 0
fi
rm -f "$ASSETS_DIR/.stamp"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/podset-kube-build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

export CGO_ENABLED=0
export GOFLAGS="${GOFLAGS:-} -mod=mod -p=${GO_BUILD_P}"
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
log "$(go version); GOFLAGS='${GOFLAGS}'"

# ---------------------------------------------------------------- kube-apiserver, controller-manager
log "resolving k8s.io/kubernetes@${KUBE_VERSION}"
KUBE_GOMOD="$(go mod download -json "k8s.io/kubernetes@${KUBE_VERSION}" \
  | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')" \
  || die "cannot download k8s.io/kubernetes@${KUBE_VERSION} from the Go module proxy"
[[ -f "$KUBE_GOMOD" ]] || die "go mod download gave no go.mod for k8s.io/kubernetes@${KUBE_VERSION}"
KUBE_INFO="${KUBE_GOMOD%.mod}.info"
BUILD_DATE="$(sed -n 's/.*"Time":"\([^"]*\)".*/\1/p' "$KUBE_INFO")"
BUILD_DATE="${BUILD_DATE:-1970-01-01T00:00:00Z}"

# Staging modules are required as k8s.io/X v0.0.0 and replaced by ./staging/src/k8s.io/X in the
# release's own go.mod; replace directives of a dependency are ignored, so the wrapper maps each
# one to its published tag v0.MINOR.PATCH.
mapfile -t STAGING < <(sed -n 's#^[[:space:]]*\(k8s\.io/[A-Za-z0-9._-]*\)[[:space:]]*=>[[:space:]]*\./staging/src/.*#\1#p' "$KUBE_GOMOD")
[[ ${#STAGING[@]} -gt 0 ]] || die "found no staging replace directives in $KUBE_GOMOD"
GO_LINE="$(grep -m1 '^go ' "$KUBE_GOMOD")"
GODEBUG_LINE="$(grep -m1 '^godebug ' "$KUBE_GOMOD" || true)"
log "${#STAGING[@]} staging modules mapped to ${STAGING_VERSION}"

mkdir -p "$WORK/kube"
{
  echo "module podset.test/kube-control-plane"
  echo
  echo "$GO_LINE"
  [[ -n "$GODEBUG_LINE" ]] && echo "$GODEBUG_LINE"
  echo
  echo "require k8s.io/kubernetes ${KUBE_VERSION}"
  echo
  echo "replace ("
  for m in "${STAGING[@]}"; do
    echo "	${m} => ${m} ${STAGING_VERSION}"
  done
  echo ")"
} >"$WORK/kube/go.mod"

kube_ldflags=""
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  kube_ldflags+=" -X ${pkg}.gitVersion=${KUBE_VERSION}"
  kube_ldflags+=" -X ${pkg}.gitMajor=1"
  kube_ldflags+=" -X ${pkg}.gitMinor=${KUBE_MINOR}"
  kube_ldflags+=" -X ${pkg}.gitTreeState=clean"
  kube_ldflags+=" -X ${pkg}.buildDate=${BUILD_DATE}"
done

log "building kube-apiserver and kube-controller-manager ${KUBE_VERSION} (this takes a while on a cold cache)"
mkdir -p "$WORK/out"
(
  cd "$WORK/kube"
  go build -trimpath -tags=selinux,notest,grpcnotrace \
    -ldflags="all=${kube_ldflags} -s -w" \
    -o "$WORK/out/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager
) || die "go build of k8s.io/kubernetes ${KUBE_VERSION} failed (see above)"

# ---------------------------------------------------------------- etcd
# etcd's modules carry local replace directives, so `go install pkg@version` refuses them: build
# through a wrapper module too.
log "building etcd ${ETCD_VERSION}"
mkdir -p "$WORK/etcd"
cat >"$WORK/etcd/go.mod" <<EOF
module podset.test/etcd

go 1.24

require go.etcd.io/etcd/server/v3 ${ETCD_VERSION}
EOF
(
  cd "$WORK/etcd"
  go build -trimpath -ldflags="-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=podset-${ETCD_VERSION}" \
    -o "$WORK/out/etcd" go.etcd.io/etcd/server/v3
) || die "go build of go.etcd.io/etcd/server/v3 ${ETCD_VERSION} failed (see above)"

# ---------------------------------------------------------------- check and install
# Capture the output before matching: with pipefail, `--version | grep -q` fails whenever grep
# exits before the binary finished writing (SIGPIPE), which a loaded machine hits now and then.
apiserver_version="$("$WORK/out/kube-apiserver" --version 2>&1 || true)"
[[ "$apiserver_version" == "Kubernetes ${KUBE_VERSION}" ]] \
  || die "built kube-apiserver reports '${apiserver_version}', expected 'Kubernetes ${KUBE_VERSION}'"
etcd_version="$("$WORK/out/etcd" --version 2>&1 || true)"
[[ "$etcd_version" == *"etcd Version: ${ETCD_VERSION#v}"* ]] \
  || die "built etcd reports '${etcd_version%%$'\n'*}', expected ${ETCD_VERSION#v}"

for b in kube-apiserver kube-controller-manager etcd; do
  mv -f "$WORK/out/$b" "$ASSETS_DIR/$b"
done
echo "$STAMP_CONTENT" >"$ASSETS_DIR/.stamp"
log "done: $(cd "$ASSETS_DIR" && ls -l kube-apiserver kube-controller-manager etcd | awk '{printf "%s %d MB; ", $NF, $5/1048576}')"
echo "$ASSETS_DIR"

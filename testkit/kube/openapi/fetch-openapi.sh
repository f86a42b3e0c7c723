#!/usr/bin/env bash
# Regenerates the fake API server's OpenAPI v3 resource from a real kube-apiserver: the
# group/version documents it serves at /openapi/v3/... for the built-in kinds, and the documents it
# builds for the two template CRDs of template-crds.yaml (what the fake fills in for each custom
# resource). Only the group/versions of GROUP_VERSIONS are kept (those with kinds the fake serves);
# the fake trims each document further to the resources it serves, when it serves it. Also the
# OpenAPI v2 document of the built-in kinds, as JSON and protobuf (kube-openapi-v2.*.gz).
#
# Source: kube-apiserver and etcd as testkit/kube/build-control-plane.sh builds them
# (k8s.io/kubernetes v1.34.4 from the Go module proxy), started here on free local ports with the
# default feature gates; the documents are taken as that server answers them (they differ from
# k8s.io/kubernetes' api/openapi-spec/v3, which is generated with other feature gates: the served
# descriptions list enum values, the committed ones list CBOR media types).
#
# Usage: testkit/kube/openapi/fetch-openapi.sh        (needs python3, curl, kubectl, openssl)
# Environment: KUBEBUILDER_ASSETS (default ${XDG_CACHE_HOME:-$HOME/.cache}/podset/kube/v1.34.4)
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ASSETS="${KUBEBUILDER_ASSETS:-${XDG_CACHE_HOME:-$HOME/.cache}/podset/kube/v1.34.4}"
OUT="$HERE/../../src/main/resources/io/podset/testkit/internal/openapi/kube-openapi-v3.json.gz"
GROUP_VERSIONS="api/v1 apis/admissionregistration.k8s.io/v1 apis/apiextensions.k8s.io/v1
  apis/apps/v1 apis/autoscaling/v2 apis/batch/v1 apis/coordination.k8s.io/v1
  apis/discovery.k8s.io/v1 apis/events.k8s.io/v1 apis/networking.k8s.io/v1 apis/policy/v1
  apis/rbac.authorization.k8s.io/v1 apis/scheduling.k8s.io/v1 apis/storage.k8s.io/v1"

WORK="$(mktemp -d)"
cleanup() {
  [[ -f "$WORK/api.pid" ]] && kill "$(cat "$WORK/api.pid")" 2>/dev/null || true
  [[ -f "$WORK/etcd.pid" ]] && kill "$(cat "$WORK/etcd.pid")" 2>/dev/null || true
  sleep 1
  rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
ETCD_PORT=$(free_port); PEER_PORT=$(free_port); API_PORT=$(free_port)
openssl genrsa -out "$WORK/sa.key" 2048 2>/dev/null
openssl rsa -in "$WORK/sa.key" -pubout -out "$WORK/sa.pub" 2>/dev/null
TOKEN="$(openssl rand -hex 16)"
echo "$TOKEN,admin,admin,system:masters" > "$WORK/tokens.csv"

"$ASSETS/etcd" --name=openapi --data-dir="$WORK/etcd" \
  --listen-client-urls="http://127.0.0.1:$ETCD_PORT" --advertise-client-urls="http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls="http://127.0.0.1:$PEER_PORT" --initial-advertise-peer-urls="http://127.0.0.1:$PEER_PORT" \
  --initial-cluster="openapi=http://127.0.0.1:$PEER_PORT" --unsafe-no-fsync=true --log-level=warn \
  > "$WORK/etcd.log" 2>&1 &
echo $! > "$WORK/etcd.pid"
"$ASSETS/kube-apiserver" --etcd-servers="http://127.0.0.1:$ETCD_PORT" --bind-address=127.0.0.1 \
  --advertise-address=127.0.0.1 --secure-port="$API_PORT" --cert-dir="$WORK/certs" \
  --token-auth-file="$WORK/tokens.csv" --authorization-mode=RBAC \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$WORK/sa.pub" --service-account-signing-key-file="$WORK/sa.key" \
  --service-cluster-ip-range=10.0.0.0/24 --endpoint-reconciler-type=none \
  > "$WORK/api.log" 2>&1 &
echo $! > "$WORK/api.pid"

get() { curl -sfk -H "Authorization: Bearer $TOKEN" "https://127.0.0.1:$API_PORT$1"; }
for _ in $(seq 120); do [[ "$(get /readyz 2>/dev/null || true)" == ok ]] && break; sleep 1; done
[[ "$(get /readyz)" == ok ]] || { cat "$WORK/api.log" >&2; exit 1; }

cat > "$WORK/kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters: [{name: r, cluster: {server: "https://127.0.0.1:$API_PORT", insecure-skip-tls-verify: true}}]
users: [{name: a, user: {token: "$TOKEN"}}]
contexts: [{name: r, context: {cluster: r, user: a}}]
current-context: r
KC
# OpenAPI v2 before the template CRDs exist: one document of every built-in kind, as JSON and in
# the protobuf form kubectl 1.27 and 1.28 ask for (untrimmed: the fake cannot re-encode it).
RES="$(dirname "$OUT")"
curl -sfk -H "Authorization: Bearer $TOKEN" "https://127.0.0.1:$API_PORT/openapi/v2" \
  | gzip -9 -n > "$RES/kube-openapi-v2.json.gz"
curl -sfk -H "Authorization: Bearer $TOKEN" \
  -H "Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf" \
  "https://127.0.0.1:$API_PORT/openapi/v2" | gzip -9 -n > "$RES/kube-openapi-v2.pb.gz"
kubectl --kubeconfig "$WORK/kubeconfig" apply -f "$HERE/template-crds.yaml" >&2
for _ in $(seq 60); do
  get /openapi/v3 | grep -q 'clusterq.example.com/versionq' && get /openapi/v3 | grep -q 'groupq.example.com/versionq' && break
  sleep 1
done

mkdir -p "$WORK/docs"
for gv in $GROUP_VERSIONS apis/groupq.example.com/versionq apis/clusterq.example.com/versionq; do
  get "/openapi/v3/$gv" > "$WORK/docs/${gv//\//_}.json"
done
VERSION="$(get /version | python3 -c 'import json,sys; print(json.load(sys.stdin)["gitVersion"])')"

python3 - "$WORK/docs" "$OUT" "$VERSION" $GROUP_VERSIONS <<'PY'
import gzip, json, os, sys
docs, out, version, gvs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
load = lambda gv: json.load(open(os.path.join(docs, gv.replace("/", "_") + ".json")))
resource = {
    "source": "kube-apiserver " + version + " /openapi/v3 (testkit/kube/openapi/fetch-openapi.sh)",
    "documents": {gv: load(gv) for gv in gvs},
    "crdTemplates": {
        "Namespaced": {"group": "groupq.example.com", "document": load("apis/groupq.example.com/versionq")},
        "Cluster": {"group": "clusterq.example.com", "document": load("apis/clusterq.example.com/versionq")},
    },
    "placeholders": {"version": "versionq", "kind": "Kindq", "plural": "pluralqs", "singular": "singularq"},
}
os.makedirs(os.path.dirname(out), exist_ok=True)
with gzip.GzipFile(out, "wb", compresslevel=9, mtime=0) as f:
    f.write(json.dumps(resource, separators=(",", ":"), sort_keys=True).encode())
print(out, os.path.getsize(out), "bytes", file=sys.stderr)
PY

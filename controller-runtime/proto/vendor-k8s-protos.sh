#!/usr/bin/env bash
# Copies the Kubernetes API's protobuf definitions (k8s.io/api, the apimachinery types they use,
# apiextensions v1) into controller-runtime/src/main/protobuf, comment lines dropped (they are the Go
# types' documentation, 80% of the bytes). controller-runtime's build compiles them into a
# descriptor set: informers watch built-in kinds in protobuf with it, and the testkit's fake server
# reads protobuf request bodies with it (kubectl sends them for built-in types).
# Needs Go and the Go module proxy; run it only to move to another Kubernetes version.
set -euo pipefail
version="${1:-v0.34.4}"
out="$(cd "$(dirname "$0")/.." && pwd)/src/main/protobuf"
rm -rf "$out/k8s.io"
copy() { # module, path inside the module (a generated.proto)
  local dir
  dir="$(cd /tmp && go mod download -json "$1@$version" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')"
  mkdir -p "$out/$1/$(dirname "$2")"
  grep -v '^\s*//' "$dir/$2" | cat -s >"$out/$1/$2"
}
api_dir="$(cd /tmp && go mod download -json "k8s.io/api@$version" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')"
(cd "$api_dir" && find . -name generated.proto | sed 's|^\./||' | sort) | while read -r p; do
  copy k8s.io/api "$p"
done
for p in pkg/util/intstr pkg/runtime/schema pkg/runtime pkg/api/resource pkg/apis/meta/v1; do
  copy k8s.io/apimachinery "$p/generated.proto"
done
copy k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1/generated.proto
# The fields that are pointers in the Go types (optional: "" set is not "" unset), by proto full
# name, so decoders (KubernetesProtobuf#pointer) keep an empty string sent in one (a Lease's holderIdentity: "").
pointers="$(cd "$(dirname "$0")/.." && pwd)/src/main/resources/io/podset/runtime/protobuf/kubernetes-pointer-fields.txt"
mkdir -p "$(dirname "$pointers")"
(cd "$api_dir" && find . -name types.go | sed 's|^\./||' | sort) | while read -r f; do
  awk -v pkg="k8s.io.api.$(dirname "$f" | tr / .)" '
    /^type [A-Za-z0-9]+ struct \{/ { s = $2 }
    /^\t[A-Za-z0-9]+ +\*[A-Za-z0-9.]+ .*protobuf:"bytes,[0-9]+,opt,name=/ {
      match($0, /name=[A-Za-z0-9]+/); print pkg "." s "." substr($0, RSTART + 5, RLENGTH - 5)
    }' "$api_dir/$f"
done >"$pointers"
# The embedded Go structs (json:",inline"): one field in protobuf, flat in JSON (a Volume's source).
inline="$(dirname "$pointers")/kubernetes-inline-fields.txt"
(cd "$api_dir" && find . -name types.go | sed 's|^\./||' | sort) | while read -r f; do
  awk -v pkg="k8s.io.api.$(dirname "$f" | tr / .)" '
    /^type [A-Za-z0-9]+ struct \{/ { s = $2 }
    /^\t[A-Za-z0-9]+ +`json:",inline" protobuf:"bytes,[0-9]+/ {
      if (match($0, /name=[A-Za-z0-9]+/)) { n = substr($0, RSTART + 5, RLENGTH - 5) }
      else { n = tolower(substr($1, 1, 1)) substr($1, 2) }
      print pkg "." s "." n
    }' "$api_dir/$f"
done >"$inline"
# The fields that are no Go pointer and omitempty in JSON, by proto full name (k8s.io/api and
# meta/v1): the API server's JSON leaves their zero value out (hostPort: 0, stdin: false, name: ""),
# its protobuf writes it; decoders of protobuf into JSON (KubernetesProtobuf#omitsZero) leave it out.
omitempty="$(dirname "$pointers")/kubernetes-omitempty-fields.txt"
machinery_dir="$(cd /tmp && go mod download -json "k8s.io/apimachinery@$version" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')"
omitempty_fields() { # proto package, types.go
  awk -v pkg="$1" '
    /^type [A-Za-z0-9]+ struct \{/ { s = $2 }
    /^\t[A-Za-z0-9]+ +[^*\[m ][A-Za-z0-9.]* +`json:"[A-Za-z0-9]+,omitempty".*protobuf:"(varint|bytes),[0-9]+/ {
      match($0, /name=[A-Za-z0-9]+/); print pkg "." s "." substr($0, RSTART + 5, RLENGTH - 5)
    }' "$2"
}
{
  (cd "$api_dir" && find . -name types.go | sed 's|^\./||' | sort) | while read -r f; do
    omitempty_fields "k8s.io.api.$(dirname "$f" | tr / .)" "$api_dir/$f"
  done
  omitempty_fields k8s.io.apimachinery.pkg.apis.meta.v1 "$machinery_dir/pkg/apis/meta/v1/types.go"
} >"$omitempty"
echo "vendored Kubernetes $version protos into $out and its pointer and inline fields next to $pointers"

#!/usr/bin/env bash
# Validates the Helm chart in deploy/k8s. Runs from any directory; exits non-zero on a problem.
#
# 1. Structural checks (deploy/k8s/check-chart.mjs): Chart.yaml and values.yaml parse, every
#    part's values block has the keys the templates use, the chart's services match services/*/
#    and their config.ts variables, every include names a defined template, no inlined secrets.
# 2. A real render with Helm's own template engine parts (tools/helm-render: Go's text/template
#    and Sprig, built from Debian's packages, since no helm binary can be installed here), with
#    the defaults and with every optional feature on. Each time: the merged values against
#    values.schema.json, then every object against the Kubernetes schemas and our policy
#    (deploy/k8s/validate-manifests.mjs). Values the schema must refuse are tried too.
# 3. With helm on PATH: also `helm lint --strict` and `helm template` through the same checks.
set -euo pipefail

chart_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$chart_dir/../.." && pwd)"
cd "$repo_root"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

node deploy/k8s/check-chart.mjs

ALL_FEATURES=networkPolicy.enabled=true,ingress.enabled=true,metrics.serviceMonitor.enabled=true,tracing.otlpEndpoint=http://otel-collector.monitoring:4318

bash tools/setup/chart-deps.sh
GOCACHE="${GOCACHE:-$tmp/gocache}" bash tools/helm-render/build.sh "$tmp/helm-render"

render() {
  local name="$1"
  shift
  "$tmp/helm-render" --name inventory --namespace inventory -values-out "$tmp/$name.values.json" \
    "$@" deploy/k8s >"$tmp/$name.yaml"
  node deploy/k8s/validate-values.mjs "$tmp/$name.values.json"
  node deploy/k8s/validate-manifests.mjs "$tmp/$name.yaml" --expect-kind Deployment \
    --expect-kind Service --expect-kind HorizontalPodAutoscaler --expect-kind PodDisruptionBudget
}
render defaults
render all-features --set "$ALL_FEATURES"
node deploy/k8s/validate-manifests.mjs "$tmp/all-features.yaml" --expect-kind NetworkPolicy \
  --expect-kind Ingress --expect-kind ServiceMonitor >/dev/null
"$tmp/helm-render" --notes --name inventory --namespace inventory deploy/k8s >/dev/null
# Tracing: every part gets the collector's address and the egress to it only when it is set.
parts=7
if grep -q OTEL_EXPORTER_OTLP_ENDPOINT "$tmp/defaults.yaml" ||
  [ "$(grep -c 'name: OTEL_EXPORTER_OTLP_ENDPOINT' "$tmp/all-features.yaml")" -ne "$parts" ] ||
  [ "$(grep -c '# otlp: spans to the collector' "$tmp/all-features.yaml")" -ne "$parts" ]; then
  echo "tracing.otlpEndpoint must set OTEL_EXPORTER_OTLP_ENDPOINT and the otlp egress in each of the $parts parts, and nothing when empty" >&2
  exit 1
fi

refused() {
  "$tmp/helm-render" -values-out "$tmp/refused.json" --set "$1" deploy/k8s >/dev/null
  if node deploy/k8s/validate-values.mjs "$tmp/refused.json" >/dev/null 2>&1; then
    echo "values.schema.json accepted --set $1, which it must refuse" >&2
    exit 1
  fi
}
refused gateway.replcas=3
refused global.image.tag=latest
refused services.identity.image.digest=sha256:short
refused tracing.otlpEndpoint=collector:4318
echo "chart renders and validates (defaults and all features); the values schema refuses typos"

if command -v helm >/dev/null 2>&1; then
  echo "helm found: lint and render"
  helm lint --strict deploy/k8s
  helm lint --strict deploy/k8s --set "$ALL_FEATURES"
  helm template inventory deploy/k8s --namespace inventory >"$tmp/helm-defaults.yaml"
  helm template inventory deploy/k8s --namespace inventory --set "$ALL_FEATURES" \
    >"$tmp/helm-all.yaml"
  node deploy/k8s/validate-manifests.mjs "$tmp/helm-defaults.yaml"
  node deploy/k8s/validate-manifests.mjs "$tmp/helm-all.yaml"
fi

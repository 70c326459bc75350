#!/usr/bin/env bash
# Validates the Helm chart in deploy/k8s. Runs from any directory; exits non-zero on a problem.
#
# - Always: structural checks (deploy/k8s/check-chart.mjs): Chart.yaml and values.yaml parse,
#   every part's values block has the keys the templates use, the chart's services match
#   services/*/ and their config.ts variables, template braces and blocks balance, every
#   include names a defined template, no value looks like an inlined secret.
# - With helm on PATH: also `helm lint --strict` and `helm template` (defaults, and with every
#   optional feature on), each rendered manifest parsed as YAML.
set -euo pipefail

chart_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$chart_dir/../.." && pwd)"
cd "$repo_root"

node deploy/k8s/check-chart.mjs

if command -v helm >/dev/null 2>&1; then
  echo "helm found: lint and render"
  helm lint --strict deploy/k8s
  helm lint --strict deploy/k8s --set networkPolicy.enabled=true,ingress.enabled=true
  render() {
    local name="$1"
    shift
    helm template inventory deploy/k8s --namespace inventory "$@" >"$tmp/$name.yaml"
    node deploy/k8s/check-chart.mjs --parse-manifests "$tmp/$name.yaml"
  }
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  render defaults
  render all-features --set networkPolicy.enabled=true,ingress.enabled=true
  echo "helm chart OK"
else
  echo "helm not found: structural checks only"
fi

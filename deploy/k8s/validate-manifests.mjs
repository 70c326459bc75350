// Validates rendered manifests (the output of helm template or tools/helm-render):
//   node deploy/k8s/validate-manifests.mjs RENDERED.yaml [--expect-kind Kind ...]
// 1. Every object against the Kubernetes OpenAPI schemas (kubernetes-models, which vendors
//    them; ServiceMonitor from @kubernetes-models/prometheus-operator).
// 2. Policy: no `latest` or missing tags, liveness and readiness probes, CPU and memory
//    requests and limits, read-only root filesystem, non-root, no privilege escalation.
// 3. --expect-kind: the render holds at least one object of each named kind.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

const [file, ...rest] = process.argv.slice(2);
const expectedKinds = rest.filter((_, i) => rest[i - 1] === '--expect-kind');
const errors = [];

const MODULES = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
  'policy/v1': 'kubernetes-models/policy/v1',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
};

async function validateSchema(object, where) {
  const base = MODULES[object.apiVersion];
  if (!base) return errors.push(`${where}: no schema for apiVersion ${object.apiVersion}`);
  let Model;
  try {
    Model = (await import(`${base}/${object.kind}`))[object.kind];
  } catch {
    return errors.push(`${where}: no schema for ${object.apiVersion} ${object.kind}`);
  }
  try {
    new Model(object).validate();
  } catch (error) {
    errors.push(`${where}: ${error.message.split('\n').slice(0, 6).join(' | ')}`);
  }
}

function podSpecOf(object) {
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(object.kind))
    return object.spec?.template?.spec;
  return undefined;
}

function checkPolicy(object, where) {
  const pod = podSpecOf(object);
  if (!pod) return;
  const podContext = pod.securityContext ?? {};
  for (const container of [...(pod.initContainers ?? []), ...(pod.containers ?? [])]) {
    const at = `${where} container ${container.name}`;
    const image = String(container.image ?? '');
    const digest = image.includes('@sha256:');
    const tag = image.slice(image.lastIndexOf('/') + 1).split(':')[1];
    if (!digest && (!tag || tag === 'latest'))
      errors.push(`${at}: image "${image}" needs a pinned tag or digest, never latest`);
    if (!pod.initContainers?.includes(container)) {
      if (!container.livenessProbe) errors.push(`${at}: no livenessProbe`);
      if (!container.readinessProbe) errors.push(`${at}: no readinessProbe`);
    }
    for (const kind of ['requests', 'limits'])
      for (const resource of ['cpu', 'memory'])
        if (container.resources?.[kind]?.[resource] === undefined)
          errors.push(`${at}: no resources.${kind}.${resource}`);
    const context = { ...podContext, ...(container.securityContext ?? {}) };
    if (context.readOnlyRootFilesystem !== true)
      errors.push(`${at}: root filesystem not read-only`);
    if (context.runAsNonRoot !== true) errors.push(`${at}: may run as root`);
    if (context.runAsUser === 0) errors.push(`${at}: runs as uid 0`);
    if (context.allowPrivilegeEscalation !== false)
      errors.push(`${at}: privilege escalation not disabled`);
  }
}

const documents = parseAllDocuments(readFileSync(file, 'utf8'));
const objects = [];
for (const document of documents) {
  if (document.errors.length > 0) {
    errors.push(`YAML: ${document.errors.map((e) => e.message).join('; ')}`);
    continue;
  }
  const object = document.toJS();
  if (object) objects.push(object);
}
for (const object of objects) {
  const where = `${object.kind ?? '?'} ${object.metadata?.name ?? '?'}`;
  if (!object.apiVersion || !object.kind || !object.metadata?.name) {
    errors.push(`${where}: missing apiVersion, kind or metadata.name`);
    continue;
  }
  await validateSchema(object, where);
  checkPolicy(object, where);
}
for (const kind of expectedKinds)
  if (!objects.some((object) => object.kind === kind))
    errors.push(`expected at least one ${kind} in the render`);

const counts = objects.reduce((acc, o) => ({ ...acc, [o.kind]: (acc[o.kind] ?? 0) + 1 }), {});
if (errors.length > 0) {
  console.error(`${file}: ${errors.length} problem(s)`);
  for (const error of errors) console.error(`  - ${error}`);
  process.exit(1);
}
console.log(
  `${file}: ${objects.length} objects valid against the Kubernetes schemas and policy (${Object.entries(
    counts,
  )
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ')})`,
);

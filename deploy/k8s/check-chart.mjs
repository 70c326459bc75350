// Structural checks of the Helm chart that need no helm binary (called by check.sh).
//   node deploy/k8s/check-chart.mjs                       chart, values, templates, code
//   node deploy/k8s/check-chart.mjs --parse-manifests F   every YAML document in F parses
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const chartDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(chartDir, '..', '..');
const errors = [];
const warnings = [];
const fail = (message) => errors.push(message);
const warn = (message) => warnings.push(message);
const rel = (path) => relative(repoRoot, path);

// ---------- YAML: the `yaml` package from the repo, else python3's yaml, else a minimal check.
function loadYamlParser() {
  try {
    const yaml = createRequire(join(repoRoot, 'package.json'))('yaml');
    return {
      how: 'node yaml package',
      parse: (text) => yaml.parse(text, { strict: true, uniqueKeys: true }),
      parseAll: (text) =>
        yaml.parseAllDocuments(text).map((doc) => {
          if (doc.errors.length > 0) throw new Error(doc.errors.map((e) => e.message).join('; '));
          return doc.toJS();
        }),
    };
  } catch {
    // fall through
  }
  const python = (script, text) =>
    JSON.parse(execFileSync('python3', ['-c', script], { input: text, encoding: 'utf8' }));
  try {
    python('import yaml, json, sys; print(json.dumps(yaml.safe_load(sys.stdin)))', 'a: 1');
    return {
      how: 'python3 yaml module',
      parse: (text) =>
        python('import yaml, json, sys; print(json.dumps(yaml.safe_load(sys.stdin)))', text),
      parseAll: (text) =>
        python(
          'import yaml, json, sys; print(json.dumps(list(yaml.safe_load_all(sys.stdin))))',
          text,
        ),
    };
  } catch {
    return undefined;
  }
}

const parser = loadYamlParser();

function minimalYamlCheck(path, text) {
  text.split('\n').forEach((line, index) => {
    if (/^\t/.test(line)) fail(`${rel(path)}:${index + 1}: tab indentation`);
  });
}

function readYaml(path) {
  const text = readFileSync(path, 'utf8');
  if (!parser) {
    minimalYamlCheck(path, text);
    return undefined;
  }
  try {
    return parser.parse(text);
  } catch (error) {
    fail(`${rel(path)}: does not parse: ${error.message}`);
    return undefined;
  }
}

// ---------- --parse-manifests: output of `helm template`.
if (process.argv[2] === '--parse-manifests') {
  const file = process.argv[3];
  if (!parser) {
    console.error('no YAML parser available (node yaml package or python3 yaml)');
    process.exit(1);
  }
  const docs = parser.parseAll(readFileSync(file, 'utf8')).filter(Boolean);
  for (const doc of docs) {
    if (!doc.apiVersion || !doc.kind || !doc.metadata?.name) {
      console.error(
        `manifest without apiVersion/kind/metadata.name: ${JSON.stringify(doc).slice(0, 200)}`,
      );
      process.exit(1);
    }
  }
  console.log(`${file}: ${docs.length} manifests parse`);
  process.exit(0);
}

const isMap = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const get = (object, path) =>
  path.split('.').reduce((node, key) => (isMap(node) ? node[key] : undefined), object);

// ---------- Chart.yaml
const chart = readYaml(join(chartDir, 'Chart.yaml'));
if (chart) {
  if (chart.apiVersion !== 'v2') fail('Chart.yaml: apiVersion must be v2');
  if (chart.name !== 'inventory') fail('Chart.yaml: name must be inventory');
  for (const key of ['version', 'appVersion']) {
    if (!/^\d+\.\d+\.\d+/.test(String(chart[key] ?? '')))
      fail(`Chart.yaml: ${key} must be a semantic version`);
  }
}

// ---------- values.yaml
const values = readYaml(join(chartDir, 'values.yaml'));

/** Keys every part's block needs (used by the shared templates in _helpers.tpl). */
const PART_KEYS = {
  enabled: 'boolean',
  replicas: 'number',
  image: 'map',
  'image.repository': 'string',
  'image.tag': 'string',
  resources: 'map',
  'resources.requests': 'map',
  'resources.limits': 'map',
  env: 'map',
  extraEnv: 'list',
  secretEnv: 'list',
  existingSecret: 'string',
  autoscaling: 'map',
  'autoscaling.enabled': 'boolean',
  'autoscaling.minReplicas': 'number',
  'autoscaling.maxReplicas': 'number',
  'autoscaling.targetCPUUtilizationPercentage': 'number',
  podDisruptionBudget: 'map',
  'podDisruptionBudget.enabled': 'boolean',
  networkPolicy: 'map',
  'networkPolicy.egress': 'list',
  podAnnotations: 'map',
  nodeSelector: 'map',
  tolerations: 'list',
  affinity: 'map',
};
const SERVICE_KEYS = { mongoDb: 'string', grpcTargets: 'list', grpcClients: 'list' };
const typeOf = (value) => (Array.isArray(value) ? 'list' : isMap(value) ? 'map' : typeof value);

const GLOBAL_KEYS = [
  'global.baseDomain',
  'global.clusterDomain',
  'global.image.pullPolicy',
  'global.logLevel',
  'global.shutdownTimeoutMs',
  'global.terminationGracePeriodSeconds',
  'global.preStopSleepSeconds',
  'global.secrets.existingSecret',
  'global.secrets.keys',
  'ports.grpc',
  'ports.metrics',
  'ports.http',
  'networkPolicy.enabled',
  'networkPolicy.egress',
  'ingress.enabled',
  'ingress.tls.secretName',
  'serviceAccount.create',
  'podSecurityContext',
  'containerSecurityContext',
];

/** Variables the chart sets itself, besides a part's `env` and `secretEnv`. */
function chartEnv(name, part, kind) {
  const common = ['NODE_ENV', 'LOG_LEVEL', 'SHUTDOWN_TIMEOUT_MS'];
  const addressOf = (target) => `${target.toUpperCase().replace(/-/g, '_')}_GRPC_ADDRESS`;
  if (kind === 'grpc') {
    return [
      ...common,
      'GRPC_HOST',
      'GRPC_PORT',
      'METRICS_PORT',
      'MONGO_DB',
      ...(part.grpcTargets ?? []).map(addressOf),
    ];
  }
  return [
    ...common,
    'HTTP_PORT',
    'METRICS_PORT',
    ...Object.keys(values.services ?? {}).map(addressOf),
  ];
}

/**
 * The variables a process's zod config reads: `NAME: <zod expression>` entries of
 * `z.object({...})`, plus `serviceEnv` when spread. Required = no default, not optional.
 */
function configVariables(configPath) {
  const variables = new Map();
  const scan = (text) => {
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      const match = /^\s*([A-Z][A-Z0-9_]*):\s*(.*)$/.exec(line);
      if (!match) return;
      let expression = match[2];
      for (
        let next = index + 1;
        next < lines.length && !/^\s*([A-Z][A-Z0-9_]*:|\}|\/\*\*|\/\/)/.test(lines[next]);
        next++
      ) {
        expression += lines[next];
      }
      const hasDefault = /\.default\(|\.optional\(|\bport\(|\bbooleanFlag\(|^logLevel\b/.test(
        expression,
      );
      variables.set(match[1], { required: !hasDefault });
    });
  };
  const text = readFileSync(configPath, 'utf8');
  scan(text.slice(text.indexOf('z.object') >= 0 ? text.indexOf('z.object') : 0));
  if (text.includes('...serviceEnv')) {
    const fields = readFileSync(join(repoRoot, 'libs/platform/src/config/env-fields.ts'), 'utf8');
    scan(fields.slice(fields.indexOf('export const serviceEnv')));
  }
  return variables;
}

function checkPart(name, part, kind, configPath) {
  const where = kind === 'grpc' ? `services.${name}` : name;
  if (!isMap(part)) return fail(`values.yaml: ${where} must be a map`);
  const keys = kind === 'grpc' ? { ...PART_KEYS, ...SERVICE_KEYS } : PART_KEYS;
  for (const [key, type] of Object.entries(keys)) {
    const value = get(part, key);
    if (value === undefined) fail(`values.yaml: ${where}.${key} is missing (the templates use it)`);
    else if (typeOf(value) !== type)
      fail(`values.yaml: ${where}.${key} must be a ${type}, is ${typeOf(value)}`);
  }
  const scaling = part.autoscaling ?? {};
  if (scaling.minReplicas > scaling.maxReplicas)
    fail(`values.yaml: ${where}.autoscaling.minReplicas > maxReplicas`);
  const keysMap = get(values, 'global.secrets.keys') ?? {};
  for (const variable of part.secretEnv ?? []) {
    if (!(variable in keysMap))
      fail(`values.yaml: ${where}.secretEnv ${variable} has no global.secrets.keys entry`);
  }
  for (const egress of get(part, 'networkPolicy.egress') ?? []) {
    if (!isMap(get(values, `networkPolicy.egress.${egress}`)))
      fail(
        `values.yaml: ${where}.networkPolicy.egress "${egress}" is not defined under networkPolicy.egress`,
      );
  }
  for (const peer of [...(part.grpcTargets ?? []), ...(part.grpcClients ?? [])]) {
    if (peer !== 'gateway' && !isMap(values.services?.[peer]))
      fail(`values.yaml: ${where} names unknown part "${peer}"`);
  }
  for (const item of part.extraEnv ?? []) {
    if (!isMap(item) || typeof item.name !== 'string')
      fail(`values.yaml: ${where}.extraEnv entries must be EnvVar objects with a name`);
  }

  // The process's own config: every required variable is provided; every value is read.
  if (!existsSync(configPath)) return fail(`values.yaml: ${where} has no ${rel(configPath)}`);
  const variables = configVariables(configPath);
  const provided = new Set([
    ...chartEnv(name, part, kind),
    ...Object.keys(part.env ?? {}),
    ...(part.secretEnv ?? []),
    ...(part.extraEnv ?? []).map((item) => item?.name),
  ]);
  for (const [variable, { required }] of variables) {
    if (required && !provided.has(variable))
      fail(`values.yaml: ${where} does not set ${variable}, which ${rel(configPath)} requires`);
  }
  for (const variable of [...Object.keys(part.env ?? {}), ...(part.secretEnv ?? [])]) {
    if (!variables.has(variable))
      warn(`values.yaml: ${where} sets ${variable}, which ${rel(configPath)} does not read`);
  }
}

/** Values that look like credentials: inline URLs with passwords, keys, tokens. */
function checkNoSecrets(node, path) {
  if (Array.isArray(node))
    return node.forEach((item, index) => checkNoSecrets(item, `${path}[${index}]`));
  if (isMap(node)) {
    const isEnvVar = typeof node.name === 'string' && 'value' in node;
    if (isEnvVar && SECRET_NAME.test(node.name) && node.value)
      fail(`values.yaml: ${path} inlines ${node.name}; use secretEnv (an existing Secret)`);
    for (const [key, value] of Object.entries(node)) {
      const child = path ? `${path}.${key}` : key;
      const isReference =
        /^(existingSecret|secretName|secretEnv)$/.test(key) || path === 'global.secrets.keys';
      if (!isReference && SECRET_NAME.test(key) && typeof value === 'string' && value !== '') {
        fail(
          `values.yaml: ${child} looks like an inlined secret; reference an existing Secret instead`,
        );
      }
      checkNoSecrets(value, child);
    }
    return undefined;
  }
  if (typeof node === 'string') {
    if (/:\/\/[^/\s:@]+:[^/\s@]+@/.test(node))
      fail(`values.yaml: ${path} holds a URL with credentials`);
    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(node))
      fail(`values.yaml: ${path} holds a private key`);
    if (/^[A-Za-z0-9+/_-]{32,}={0,2}$/.test(node))
      fail(`values.yaml: ${path} looks like a key or token`);
  }
  return undefined;
}
const SECRET_NAME =
  /(PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|PRIVATE_?KEY|CREDENTIALS?|ENCRYPTION_KEY)$|^(MONGO|NATS|REDIS)_URL$/i;
/(PASSWORD|SECRET|TOKEN|API_?KEY|PRIVATE|CREDENTIAL|ENCRYPTION_KEY|MONGO_URL|NATS_URL|REDIS_URL)/i;

if (values) {
  for (const key of GLOBAL_KEYS)
    if (get(values, key) === undefined) fail(`values.yaml: ${key} is missing`);
  checkPart('gateway', values.gateway, 'http', join(repoRoot, 'gateway/src/config.ts'));
  const services = values.services ?? {};
  const databases = new Map();
  for (const [name, part] of Object.entries(services)) {
    checkPart(name, part, 'grpc', join(repoRoot, 'services', name, 'src/config.ts'));
    if (databases.has(part?.mongoDb))
      fail(
        `values.yaml: services.${name}.mongoDb "${part.mongoDb}" is also ${databases.get(part.mongoDb)}'s database`,
      );
    databases.set(part?.mongoDb, name);
  }
  // Every service in the tree has a values block (and so a Deployment).
  for (const dir of readdirSync(join(repoRoot, 'services'), { withFileTypes: true })) {
    if (
      dir.isDirectory() &&
      existsSync(join(repoRoot, 'services', dir.name, 'src/main.ts')) &&
      !(dir.name in services)
    ) {
      fail(`values.yaml: services/${dir.name} has no services.${dir.name} block`);
    }
  }
  checkNoSecrets(values, '');

  const g = values.global ?? {};
  if (g.terminationGracePeriodSeconds * 1000 <= g.shutdownTimeoutMs)
    fail('values.yaml: global.terminationGracePeriodSeconds must exceed shutdownTimeoutMs');
  if (g.terminationGracePeriodSeconds < g.preStopSleepSeconds + 15)
    fail('values.yaml: global.terminationGracePeriodSeconds must cover preStopSleepSeconds + 15 s');
  const sc = values.containerSecurityContext ?? {};
  if (!(
    sc.runAsNonRoot &&
    sc.runAsUser === 10001 &&
    sc.readOnlyRootFilesystem &&
    sc.allowPrivilegeEscalation === false &&
    sc.capabilities?.drop?.includes('ALL') &&
    sc.seccompProfile?.type === 'RuntimeDefault'
  )) {
    fail(
      'values.yaml: containerSecurityContext must run as non-root 10001, read-only, no privilege escalation, drop ALL, seccomp RuntimeDefault',
    );
  }
}

// ---------- templates
const templatesDir = join(chartDir, 'templates');
const templateFiles = readdirSync(templatesDir).filter((file) => /\.(ya?ml|tpl|txt)$/.test(file));
const sources = Object.fromEntries(
  templateFiles.map((file) => [file, readFileSync(join(templatesDir, file), 'utf8')]),
);
const defined = new Set();
for (const [file, text] of Object.entries(sources)) {
  for (const match of text.matchAll(/\{\{-?\s*define\s+"([^"]+)"/g)) {
    if (defined.has(match[1])) fail(`templates/${file}: "${match[1]}" is defined twice`);
    defined.add(match[1]);
  }
}
const OPENERS = new Set(['if', 'range', 'with', 'define', 'block']);
for (const [file, text] of Object.entries(sources)) {
  const lineOf = (offset) => text.slice(0, offset).split('\n').length;
  // Braces: every {{ closes before the next one opens.
  let depth = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const pair = text.slice(i, i + 2);
    if (pair === '{{') {
      if (depth > 0) fail(`templates/${file}:${lineOf(i)}: "{{" inside an open action`);
      depth++;
      i++;
    } else if (pair === '}}') {
      if (depth === 0) fail(`templates/${file}:${lineOf(i)}: "}}" without "{{"`);
      depth = Math.max(0, depth - 1);
      i++;
    }
  }
  if (depth !== 0) fail(`templates/${file}: unclosed "{{"`);
  // Blocks: if/range/with/define each have an end.
  const stack = [];
  for (const match of text.matchAll(/\{\{-?\s*(\/\*[\s\S]*?\*\/|[a-z]+)?([^}]*)\}\}/g)) {
    const word = match[1] ?? '';
    if (word.startsWith('/*')) continue;
    if (OPENERS.has(word)) stack.push({ word, line: lineOf(match.index) });
    else if (word === 'end' && !stack.pop())
      fail(`templates/${file}:${lineOf(match.index)}: "end" without an open block`);
    else if ((word === 'else' || word === 'break' || word === 'continue') && stack.length === 0)
      fail(`templates/${file}:${lineOf(match.index)}: "${word}" outside a block`);
  }
  for (const open of stack) fail(`templates/${file}:${open.line}: "${open.word}" has no "end"`);
  // Every include/template names a defined template.
  for (const match of text.matchAll(/\b(include|template)\s+"([^"]+)"/g)) {
    if (!defined.has(match[2]))
      fail(`templates/${file}:${lineOf(match.index)}: ${match[1]} "${match[2]}" is not defined`);
  }
  // .Values paths exist in values.yaml (paths with a computed segment are skipped).
  if (values) {
    for (const match of text.matchAll(/\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
      const path = match[1].slice(1);
      if (get(values, path) === undefined)
        fail(`templates/${file}:${lineOf(match.index)}: .Values.${path} is not in values.yaml`);
    }
    // .part.<key> is a part's values block: every block must have the key (services-only keys excepted).
    for (const match of text.matchAll(/[$.]part\.([A-Za-z_][A-Za-z0-9_]*)/g)) {
      const key = match[1];
      const blocks = [
        ['gateway', values.gateway],
        ...Object.entries(values.services ?? {}).map(([n, v]) => [`services.${n}`, v]),
      ];
      for (const [where, block] of blocks) {
        if (where === 'gateway' && key in SERVICE_KEYS) continue;
        if (!isMap(block) || !(key in block))
          fail(
            `templates/${file}:${lineOf(match.index)}: uses .part.${key}, missing in values ${where}`,
          );
      }
    }
  }
}

// ---------- Dockerfile
const dockerfile = join(repoRoot, 'deploy/docker/Dockerfile');
if (existsSync(dockerfile)) {
  const text = readFileSync(dockerfile, 'utf8');
  for (const [pattern, what] of [
    [/^ARG APP\b/m, 'ARG APP'],
    [/^USER 10001/m, 'USER 10001'],
    [/^STOPSIGNAL SIGTERM/m, 'STOPSIGNAL SIGTERM'],
    [/NODE_ENV=production/, 'NODE_ENV=production'],
    // The public base is the default of ARG BASE (CI builds from a local one, verify-build.sh).
    [/^ARG BASE=node:24-bookworm-slim$/m, 'ARG BASE=node:24-bookworm-slim'],
    [/^FROM \$\{BASE\} AS runtime$/m, 'FROM ${BASE} AS runtime'],
    [
      /^CMD \["node", "\/app\/main\.js"\]$/m,
      'CMD ["node", "/app/main.js"] (compiled code, plain node)',
    ],
  ]) {
    if (!pattern.test(text)) fail(`deploy/docker/Dockerfile: missing ${what}`);
  }
} else {
  fail('deploy/docker/Dockerfile is missing');
}

for (const message of warnings) console.warn(`warning: ${message}`);
if (errors.length > 0) {
  for (const message of errors) console.error(`error: ${message}`);
  console.error(`chart check failed: ${errors.length} problem(s)`);
  process.exit(1);
}
console.log(
  `chart structure OK (${parser ? parser.how : 'no YAML parser: minimal checks'}; ${Object.keys(values?.services ?? {}).length} services + gateway; ${templateFiles.length} template files, ${defined.size} named templates)`,
);

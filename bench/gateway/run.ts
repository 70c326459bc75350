/**
 * Authenticated GET /api/user through the gateway (host → tenant, token check,
 * Redis rate limit, gRPC to identity, request-log publish) against a bare
 * Fastify hello-world, in the same run on this machine.
 *
 *   npx tsx --conditions=development bench/gateway/run.ts [--duration 10] [--connections 50]
 *
 * Reports: max throughput of each and their ratio (target >= 0.40), and the
 * gateway's latency percentiles at a fixed 1,000 requests/s (target p99 < 10 ms).
 * The platform limit is raised for the run (RATE_LIMIT_PER_MINUTE) so the
 * 1,000/min budget does not dominate; the Lua script still runs on every request.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { createTenantWithToken, startSystem } from '@inventory/test-e2e';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } } });
const duration = Number(values.duration);
const connections = Number(values.connections);

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const bare = Fastify();
bare.get('/', async () => ({ hello: 'world' }));
await bare.listen({ host: '127.0.0.1', port: 0 });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

const system = await startSystem({ gatewayEnv: { RATE_LIMIT_PER_MINUTE: '1000000000' } });
try {
  const fixture = await createTenantWithToken(system, { slug: 'bench', scopes: [] });
  const gatewayOptions = {
    url: `${system.gatewayUrl}/api/user`,
    headers: { host: fixture.host, authorization: `Bearer ${fixture.token}`, accept: 'application/json' },
  };
  const check = await run({ ...gatewayOptions, amount: 50, connections: 1 });
  if (check.non2xx > 0) throw new Error(`gateway answered non-2xx during warm-up (${check.non2xx})`);

  await run({ url: bareUrl, duration: 3, connections });
  const bareResult = await run({ url: bareUrl, duration, connections });
  await run({ ...gatewayOptions, duration: 3, connections });
  const gatewayResult = await run({ ...gatewayOptions, duration, connections });
  const fixedRate = await run({ ...gatewayOptions, duration, connections: 20, overallRate: 1000 });

  const ratio = gatewayResult.requests.average / bareResult.requests.average;
  const report = {
    machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
    bare_hello_world: { req_per_s: Math.round(bareResult.requests.average), p50_ms: bareResult.latency.p50, p99_ms: bareResult.latency.p99 },
    gateway_get_api_user: { req_per_s: Math.round(gatewayResult.requests.average), p50_ms: gatewayResult.latency.p50, p99_ms: gatewayResult.latency.p99, non_2xx: gatewayResult.non2xx },
    throughput_ratio: Math.round(ratio * 1000) / 1000,
    ratio_target_met: ratio >= 0.4,
    fixed_1000_rps: {
      achieved_req_per_s: Math.round(fixedRate.requests.average),
      p50_ms: fixedRate.latency.p50,
      p90_ms: fixedRate.latency.p90,
      p99_ms: fixedRate.latency.p99,
      non_2xx: fixedRate.non2xx,
      p99_target_met: fixedRate.latency.p99 < 10,
    },
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  await system.stop();
  await bare.close();
}

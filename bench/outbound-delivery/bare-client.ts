/**
 * The baseline: the same POSTs (same body size, same headers) from a bare keep-alive
 * node:http client at the same concurrency, with no signing and no bookkeeping.
 * Prints one JSON line: {requests, elapsedMs, cpuMs}.
 *
 *   npx tsx bench/outbound-delivery/bare-client.ts <url> <count> <concurrency> <bodyBytes>
 */
import http from 'node:http';

const [url, countArg, concurrencyArg, bodyArg] = process.argv.slice(2);
const count = Number(countArg);
const concurrency = Number(concurrencyArg);
const body = Buffer.from(JSON.stringify({ pad: 'x'.repeat(Math.max(0, Number(bodyArg) - 12)) }));
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const headers = {
  'X-SVC-Event': 'product.created',
  'X-SVC-Delivery-Id': '00000000-0000-4000-8000-000000000000',
  'X-SVC-Signature': `sha256=${'0'.repeat(64)}`,
  'User-Agent': 'SVC-Webhook/1.0',
  'Content-Type': 'application/json',
  'Content-Length': String(body.length),
};

function post(): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(url!, { method: 'POST', agent, headers }, (response) => {
      response.resume();
      response.on('end', resolve);
    });
    request.on('error', reject);
    request.end(body);
  });
}

const cpuBefore = process.cpuUsage();
const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < count) {
      next++;
      await post();
    }
  }),
);
const elapsedMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
process.stdout.write(
  `${JSON.stringify({ requests: count, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`,
);
agent.destroy();

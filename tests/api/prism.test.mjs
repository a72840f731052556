// A validating proxy is a test: Prism (@stoplight/prism-cli, pinned in package.json) reads
// docs/openapi.json and proxies a representative set of the conformance requests to the real
// binary. Prism reports what breaks the document in each answer's `sl-violations` header; any
// violation of a response fails, and so does any violation of a request meant to be valid.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';
import { startServer } from './lib/server.mjs';
import { header, send } from './lib/http.mjs';
import { documentPath, repoRoot } from './lib/paths.mjs';

const prismCli = join(repoRoot, 'tests/api/node_modules/@stoplight/prism-cli/dist/index.js');

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

// startPrism: `prism proxy` in front of `upstream` (the server URL, ending in /v1, so that Prism's
// paths are the document's); resolves with its origin once it listens.
async function startPrism(upstream) {
  const port = await freePort();
  // Node's own header limit (16 KiB) would answer the 431 case before Prism could forward it.
  const child = spawn(process.execPath, ['--max-http-header-size=65536', prismCli, 'proxy', documentPath, upstream,
    '--port', String(port), '--host', '127.0.0.1', '--cors=false', '--errors=false'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk; });
  child.stderr.on('data', (chunk) => { output += chunk; });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start in 60 s:\n${output}`)), 60_000);
    child.stdout.on('data', () => { if (/Prism is listening/.test(output)) { clearTimeout(timer); resolve(); } });
    exited.then((code) => { clearTimeout(timer); reject(new Error(`Prism exited with ${code}:\n${output}`)); });
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() { child.kill('SIGTERM'); await exited; },
  };
}

let server;
let prism;
before(async () => {
  server = await startServer();
  prism = await startPrism(`${server.origin}/v1`);
});
after(async () => {
  await prism?.stop();
  await server?.stop();
});

const json = { 'Content-Type': 'application/json' };
const auth = () => ({ Authorization: `Bearer ${server.key}` });
const newPet = '{"name":"Rex","categoryId":7}';

// Through Prism, paths are the document's (the server URL's /v1 is Prism's upstream). No 501 of
// listOrders: Prism answers an upstream 501 with a mock of its own (here the default 503 example).
const requests = [
  ['201 createPet', 201, true, () => ({ method: 'POST', path: '/pets', headers: { ...auth(), ...json, 'Idempotency-Key': 'prism-1' }, body: newPet })],
  ['201 createPet, retried', 201, true, () => ({ method: 'POST', path: '/pets', headers: { ...auth(), ...json, 'Idempotency-Key': 'prism-1' }, body: newPet })],
  ['201 createPet with status', 201, true, () => ({ method: 'POST', path: '/pets', headers: { ...auth(), ...json }, body: '{"name":"Tom","categoryId":3,"status":"sold"}' })],
  ['200 listPets with Link', 200, true, () => ({ path: '/pets?limit=1', headers: auth() })],
  ['200 listPets, last page', 200, true, () => ({ path: '/pets?limit=1&after=1', headers: auth() })],
  ['200 listPets filtered', 200, true, () => ({ path: '/pets?status=sold', headers: auth() })],
  ['200 getPet', 200, true, () => ({ path: '/pets/1', headers: auth() })],
  ['404 getPet', 404, true, () => ({ path: '/pets/999999', headers: auth() })],
  ['400 listPets limit=0', 400, false, () => ({ path: '/pets?limit=0', headers: auth() })],
  ['400 getPet abc', 400, false, () => ({ path: '/pets/abc', headers: auth() })],
  ['400 createPet invalid_json', 400, false, () => ({ method: 'POST', path: '/pets', headers: { ...auth(), ...json }, body: '{' })],
  ['400 createPet validation_failed', 400, false, () => ({ method: 'POST', path: '/pets', headers: { ...auth(), ...json }, body: '{"name":"Rex"}' })],
  ['415 createPet', 415, false, () => ({ method: 'POST', path: '/pets', headers: { ...auth(), 'Content-Type': 'text/plain' }, body: newPet })],
  ['422 createPet', 422, true, () => ({ method: 'POST', path: '/pets', headers: { ...auth(), ...json, 'Idempotency-Key': 'prism-1' }, body: '{"name":"Other","categoryId":7}' })],
  ['401 listPets without a key', 401, false, () => ({ path: '/pets' })],
  ['401 createPet with an unknown key', 401, false, () => ({ method: 'POST', path: '/pets', headers: { Authorization: 'Bearer pst_unknown', ...json }, body: newPet })],
  ['413 createPet', 413, false, () => ({ method: 'POST', path: '/pets', headers: { ...auth(), ...json }, body: JSON.stringify({ name: 'Rex', categoryId: 7, pad: 'x'.repeat(70_000) }), fresh: true })],
  ['431 listPets', 431, false, () => ({ path: '/pets', headers: { ...auth(), 'X-Padding': 'p'.repeat(17_000) }, fresh: true })],
];

describe('Prism 5 proxies to the binary and finds no violation', () => {
  for (const [label, status, valid, request] of requests) {
    test(label, async () => {
      const response = await send(prism.origin, request());
      assert.equal(response.status, status, `${label}: ${response.text}\n${prism.output().slice(-2000)}`);
      const violations = JSON.parse(header(response, 'sl-violations') ?? '[]');
      const counted = valid ? violations : violations.filter((v) => v.location?.[0] === 'response');
      assert.deepEqual(counted, [], `${label}: Prism reports ${JSON.stringify(violations)}`);
    });
  }
});

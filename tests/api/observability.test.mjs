// Observability over real sockets: GET /metrics read with the Prometheus project's own text
// parser (prometheus_client.parser, through lib/parse_prometheus.py), request ids in responses
// and log lines, the JSON log's fields, and no key anywhere in what an operator sees.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { binary, startServer } from './lib/server.mjs';
import { header, protocol, send } from './lib/http.mjs';

const json = { 'Content-Type': 'application/json' };
const auth = (key) => ({ Authorization: `Bearer ${key}` });
const parser = fileURLToPath(new URL('./lib/parse_prometheus.py', import.meta.url));

// parsePrometheus: the metric families of `text`; throws when the parser refuses a line. Debian's
// python3 is named in full, so that another python3 earlier on PATH cannot hide the package.
function parsePrometheus(text) {
  const families = JSON.parse(execFileSync('/usr/bin/python3', [parser], { input: text, encoding: 'utf8' }));
  return new Map(families.map((family) => [family.name, family]));
}

async function scrape(server) {
  const response = await send(server.origin, { path: '/metrics', fresh: true });
  assert.equal(response.status, 200);
  assert.equal(header(response, 'content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  return { text: response.text, families: parsePrometheus(response.text) };
}

// samples: the samples named `name` (in `family`, or the family of that name) whose labels
// include `labels`.
function samples(families, name, labels = {}, family = name) {
  return (families.get(family)?.samples ?? []).filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

// value: the one sample's value, 0 when there is none (a counter not yet incremented).
function value(families, name, labels = {}, family = name) {
  const found = samples(families, name, labels, family);
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? 0;
}

// histogram: count, sum and cumulative buckets (ascending le) of `family` for `labels`.
function histogram(families, family, labels = {}) {
  const buckets = samples(families, `${family}_bucket`, labels, family)
    .map((s) => ({ le: s.labels.le === '+Inf' ? Infinity : Number(s.labels.le), count: s.value }))
    .sort((a, b) => a.le - b.le);
  return {
    count: value(families, `${family}_count`, labels, family),
    sum: value(families, `${family}_sum`, labels, family),
    buckets,
  };
}

// requestsTotal: the count of `labels`' requests over this run's transport (the protocol label).
const requestsTotal = (families, labels) =>
  value(families, 'petstore_http_requests_total', { ...labels, protocol }, 'petstore_http_requests');

// logLines: the JSON log lines on stdout after the listening line, parsed.
function logLines(server) {
  return server.stdout().split('\n').slice(1).filter((line) => line.trim() !== '').map((line) => JSON.parse(line));
}

async function eventually(what, predicate) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`not within 10 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('GET /metrics', () => {
  let server;
  before(async () => { server = await startServer(); });
  after(async () => { await server?.stop(); });

  test('parses as Prometheus text with every family the service promises, typed', async () => {
    const { families } = await scrape(server);
    // The parser names a counter's family without its _total suffix.
    const expected = {
      petstore_http_requests: 'counter',
      petstore_http_request_duration_seconds: 'histogram',
      petstore_http_requests_in_flight: 'gauge',
      petstore_http_connections_open: 'gauge',
      petstore_pets_stored: 'gauge',
      petstore_storage_commit_seconds: 'histogram',
      petstore_build_info: 'gauge',
      petstore_log_lines_dropped: 'counter',
      // The standard process metrics of Prometheus client libraries.
      process_cpu_seconds: 'counter',
      process_resident_memory_bytes: 'gauge',
      process_virtual_memory_bytes: 'gauge',
      process_open_fds: 'gauge',
      process_max_fds: 'gauge',
      process_start_time_seconds: 'gauge',
    };
    for (const [name, type] of Object.entries(expected)) {
      assert.equal(families.get(name)?.type, type, `${name} is missing or not a ${type}`);
      assert.ok(families.get(name).help.length > 0, `${name} has no HELP`);
    }
    assert.deepEqual([...families.keys()].filter((name) => !(name in expected)), [], 'families nobody documented');
    assert.ok(value(families, 'process_resident_memory_bytes') > 1024 * 1024, 'a process holds memory');
    assert.ok(value(families, 'process_open_fds') > 0 && value(families, 'process_open_fds') <= value(families, 'process_max_fds'));
    assert.ok(Math.abs(value(families, 'process_start_time_seconds') - Date.now() / 1000) < 3600, 'started within the hour');
    assert.equal(value(families, 'petstore_log_lines_dropped_total', {}, 'petstore_log_lines_dropped'), 0);
    // The scrape itself is the one request in flight while the text is made.
    assert.equal(value(families, 'petstore_http_requests_in_flight'), 1);
    const { buckets } = histogram(families, 'petstore_http_request_duration_seconds', { operation: 'getPet' });
    assert.deepEqual(buckets.map((b) => b.le), [0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
      0.1, 0.25, 0.5, 1, 2.5, 5, 10, Infinity]);
  });

  // What `promtool check metrics` lints, checked here without it
  // (docs/decisions/metrics-checked-without-promtool.md says why).
  test('passes promtool\'s lint rules: HELP and TYPE once, _total on counters only, base units', async () => {
    const { text } = await scrape(server);
    const problems = [];
    const declared = new Map();
    for (const line of text.split('\n')) {
      const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
      if (meta) {
        const key = `${meta[1]} ${meta[2]}`;
        if (declared.has(key)) problems.push(`${key} twice`);
        declared.set(key, meta[3]);
        continue;
      }
      if (line === '') continue;
      const [, name, labels = ''] = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? \S+$/.exec(line) ?? [];
      if (!name) { problems.push(`unparsed: ${line}`); continue; }
      const family = [...declared.keys()].map((k) => k.slice(5)).find((f) => name === f || name.startsWith(`${f}_`));
      const type = declared.get(`TYPE ${family}`);
      if (!type || !declared.get(`HELP ${family}`)) problems.push(`${name} has no HELP or TYPE`);
      if ((type === 'counter') !== name.endsWith('_total')) problems.push(`${name}: a ${type} ${type === 'counter' ? 'without' : 'with'} _total`);
      if (/[A-Z]/.test(name) || /_(milli|micro|nano|kilo|mega)?(ms|us|ns|minutes|hours|kb|mb|milliseconds|microseconds)(_|$)/.test(name)) problems.push(`${name}: not snake case in base units`);
      for (const [, label] of labels.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)) if (/[A-Z]/.test(label)) problems.push(`${name}: label ${label}`);
    }
    assert.deepEqual(problems, []);
  });

  test('build info carries the version that petstore --version prints', async () => {
    const { families } = await scrape(server);
    const info = samples(families, 'petstore_build_info');
    assert.equal(info.length, 1);
    assert.equal(info[0].value, 1);
    const printed = execFileSync(binary, ['--version'], { encoding: 'utf8' });
    assert.ok(info[0].labels.version.length > 0);
    assert.ok(printed.includes(info[0].labels.version), `${printed} does not name ${info[0].labels.version}`);
    assert.deepEqual(Object.keys(info[0].labels).sort(), ['revision', 'version'], 'Prometheus names: version, revision');
    assert.ok(printed.includes(info[0].labels.revision), `${printed} does not name ${info[0].labels.revision}`);
  });

  test('counts requests by operation, protocol and status, and times each of them', async () => {
    const before = (await scrape(server)).families;
    const sent = [
      ['listPets', 200, { path: '/v1/pets', headers: auth(server.key) }],
      ['listPets', 200, { path: '/v1/pets?limit=1', headers: auth(server.key) }],
      ['listPets', 400, { path: '/v1/pets?limit=0', headers: auth(server.key) }],
      ['listPets', 401, { path: '/v1/pets' }],
      ['createPet', 201, { method: 'POST', path: '/v1/pets', headers: { ...auth(server.key), ...json }, body: '{"name":"Rex","categoryId":1}' }],
      ['createPet', 400, { method: 'POST', path: '/v1/pets', headers: { ...auth(server.key), ...json }, body: '{"name":"","categoryId":1}' }],
      ['getPet', 404, { path: '/v1/pets/999999', headers: auth(server.key) }],
      ['listOrders', 501, { path: '/v1/store/orders', headers: auth(server.key) }],
    ];
    for (const [, status, request] of sent) {
      assert.equal((await send(server.origin, request)).status, status);
    }
    const afterwards = (await scrape(server)).families;
    const expectedCounts = new Map();
    for (const [operation, status] of sent) {
      const key = `${operation} ${status}`;
      expectedCounts.set(key, (expectedCounts.get(key) ?? 0) + 1);
    }
    for (const [key, count] of expectedCounts) {
      const [operation, status] = key.split(' ');
      const delta = requestsTotal(afterwards, { operation, status }) - requestsTotal(before, { operation, status });
      assert.equal(delta, count, `requests_total ${key}`);
    }
    for (const operation of ['listPets', 'createPet', 'getPet', 'listOrders']) {
      const sentCount = sent.filter(([op]) => op === operation).length;
      const was = histogram(before, 'petstore_http_request_duration_seconds', { operation });
      const now = histogram(afterwards, 'petstore_http_request_duration_seconds', { operation });
      assert.equal(now.count - was.count, sentCount, `duration count of ${operation}`);
      assert.ok(now.sum > was.sum, `duration sum of ${operation} did not grow`);
      let previous = 0;
      for (const bucket of now.buckets) {
        assert.ok(bucket.count >= previous, `${operation} buckets are not cumulative at le=${bucket.le}`);
        previous = bucket.count;
      }
      assert.equal(now.buckets.at(-1).le, Infinity);
      assert.equal(previous, now.count, `${operation}: +Inf bucket differs from the count`);
    }
  });

  test('pets stored follows the creates', async () => {
    const count = async () => value((await scrape(server)).families, 'petstore_pets_stored');
    const was = await count();
    for (const name of ['Ada', 'Bo', 'Cy']) {
      const response = await send(server.origin, { method: 'POST', path: '/v1/pets', headers: { ...auth(server.key), ...json }, body: JSON.stringify({ name, categoryId: 1 }) });
      assert.equal(response.status, 201);
    }
    assert.equal(await count(), was + 3);
  });

  test('open connections rise and fall with the clients', async () => {
    const open = async () => value((await scrape(server)).families, 'petstore_http_connections_open');
    // Each scrape counts its own connection; kept-alive ones of earlier tests stay open.
    const baseline = await open();
    const port = Number(new URL(server.origin).port);
    const sockets = await Promise.all([1, 2, 3].map(() => new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
      socket.on('error', reject);
    })));
    await eventually('three more connections are counted', async () => (await open()) >= baseline + 3);
    for (const socket of sockets) socket.destroy();
    await eventually('the three connections are no longer counted', async () => (await open()) <= baseline);
  });

  test('never shows a key', async () => {
    await send(server.origin, { path: '/v1/pets', headers: auth(server.key) });
    await send(server.origin, { path: '/v1/pets', headers: auth(`${server.otherKey}x`) });
    const { text } = await scrape(server);
    for (const secret of [server.key, server.otherKey, `${server.otherKey}x`]) {
      assert.ok(!text.includes(secret), 'a key appears in /metrics');
    }
  });
});

describe('storage commits on LMDB', () => {
  let server;
  before(async () => { server = await startServer({ storage: 'lmdb' }); });
  after(async () => { await server?.stop(); });

  test('each create is a timed commit and the pets are counted', async () => {
    const was = (await scrape(server)).families;
    for (const name of ['Ada', 'Bo']) {
      const response = await send(server.origin, { method: 'POST', path: '/v1/pets', headers: { ...auth(server.key), ...json }, body: JSON.stringify({ name, categoryId: 1 }) });
      assert.equal(response.status, 201);
    }
    const now = (await scrape(server)).families;
    const commits = (families) => histogram(families, 'petstore_storage_commit_seconds');
    // Sequential creates cannot share a group commit: one commit each.
    assert.equal(commits(now).count - commits(was).count, 2);
    assert.ok(commits(now).sum > commits(was).sum);
    assert.equal(value(now, 'petstore_pets_stored') - value(was, 'petstore_pets_stored'), 2);
  });
});

describe('request ids and log lines', () => {
  let server;
  before(async () => { server = await startServer(); });
  after(async () => { await server?.stop(); });

  test('a valid X-Request-Id is echoed and names the log line of its request', async () => {
    const id = 'checkout-7f3a9c';
    const response = await send(server.origin, { path: '/v1/pets/12345', headers: { ...auth(server.key), 'X-Request-Id': id } });
    assert.equal(response.status, 404);
    assert.equal(header(response, 'x-request-id'), id);
    const line = await eventually('the request is logged', () => logLines(server).find((l) => l.request_id === id));
    assert.equal(line.event, 'request');
    assert.equal(line.level, 'info');
    assert.equal(line.method, 'GET');
    assert.equal(line.protocol, protocol);
    assert.equal(line.route, '/v1/pets/{petId}');
    assert.equal(line.status, 404);
    assert.equal(line.bytes, Buffer.byteLength(response.text));
    assert.ok(typeof line.duration_ms === 'number' && line.duration_ms >= 0);
    assert.match(line.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(!JSON.stringify(line).includes('12345'), 'the log line holds the target, not the route template');
  });

  test('a missing or invalid X-Request-Id is replaced by a fresh 32-hex-digit id', async () => {
    const ids = [];
    for (const sent of [undefined, '', 'x'.repeat(129), 'has space', 'caf\u00e9']) {
      const headers = { ...auth(server.key) };
      if (sent !== undefined) headers['X-Request-Id'] = sent;
      let response;
      try {
        response = await send(server.origin, { path: '/v1/pets', headers });
      } catch (error) {
        // node refuses to send some header values itself; such ids cannot reach the server.
        if (error.code === 'ERR_INVALID_CHAR') continue;
        throw error;
      }
      assert.equal(response.status, 200);
      const id = header(response, 'x-request-id');
      assert.match(id, /^[0-9a-f]{32}$/, `for ${JSON.stringify(sent)}`);
      ids.push(id);
    }
    assert.ok(ids.length >= 4);
    assert.equal(new Set(ids).size, ids.length, 'request ids repeat');
  });

  test('W3C trace context: a valid traceparent is continued, a malformed one replaced; traceresponse and the log line agree', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const cases = [
      ['trace-valid', `00-${traceId}-00f067aa0ba902b7-01`, true],
      ['trace-ff', `ff-${traceId}-00f067aa0ba902b7-01`, false],
      ['trace-zero', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, false],
      ['trace-upper', `00-${traceId.toUpperCase()}-00f067aa0ba902b7-01`, false],
      ['trace-short', `00-${traceId}-00f067aa0ba902b7-1`, false],
      ['trace-none', undefined, false],
    ];
    for (const [id, traceparent, continued] of cases) {
      const headers = { ...auth(server.key), 'X-Request-Id': id, tracestate: 'congo=t61rcWkgMzE' };
      if (traceparent !== undefined) headers.traceparent = traceparent;
      const response = await send(server.origin, { path: '/v1/pets', headers });
      assert.equal(response.status, 200);
      const answer = header(response, 'traceresponse');
      const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/.exec(answer ?? '');
      assert.ok(match, `${id}: traceresponse ${answer}`);
      assert.equal(match[1] === traceId, continued, `${id}: trace id ${match[1]}`);
      assert.notEqual(match[1], '0'.repeat(32));
      assert.equal(match[3], continued ? '01' : '00', id);
      const line = await eventually(`${id} is logged`, () => logLines(server).find((l) => l.request_id === id));
      assert.equal(line.trace_id, match[1], id);
      assert.equal(line.span_id, match[2], id);
    }
  });

  test('errors outside /v1 and unparseable requests carry a request id too', async () => {
    const notFound = await send(server.origin, { path: '/nowhere' });
    assert.equal(notFound.status, 404);
    assert.match(header(notFound, 'x-request-id'), /^[0-9a-f]{32}$/);
    const raw = await new Promise((resolve, reject) => {
      const socket = net.connect(Number(new URL(server.origin).port), '127.0.0.1', () => socket.end('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => { text += chunk; });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 400 /);
    assert.match(raw, /\r\nX-Request-Id: [0-9a-f]{32}\r\n/i);
  });

  // Issue 29: an unrouted request was logged as "-" but counted as "other".
  test('every operation in the log is a value of the metric\'s operation label', async () => {
    const sent = [
      { path: '/v1/pets', headers: auth(server.key) },
      { path: '/v1/nothing', headers: auth(server.key) },
      { method: 'DELETE', path: '/v1/pets', headers: auth(server.key) },
      { path: '/v1/pets' },
      { path: '/nowhere' },
      { path: '/openapi.json' },
    ].map((request) => ({ ...request, headers: { ...request.headers, 'X-Request-Id': `agree-${Math.random().toString(36).slice(2)}` } }));
    for (const request of sent) await send(server.origin, request);
    const ids = new Set(sent.map((request) => request.headers['X-Request-Id']));
    const lines = await eventually('the requests are logged', () => {
      const found = logLines(server).filter((l) => l.event === 'request' && ids.has(l.request_id));
      return found.length === ids.size && found;
    });
    const { families } = await scrape(server);
    const labels = new Set(samples(families, 'petstore_http_requests_total', {}, 'petstore_http_requests').map((s) => s.labels.operation));
    const logged = new Set(lines.map((l) => l.operation));
    assert.deepEqual([...logged].filter((operation) => !labels.has(operation)), [], `logged ${[...logged]}, counted ${[...labels]}`);
    assert.ok(logged.has('other') && logged.has('listPets') && logged.has('getApiDocument'), [...logged].join(' '));
  });

  test('no key and no Authorization value reaches a log line', async () => {
    const wrong = `${server.otherKey.slice(0, -2)}zz`;
    await send(server.origin, { path: '/v1/pets', headers: auth(server.key) });
    await send(server.origin, { path: '/v1/pets', headers: auth(wrong) });
    await send(server.origin, { path: `/v1/pets?key=${server.otherKey}`, headers: { Authorization: `Basic ${server.key}` } });
    await eventually('the three requests are logged', () => logLines(server).filter((l) => l.event === 'request').length >= 3);
    const everything = server.stdout() + server.stderr();
    for (const secret of [server.key, server.otherKey, wrong]) {
      assert.ok(!everything.includes(secret), 'a key appears in the logs');
    }
    assert.ok(!/bearer|authorization/i.test(everything), 'an Authorization value appears in the logs');
  });
});

describe('text logs', () => {
  let server;
  before(async () => { server = await startServer({ extraArgs: ['--log-format', 'text'] }); });
  after(async () => { await server?.stop(); });

  test('one key=value line per request with the same fields', async () => {
    const response = await send(server.origin, { path: '/v1/pets', headers: { ...auth(server.key), 'X-Request-Id': 'text-1' } });
    assert.equal(response.status, 200);
    const line = await eventually('the request is logged', () => server.stdout().split('\n').find((l) => l.includes('request_id=text-1')));
    assert.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z info request /);
    for (const field of ['method=GET', 'route=/v1/pets', 'status=200', `bytes=${Buffer.byteLength(response.text)}`]) {
      assert.ok(line.includes(` ${field}`), `${field} is not in: ${line}`);
    }
  });
});

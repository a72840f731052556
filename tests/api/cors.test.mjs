// CORS in a real browser (issue 29): Debian's headless Chromium opens a page served by a tiny node
// server on another port of 127.0.0.1 (another origin), and the page calls the API with `fetch`
// and a bearer key: it creates pets (with an Idempotency-Key, reading the exposed Location), lists
// them by following Link to the end (the page of 100 comes gzipped, which the browser undoes),
// and reads a 401's body. A page from an origin the server does not list is blocked by the
// browser, before any request with its key is sent. Both run against the API over plain HTTP/1.1
// and over HTTPS, where the browser chooses HTTP/2 by ALPN (issue 40): the page's own Resource
// Timing entries (nextHopProtocol) and the server's log lines both show that it did.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './lib/server.mjs';

const executablePath = process.env.PETSTORE_CHROMIUM ?? '/usr/bin/chromium';

// servePage: an HTTP server on a free port of 127.0.0.1 that answers every path with an empty
// page; resolves with its origin and a close function.
function servePage() {
  const server = http.createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><meta charset="utf-8"><title>a page of another origin</title>');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      origin: `http://127.0.0.1:${server.address().port}`,
      close: () => new Promise((done) => server.close(done)),
    }));
  });
}

// selfSignedCertificate: a certificate for 127.0.0.1 and its key, in `dir`, made with openssl.
function selfSignedCertificate(dir) {
  const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
    '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
  { stdio: 'ignore' });
  return ['--tls-cert', cert, '--tls-key', key];
}

let listedPage;
let unlistedPage;
let context;
let profile;
// The API twice: over plain HTTP/1.1, and over HTTPS offering h2 by ALPN.
const apis = { 'HTTP/1.1': undefined, 'HTTP/2 over TLS': undefined };
before(async () => {
  assert.ok(existsSync(executablePath), `${executablePath} is missing: run scripts/deps (Debian package chromium)`);
  listedPage = await servePage();
  unlistedPage = await servePage();
  profile = mkdtempSync(join(tmpdir(), 'petstore-chromium-cors-'));
  const cors = ['--cors-origins', listedPage.origin];
  apis['HTTP/1.1'] = await startServer({ extraArgs: cors });
  apis['HTTP/2 over TLS'] = await startServer({ extraArgs: [...cors, ...selfSignedCertificate(profile)] });
  context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    // The HTTPS API's certificate is the test's own.
    ignoreHTTPSErrors: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
});
after(async () => {
  await context?.close();
  for (const api of Object.values(apis)) await api?.stop();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await listedPage?.close();
  await unlistedPage?.close();
});

// In the page: creates `count` pets (one create retried with its Idempotency-Key), lists them
// `limit` at a time by following Link, asks for them all at once, and once without a key.
async function createAndPage({ apiOrigin, key, count, limit }) {
  const auth = { Authorization: `Bearer ${key}` };
  const create = (i) => fetch(`${apiOrigin}/v1/pets`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': `page-${i}` },
    body: JSON.stringify({ name: `Pet ${i} from another origin`, categoryId: i }),
  });
  const created = [];
  for (let i = 0; i < count; i += 1) {
    const response = await create(i);
    created.push({ status: response.status, location: response.headers.get('Location'), id: (await response.json()).id });
  }
  const retried = await create(0);
  const pages = [];
  let next = `${apiOrigin}/v1/pets?limit=${limit}`;
  while (next) {
    const response = await fetch(next, { headers: auth });
    pages.push({ status: response.status, ids: (await response.json()).map((pet) => pet.id) });
    const link = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('Link') ?? '');
    next = link ? new URL(link[1], apiOrigin).href : null;
  }
  const whole = await fetch(`${apiOrigin}/v1/pets?limit=100`, { headers: auth });
  const unauthorized = await fetch(`${apiOrigin}/v1/pets`);
  return {
    created,
    retried: { status: retried.status, id: (await retried.json()).id },
    pages,
    whole: { status: whole.status, count: (await whole.json()).length, requestId: whole.headers.get('X-Request-Id') },
    unauthorized: { status: unauthorized.status, code: (await unauthorized.json()).code },
  };
}

// In the page: each call the page tries, and how it ended (a status, or the browser's error).
async function tryCalls({ apiOrigin, key }) {
  const attempt = (promise) => promise.then((response) => `status ${response.status}`, (error) => `${error.name}`);
  return {
    list: await attempt(fetch(`${apiOrigin}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } })),
    create: await attempt(fetch(`${apiOrigin}/v1/pets`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'from an unlisted origin', categoryId: 1 }),
    })),
    health: await attempt(fetch(`${apiOrigin}/healthz`)),
  };
}

for (const transport of Object.keys(apis)) describe(`the API over ${transport}`, () => {
  let api;
  before(() => { api = apis[transport]; });
  // What the browser's Resource Timing and the server's log lines call the protocol.
  const [nextHopProtocol, loggedProtocol] = transport === 'HTTP/1.1' ? ['http/1.1', 'HTTP/1.1'] : ['h2', 'HTTP/2'];

  test('a page of a listed origin creates, pages through Link and reads errors with fetch', async () => {
    const page = await context.newPage();
    const encodings = [];
    page.on('response', async (response) => {
      if (response.url().endsWith('/v1/pets?limit=100')) encodings.push((await response.allHeaders())['content-encoding']);
    });
    // What the browser says of each response from the API, preflights included.
    const protocols = new Set();
    const devtools = await context.newCDPSession(page);
    await devtools.send('Network.enable');
    devtools.on('Network.responseReceived', ({ response }) => {
      if (response.url.startsWith(api.origin)) protocols.add(response.protocol);
    });
    await page.goto(`${listedPage.origin}/`);
    const result = await page.evaluate(createAndPage, { apiOrigin: api.origin, key: api.key, count: 25, limit: 10 });
    await page.close();

    assert.deepEqual(result.created.map((pet) => pet.status), Array(25).fill(201));
    assert.deepEqual(result.created.map((pet) => pet.location), result.created.map((pet) => `/v1/pets/${pet.id}`),
      'Location is exposed to the page');
    assert.deepEqual(result.retried, { status: 201, id: result.created[0].id }, 'the retry answers the first create');
    assert.deepEqual(result.pages.map((one) => one.status), [200, 200, 200]);
    assert.deepEqual(result.pages.flatMap((one) => one.ids), result.created.map((pet) => pet.id),
      'following Link visits every pet once, in order');
    assert.equal(result.whole.status, 200);
    assert.equal(result.whole.count, 25);
    assert.match(result.whole.requestId ?? '', /^[0-9a-f]{32}$/, 'X-Request-Id is exposed');
    assert.deepEqual(encodings, ['gzip'], 'the page of 25 pets (over 1 KiB) came gzipped');
    assert.deepEqual(result.unauthorized, { status: 401, code: 'unauthorized' }, 'a 401 is readable');
    assert.deepEqual([...protocols], [nextHopProtocol], 'the protocol the browser says it used');
    await new Promise((resolve) => setTimeout(resolve, 200));  // the log is written after the answer
    const requests = api.stdout().split('\n').filter((line) => line.includes('"event":"request"'));
    assert.ok(requests.length >= 30, `${requests.length} request lines`);
    assert.deepEqual([...new Set(requests.map((line) => JSON.parse(line).protocol))], [loggedProtocol]);
  });

  test('a page of an unlisted origin is blocked by the browser', async () => {
    const page = await context.newPage();
    // The server's request log, one JSON line a request: what reached it, method by method.
    const logged = (method) => api.stdout().split('\n').filter((line) => line.includes(`"method":"${method}"`)).length;
    const [postsBefore, optionsBefore] = [logged('POST'), logged('OPTIONS')];
    await page.goto(`${unlistedPage.origin}/`);
    const result = await page.evaluate(tryCalls, { apiOrigin: api.origin, key: api.key });
    await page.close();
    assert.deepEqual(result, { list: 'TypeError', create: 'TypeError', health: 'TypeError' });
    await new Promise((resolve) => setTimeout(resolve, 200));  // the log is written after the answer
    assert.ok(logged('OPTIONS') > optionsBefore, 'the browser asked first');
    assert.equal(logged('POST'), postsBefore, 'and, refused, sent no create');
    // From the server's side too: the pets are the 25 of the listed page's test, none new.
    const response = await context.request.get(`${api.origin}/v1/pets?limit=100`, { headers: { Authorization: `Bearer ${api.key}` } });
    const names = (await response.json()).map((pet) => pet.name);
    assert.ok(!names.includes('from an unlisted origin'));
  });
});

// The /docs page in a real browser: Debian's headless Chromium (driven by playwright-core, which
// downloads no browser) opens /docs from a running server with every other host unresolvable, and
// the page must render every operation of the document from what the binary embeds. Screenshots
// go to build/api-test-output/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from './lib/server.mjs';
import { operations } from './lib/openapi.mjs';
import { outputDir } from './lib/paths.mjs';

const executablePath = process.env.PETSTORE_CHROMIUM ?? '/usr/bin/chromium';
// Redoc's side menu shows a logo from its CDN and drops it when it fails to load: the one request
// the page's Content-Security-Policy is expected to block.
const expectedBlocked = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

let server;
let context;
let profile;
before(async () => {
  assert.ok(existsSync(executablePath), `${executablePath} is missing: run scripts/deps (Debian package chromium)`);
  server = await startServer();
  profile = mkdtempSync(join(tmpdir(), 'petstore-chromium-'));
  // A fresh profile; every host but the loopback one is unresolvable, as with no network.
  context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  mkdirSync(outputDir, { recursive: true });
});
after(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await server?.stop();
});

test('/docs renders every operation of the document, offline, within its Content-Security-Policy', async () => {
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && !text.includes(expectedBlocked)) problems.push(`console: ${text}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('request', (request) => requests.push(request.url()));
  page.on('response', (answer) => {
    if (answer.status() >= 400) problems.push(`${answer.status()} for ${answer.url()}`);
  });

  const response = await page.goto(`${server.origin}/docs`);
  assert.equal(response.status(), 200);
  for (const [operationId, { operation }] of operations) {
    const section = page.locator(`[id$="operation/${operationId}"]`).first();
    await section.waitFor({ state: 'attached', timeout: 30_000 });
    assert.ok((await section.innerText()).includes(operation.summary), `${operationId} shows its summary`);
  }
  const getPet = page.locator('[id$="operation/getPet"]').first();
  assert.match(await getPet.innerText(), /deprecated/i);
  await page.screenshot({ path: join(outputDir, 'docs.png') });
  await getPet.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(outputDir, 'docs-getPet.png') });

  const elsewhere = requests.filter((url) => !url.startsWith(server.origin) && !url.startsWith('blob:') && !url.startsWith('data:') && url !== expectedBlocked);
  assert.deepEqual(elsewhere, [], 'the page loads nothing from another origin');
  assert.ok(requests.includes(`${server.origin}/openapi.json`), 'the page renders the served document');
  assert.deepEqual(problems, []);
  await page.close();
});

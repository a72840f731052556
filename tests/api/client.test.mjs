// A generated client is a test: openapi-typescript turns docs/openapi.json into types, tsc (with
// `strict`) type-checks and compiles tests/api/client/petstore-client.ts against them and
// openapi-fetch, and the program runs against the real binary. A document that generates types a
// user's code cannot compile against (a required `status`, a missing error code) fails here.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer } from './lib/server.mjs';
import { documentPath, repoRoot } from './lib/paths.mjs';

const run = promisify(execFile);
const here = join(repoRoot, 'tests/api');
const bin = (name) => join(here, 'node_modules', name);
const generated = join(here, 'client/generated/petstore.d.ts');

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

test('openapi-typescript generates the types, with NewPet.status optional', async () => {
  await run(process.execPath, [bin('openapi-typescript/bin/cli.js'), documentPath, '--redocly', 'client/redocly.yaml', '-o', generated], { cwd: here });
  const types = readFileSync(generated, 'utf8');
  const newPet = types.slice(types.indexOf('NewPet: {'), types.indexOf('};', types.indexOf('NewPet: {')));
  assert.match(newPet, /\bstatus\?: components\["schemas"\]\["NewPetStatus"\];/);
  assert.match(newPet, /\bname: string;/);
  assert.match(types, /@default available/, 'the default is still stated');
});

test('tsc --strict compiles the client program', async () => {
  try {
    await run(process.execPath, [bin('typescript/bin/tsc'), '-p', 'client/tsconfig.json'], { cwd: here });
  } catch (error) {
    assert.fail(`tsc:\n${error.stdout}${error.stderr}`);
  }
});

test('the compiled client creates, retries, pages by Link and handles errors as typed', async () => {
  const env = { ...process.env, PETSTORE_BASE_URL: `${server.origin}/v1`, PETSTORE_KEY: server.key };
  let result;
  try {
    result = await run(process.execPath, [join(here, 'client/.build/petstore-client.js')], { cwd: here, env, timeout: 60_000 });
  } catch (error) {
    assert.fail(`the client failed:\n${error.stdout}${error.stderr}`);
  }
  assert.match(result.stdout, /client: created 5, listed 5 in pages of 2, errors handled as typed/);
});

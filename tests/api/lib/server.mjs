// Starts the real petstore binary for a test file: memory storage (or LMDB in the test's own
// directory), any free port, API keys made
// with `petstore keys new` in a fresh directory (two that may write, one read-only). stop() sends SIGTERM and checks the clean exit.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './paths.mjs';

export const binary = process.env.PETSTORE_BINARY ?? join(repoRoot, 'build/asan/petstore');

function makeKey(keyFile, label, extra = []) {
  return execFileSync(binary, ['keys', 'new', '--api-keys', keyFile, '--label', label, ...extra], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

// startServer: resolves once the server prints its listening line, with its base URL and keys.
export async function startServer({ extraArgs = [], storage = 'memory' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-api-'));
  const keyFile = join(dir, 'api-keys');
  const keys = [makeKey(keyFile, 'first'), makeKey(keyFile, 'second'), makeKey(keyFile, 'reader', ['--read-only'])];
  const storageArgs = storage === 'lmdb' ? ['--storage', 'lmdb', '--data-dir', join(dir, 'data')] : ['--storage', 'memory'];
  const child = spawn(
    binary,
    ['serve', ...storageArgs, '--listen', '127.0.0.1:0', '--api-keys', keyFile, ...extraArgs],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  child.stdout.on('data', (chunk) => { stdout += chunk; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const origin = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in 30 s; stderr: ${stderr}`)), 30_000);
    child.stdout.on('data', () => {
      const match = /listening on (https?:\/\/[^/\s]+)\/v1/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`petstore exited with ${code} before listening; stderr: ${stderr}`));
    });
  });
  return {
    origin,
    key: keys[0],
    otherKey: keys[1],
    readOnlyKey: keys[2],
    stderr: () => stderr,
    // stdout: everything the server has written there so far (the listening line, then logs).
    stdout: () => stdout,
    // stop: SIGTERM, then the exit status; a server that crashed or hung fails the test file.
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const status = await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
      if (status.code !== 0) {
        throw new Error(`petstore exited with ${JSON.stringify(status)}; stderr: ${stderr}`);
      }
    },
  };
}

// A client as a user would write it: openapi-fetch over the types openapi-typescript generates
// from docs/openapi.json, compiled by tsc --strict. Against a running service it creates pets with
// Idempotency-Keys (and retries one), pages through every pet by following Link, and handles each
// error code through one exhaustive switch, so a code added to the document fails to compile here.
// Run by client.test.mjs with PETSTORE_BASE_URL (the server URL, ending in /v1) and PETSTORE_KEY.
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/petstore.js';

type Pet = components['schemas']['Pet'];
type ApiError = components['schemas']['Error'];

const baseUrl = process.env.PETSTORE_BASE_URL ?? 'http://127.0.0.1:8080/v1';
const key = process.env.PETSTORE_KEY ?? '';
const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(`expected: ${what}`);
}

// reaction: what this client does about each code. No default branch: `never` makes the switch
// exhaustive over the document's closed list.
function reaction(error: ApiError): string {
  switch (error.code) {
    case 'invalid_json':
    case 'validation_failed':
    case 'invalid_parameter':
    case 'unsupported_media_type':
    case 'payload_too_large':
    case 'request_header_fields_too_large':
      return 'fix the request';
    case 'unauthorized':
      return 'ask for a key';
    case 'forbidden':
      return 'ask for a key that may write';
    case 'not_found':
      return 'no such pet';
    case 'method_not_allowed':
    case 'not_implemented':
      return 'not offered';
    case 'idempotency_key_reused':
      return 'new key';
    case 'too_many_requests':
    case 'internal_error':
    case 'unavailable':
      return 'retry later';
    default: {
      const unknown: never = error.code;
      return `unknown code ${String(unknown)}`;
    }
  }
}

// nextPage: the target of a `Link: <...>; rel="next"` header, or undefined on the last page.
function nextPage(link: string | null): URL | undefined {
  const match = link === null ? null : /^<([^>]+)>; rel="next"$/.exec(link);
  return match?.[1] === undefined ? undefined : new URL(match[1], baseUrl);
}

async function createWithRetry(): Promise<Pet[]> {
  const run = Date.now().toString(36);
  const created: Pet[] = [];
  for (const [index, name] of ['Rex', 'Tom', 'Kit', 'Bo', 'Ada'].entries()) {
    // The document's minimal body: status may be left out (it defaults to available).
    const { data, response } = await client.POST('/pets', {
      params: { header: { 'Idempotency-Key': `client-${run}-${index}` } },
      body: index % 2 === 0 ? { name, categoryId: index } : { name, categoryId: index, status: 'pending' },
    });
    expect(response.status === 201 && data !== undefined, `201 for ${name}`);
    if (data) created.push(data);
  }
  // A retry of the first create (its answer lost, say): the same key and body give the same pet.
  const { data: again } = await client.POST('/pets', {
    params: { header: { 'Idempotency-Key': `client-${run}-0` } },
    body: { name: 'Rex', categoryId: 0 },
  });
  expect(again?.id === created[0]?.id, 'the retry answers the first pet');
  const { error: reused } = await client.POST('/pets', {
    params: { header: { 'Idempotency-Key': `client-${run}-0` } },
    body: { name: 'Other', categoryId: 0 },
  });
  expect(reused !== undefined && reaction(reused) === 'new key', 'the key with another body is refused');
  return created;
}

async function everyPet(status?: Pet['status']): Promise<Pet[]> {
  const pets: Pet[] = [];
  let page = await client.GET('/pets', { params: { query: { limit: 2, status } } });
  for (;;) {
    if (page.data === undefined) throw new Error(`listPets: ${page.error?.code ?? page.response.status}`);
    pets.push(...page.data);
    const next = nextPage(page.response.headers.get('Link'));
    if (!next) return pets;
    // Follow the link as sent: its query verbatim, on the typed operation of its path.
    expect(next.pathname === `${new URL(baseUrl).pathname}/pets`, `Link targets listPets: ${next.href}`);
    page = await client.GET('/pets', { querySerializer: () => next.search.slice(1) });
  }
}

async function errors(): Promise<void> {
  const anonymous = createClient<paths>({ baseUrl });
  const cases: [string, Promise<{ error?: ApiError; response: Response }>, string, string][] = [
    ['listPets limit=0', client.GET('/pets', { params: { query: { limit: 0 } } }), 'invalid_parameter', 'fix the request'],
    ['getPet 999999', client.GET('/pets/{petId}', { params: { path: { petId: 999999 } } }), 'not_found', 'no such pet'],
    ['listOrders', client.GET('/store/orders'), 'not_implemented', 'not offered'],
    ['no key', anonymous.GET('/pets'), 'unauthorized', 'ask for a key'],
    // Bodies the types forbid, sent on purpose through a cast.
    ['no categoryId', client.POST('/pets', { body: { name: 'Rex' } as unknown as components['schemas']['NewPet'] }), 'validation_failed', 'fix the request'],
    ['not JSON', client.POST('/pets', { body: { name: 'Rex', categoryId: 1 }, bodySerializer: () => '{' }), 'invalid_json', 'fix the request'],
  ];
  for (const [label, call, code, expected] of cases) {
    const { error, response } = await call;
    expect(error?.code === code && error.status === response.status, `${label}: ${code}, got ${JSON.stringify(error)}`);
    expect(error !== undefined && reaction(error) === expected, `${label}: ${expected}`);
  }
}

const created = await createWithRetry();
const all = await everyPet();
expect(all.length >= created.length, 'every pet listed');
expect(all.every((pet, i) => i === 0 || (all[i - 1]?.id ?? 0) < pet.id), 'ascending ids');
for (const pet of created) expect(all.some((p) => p.id === pet.id && p.name === pet.name), `pet ${pet.id} listed`);
const pending = await everyPet('pending');
expect(pending.length === 2 && pending.every((pet) => pet.status === 'pending'), 'the filter kept in Link');
await errors();
console.log(`client: created ${created.length}, listed ${all.length} in pages of 2, errors handled as typed`);

// Property-based API test: fast-check generates valid and invalid bodies, parameters and headers,
// and the document is the oracle. Whatever Ajv says of a request against the document decides the
// expected answer: schema-valid requests succeed; invalid ones get a documented 4xx with an Error
// body. No request ever gets a 5xx (501 on listOrders is documented and not generated here). Every
// answer is also validated against the document. Each property is bounded in runs and in time.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startServer } from './lib/server.mjs';
import { header, send, transport } from './lib/http.mjs';
import { check, doc, operations, pointer, resolve, schemaErrors } from './lib/openapi.mjs';

const runs = Number(process.env.PETSTORE_PROPERTY_RUNS ?? 2500);
const options = { numRuns: runs, interruptAfterTimeLimit: 8_000, markInterruptAsFailure: false };

let server;
before(async () => { server = await startServer(); });
after(async () => { await server?.stop(); });

const auth = () => ({ Authorization: `Bearer ${server.key}` });

// expectConforming: the answer is no 5xx, has the expected status, and conforms to the document.
async function expectConforming(operationId, request, expectedStatus) {
  const response = await send(server.origin, request);
  assert.ok(response.status < 500, `${request.method ?? 'GET'} ${request.path} -> ${response.status} ${response.text}`);
  assert.equal(response.status, expectedStatus, `${request.method ?? 'GET'} ${request.path} ${request.body ?? ''} -> ${response.text}`);
  assert.deepEqual(check(operationId, response), []);
  return response;
}

const parameters = (operationId) =>
  Object.fromEntries(operations.get(operationId).operation.parameters.map((p, i) => {
    const { object, at } = resolve(p, pointer('paths', operations.get(operationId).path, operations.get(operationId).method, 'parameters', i));
    return [object.name, { ...object, schemaAt: `${at}/schema` }];
  }));

// valueOf: a parameter's text as the document's schema sees it: integers are decimal text.
function valueOf(text, schema) {
  const resolved = resolve(schema).object;
  if (resolved.type === 'integer') {
    if (!/^-?[0-9]+$/.test(text)) return { invalid: true };
    const big = BigInt(text);
    if (big > 2n ** 63n - 1n || big < -(2n ** 63n)) return { invalid: true };
    return { value: Number(big) };
  }
  return { value: text };
}

const isValid = (schemaAt, value) => schemaErrors(schemaAt, value).length === 0;

// Generators for JSON member values: valid NewPet values and everything a client gets wrong.
const whiteSpace = [' ', '\t', '\u00a0', '\u0085', '\u1680', '\u2000', '\u2007', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000'];
// `undefined` members are left out by JSON.stringify: that is how a member goes missing.
const nameValue = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 195, maxLength: 205 }) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...whiteSpace), { minLength: 1, maxLength: 4 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 4 }), fc.constantFrom('\u0000', '\u0007', '\u001f', '\u007f', '\n'), fc.string({ maxLength: 4 })).map((t) => t.join('')) },
  { weight: 1, arbitrary: fc.constantFrom('', '\u200b', '\ufeff', '\u0080', 'Rex') },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.array(fc.string(), { maxLength: 2 })) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
const categoryValue = fc.oneof(
  { weight: 4, arbitrary: fc.maxSafeInteger() },
  { weight: 4, arbitrary: fc.integer({ min: -1000, max: 1000 }) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)) },
  { weight: 1, arbitrary: fc.oneof(fc.integer().map(String), fc.constant(null), fc.boolean(), fc.constant({})) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
const statusValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...resolve({ $ref: '#/components/schemas/PetStatus' }).object.enum) },
  { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 10 }), fc.constant(null), fc.integer()) },
  { weight: 4, arbitrary: fc.constant(undefined) },
);
const extraMember = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('id', 'tag', 'Name', 'category_id', ''), fc.jsonValue({ maxDepth: 1 })) },
);
const newPetLike = fc.record({ name: nameValue, categoryId: categoryValue, status: statusValue, extra: extraMember })
  .map(({ extra, ...members }) => (extra ? { ...members, [extra[0]]: extra[1] } : members));

describe('createPet', () => {
  const newPetAt = pointer('components', 'schemas', 'NewPet');

  test('a body is accepted exactly when it is a valid NewPet; then getPet reads it back', async () => {
    await fc.assert(fc.asyncProperty(newPetLike, async (members) => {
      const body = JSON.stringify(members);
      const sent = JSON.parse(body);
      const valid = isValid(newPetAt, sent);
      const response = await expectConforming('createPet', { method: 'POST', path: '/v1/pets', headers: { ...auth(), 'Content-Type': 'application/json' }, body }, valid ? 201 : 400);
      if (!valid) {
        assert.equal(response.json.code, 'validation_failed');
        return;
      }
      assert.deepEqual(response.json, { status: 'available', ...sent, id: response.json.id });
      const read = await expectConforming('getPet', { path: header(response, 'location'), headers: auth() }, 200);
      assert.deepEqual(read.json, response.json);
    }), options);
  });

  test('any text, with any media type, gets a documented answer and never a 5xx', async () => {
    const text = fc.oneof(fc.json(), fc.string({ unit: 'binary', maxLength: 40 }), newPetLike.map((m) => JSON.stringify(m)), fc.jsonValue().map((v) => JSON.stringify(v)));
    const mediaType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/xml', 'application/json; charset=iso-8859-1', undefined);
    await fc.assert(fc.asyncProperty(text, mediaType, async (body, contentType) => {
      const headers = contentType ? { ...auth(), 'Content-Type': contentType } : auth();
      const response = await send(server.origin, { method: 'POST', path: '/v1/pets', headers, body });
      assert.ok([201, 400, 415].includes(response.status), `${response.status} ${response.text}`);
      assert.deepEqual(check('createPet', response), []);
      const jsonMediaType = contentType !== undefined && /^application\/json(; charset=utf-8)?$/i.test(contentType);
      if (!jsonMediaType) return assert.equal(response.status, 415);
      let parsed;
      try { parsed = JSON.parse(body); } catch { return assert.equal(response.json.code, 'invalid_json'); }
      assert.equal(response.status, isValid(newPetAt, parsed) ? 201 : 400, `${body} -> ${response.text}`);
    }), options);
  });

  test('Idempotency-Key: a valid key creates once and replays; an invalid one is 400', async () => {
    const keyAt = parameters('createPet')['Idempotency-Key'].schemaAt;
    const used = new Map();
    const headerText = fc.oneof(
      fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 20 }),
      fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 250, maxLength: 260 }),
      fc.tuple(fc.string({ minLength: 1, maxLength: 5 }), fc.constantFrom(' ', '\t', '\u00e9', '\u00ff'), fc.string({ minLength: 1, maxLength: 5 })).map((t) => t.join('')),
      fc.constant(''),
    ).filter((v) => !/[\r\n\0]/.test(v) && !/[^\t\x20-\x7e\x80-\xff]/.test(v));
    await fc.assert(fc.asyncProperty(headerText, fc.constantFrom('A', 'B'), async (key, name) => {
      const body = JSON.stringify({ name, categoryId: 1 });
      // HTTP/1.1 drops white space around a field value, so the server sees the trimmed key;
      // HTTP/2 forbids it (RFC 9113 section 8.2.1), and such a request is refused.
      const seen = key.replace(/^[ \t]+|[ \t]+$/g, '');
      const valid = isValid(keyAt, seen) && (transport === 'http1' || seen === key);
      const expected = !valid ? 400 : (!used.has(seen) || used.get(seen).body === body ? 201 : 422);
      const response = await expectConforming('createPet', { method: 'POST', path: '/v1/pets', headers: { ...auth(), 'Content-Type': 'application/json', 'Idempotency-Key': key }, body }, expected);
      if (expected === 201 && used.has(seen)) assert.deepEqual(response.json, used.get(seen).pet);
      if (expected === 201 && !used.has(seen)) used.set(seen, { body, pet: response.json });
      if (expected === 400) assert.equal(response.json.code, 'invalid_parameter');
    }), options);
  });
});

describe('listPets', () => {
  test('parameters valid against the document list pets; invalid ones are 400 invalid_parameter', async () => {
    for (const [name, status] of [['a', 'available'], ['b', 'pending'], ['c', 'sold'], ['d', 'available'], ['e', 'sold']]) {
      await send(server.origin, { method: 'POST', path: '/v1/pets', headers: { ...auth(), 'Content-Type': 'application/json' }, body: JSON.stringify({ name, categoryId: 2, status }) });
    }
    const declared = parameters('listPets');
    const integerText = fc.oneof(fc.integer({ min: -3, max: 130 }).map(String), fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String), fc.constantFrom('', '+5', '5.0', '1e2', ' 5', '007', 'abc', '-0'));
    const generated = {
      limit: integerText,
      after: integerText,
      status: fc.oneof(fc.constantFrom(...resolve(declared.status.schema).object.enum), fc.string({ maxLength: 8 })),
    };
    const query = fc.record({ ...generated, unknown: fc.string({ maxLength: 5 }) }, { requiredKeys: [] });
    await fc.assert(fc.asyncProperty(query, async (params) => {
      const text = new URLSearchParams(params).toString();
      let valid = true;
      const values = {};
      for (const [name, raw] of Object.entries(params)) {
        if (!declared[name]) continue;
        const { invalid, value } = valueOf(raw, declared[name].schema);
        valid &&= !invalid && isValid(declared[name].schemaAt, value);
        values[name] = value;
      }
      const response = await expectConforming('listPets', { path: `/v1/pets?${text}`, headers: auth() }, valid ? 200 : 400);
      if (!valid) return assert.equal(response.json.code, 'invalid_parameter');
      const limit = values.limit ?? resolve(declared.limit.schema).object.default;
      assert.ok(response.json.length <= limit);
      response.json.forEach((pet, i) => {
        if (i > 0) assert.ok(pet.id > response.json[i - 1].id, 'ascending ids');
        if (values.after !== undefined) assert.ok(pet.id > values.after);
        if (values.status !== undefined) assert.equal(pet.status, values.status);
      });
    }), options);
  });
});

describe('getPet', () => {
  test('an int64 petId is 200 or 404; anything else is 400 invalid_parameter', async () => {
    const created = await send(server.origin, { method: 'POST', path: '/v1/pets', headers: { ...auth(), 'Content-Type': 'application/json' }, body: '{"name":"x","categoryId":1}' });
    const highest = created.json.id;
    const petIdAt = parameters('getPet').petId.schemaAt;
    const petId = fc.oneof(
      fc.integer({ min: -2, max: highest + 2 }).map(String),
      fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
    ).filter((id) => id !== '.' && id !== '..');
    await fc.assert(fc.asyncProperty(petId, async (id) => {
      const { invalid, value } = valueOf(id, { type: 'integer' });
      const valid = !invalid && isValid(petIdAt, value);
      const exists = valid && value >= 1 && value <= highest;
      const response = await expectConforming('getPet', { path: `/v1/pets/${encodeURIComponent(id)}`, headers: auth() }, !valid ? 400 : exists ? 200 : 404);
      if (exists) assert.equal(response.json.id, value);
    }), options);
  });
});

test('any method on any path: never a 5xx, always a documented status and an Error body for an error', async () => {
  // Statuses the document gives anywhere, 404 for unknown paths and 405 (x-method-not-allowed), and
  // the 200 of the operational paths outside /v1. Failed authentications here soon meet the
  // default throttle, so 429 is among the answers.
  const answerable = new Set([200, 404, 405]);
  for (const { operation } of operations.values()) for (const status of Object.keys(operation.responses)) answerable.add(Number(status));
  const segment = fc.oneof(fc.constantFrom('v1', 'pets', 'store', 'orders', '1', '', 'docs', 'healthz'), fc.string({ unit: 'grapheme-ascii', maxLength: 4 }).map(encodeURIComponent));
  const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`);
  const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS');
  await fc.assert(fc.asyncProperty(method, path, fc.boolean(), async (verb, target, withKey) => {
    const response = await send(server.origin, { method: verb, path: target, headers: withKey ? auth() : {}, body: verb === 'GET' ? undefined : '{"name":"p","categoryId":1}' });
    assert.ok(response.status < 500 || (response.status === 501 && target === '/v1/store/orders'), `${verb} ${target} -> ${response.status}`);
    assert.ok(answerable.has(response.status), `${verb} ${target} -> ${response.status}, documented nowhere`);
    if (response.status === 429) assert.match(header(response, 'retry-after') ?? '', /^[1-9][0-9]*$/);
    if (response.status >= 400) {
      assert.deepEqual(schemaErrors(pointer('components', 'schemas', 'Error'), response.json), [], `${verb} ${target} -> ${response.text}`);
      assert.equal(response.json.status, response.status);
    }
  }), options);
});

test('the generators reach both sides of every oracle', () => {
  // A property whose generator only ever produced valid (or only invalid) input would prove little.
  const samples = fc.sample(newPetLike, 500).map((m) => isValid(pointer('components', 'schemas', 'NewPet'), JSON.parse(JSON.stringify(m))));
  assert.ok(samples.filter(Boolean).length >= 25, 'too few valid NewPet bodies');
  assert.ok(samples.filter((v) => !v).length >= 25, 'too few invalid NewPet bodies');
  assert.ok(doc.components.schemas.NewPet.additionalProperties === false);
});

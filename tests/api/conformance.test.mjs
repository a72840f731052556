// Conformance: every operation of docs/openapi.json is driven through every response the document
// gives it, against the real binary, and each answer (status, headers, body) is validated against
// the document with Ajv. The last test fails when a documented response was never exercised, so
// the document and the service cannot drift apart unnoticed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer } from './lib/server.mjs';
import { header, send, transport } from './lib/http.mjs';
import {
  allowOf, check, covered, doc, documentedResponses, documentText, pointer, resolve, schemaErrors,
} from './lib/openapi.mjs';

let server;
// Failed authentications are throttled per address (60 a minute by default): this server allows
// enough for every 401 case here; the 429 cases run against a server of their own.
before(async () => { server = await startServer({ extraArgs: ['--auth-failures-per-minute', '1000000'] }); });
after(async () => { await server?.stop(); });

const auth = (key = server.key) => ({ Authorization: `Bearer ${key}` });
const json = { 'Content-Type': 'application/json' };

// call: sends the request, asserts the expected status and that the answer conforms to the
// document for `operationId`, and returns the response.
async function call(operationId, expectedStatus, request) {
  const response = await send(server.origin, request);
  assert.equal(response.status, expectedStatus, `${request.method ?? 'GET'} ${request.path}: ${response.text}`);
  assert.deepEqual(check(operationId, response), [], `${operationId} ${response.status} does not conform`);
  return response;
}

const createPet = (body, headers = {}) =>
  call('createPet', 201, { method: 'POST', path: '/v1/pets', headers: { ...auth(), ...json, ...headers }, body: JSON.stringify(body) });

describe('the document', () => {
  test('its examples satisfy its own schemas (Ajv, besides the linter)', () => {
    const problems = [];
    const visit = (node, at) => {
      if (!node || typeof node !== 'object') return;
      if (node.schema && node.examples && !Array.isArray(node.examples)) {
        for (const [name, example] of Object.entries(node.examples)) {
          for (const error of schemaErrors(`${at}/schema`, resolve(example).object.value)) problems.push(`${at} ${name}: ${error}`);
        }
      }
      if (node.schema && 'example' in node) {
        for (const error of schemaErrors(`${at}/schema`, node.example)) problems.push(`${at}: ${error}`);
      }
      for (const [key, value] of Object.entries(node)) visit(value, `${at}/${encodeURIComponent(key.replaceAll('~', '~0').replaceAll('/', '~1'))}`);
    };
    visit(doc, '#');
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      for (const example of schema.examples ?? []) {
        for (const error of schemaErrors(pointer('components', 'schemas', name), example)) problems.push(`${name}: ${error}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  test('NewPet and Pet describe name, categoryId and status alike', () => {
    const { NewPet, Pet } = doc.components.schemas;
    const { description: ignored, ...petName } = Pet.properties.name;
    const { description: ignoredToo, ...newPetName } = NewPet.properties.name;
    assert.deepEqual(petName, newPetName);
    assert.equal(Pet.properties.categoryId.format, NewPet.properties.categoryId.format);
    assert.equal(Pet.properties.status.$ref, doc.components.schemas.NewPetStatus.$ref);
  });

  // Proxies and HTTP/2 drop hop-by-hop headers (RFC 9110 section 7.6.1), so no response may need one.
  test('requires no hop-by-hop header in any response', () => {
    const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
    const found = [];
    const visit = (node, at) => {
      if (!node || typeof node !== 'object') return;
      for (const name of Object.keys(node.headers ?? {})) if (hopByHop.has(name.toLowerCase())) found.push(`${at} ${name}`);
      for (const [key, value] of Object.entries(node)) visit(value, `${at}/${key}`);
    };
    visit(doc, '#');
    assert.deepEqual(found, []);
  });

  test('every int64 warns JavaScript clients of values beyond 2^53', () => {
    const { schemas, parameters } = doc.components;
    const described = {
      'Pet.id': schemas.Pet.properties.id, 'Pet.categoryId': schemas.Pet.properties.categoryId,
      'NewPet.categoryId': schemas.NewPet.properties.categoryId, after: parameters.After, petId: parameters.PetId,
    };
    for (const [name, node] of Object.entries(described)) {
      assert.equal((node.schema ?? node).format, 'int64', name);
      assert.match(node.description, /beyond 2\^53 .* big-integer JSON reader/, name);
    }
  });

  test('the first server is an absolute URL ending in /v1; Link says its format and example', () => {
    assert.match(doc.servers[0].url, /^http:\/\/127\.0\.0\.1:8080\/v1$/);
    const link = doc.components.headers.NextPageLink;
    assert.match(link.description, /<TARGET>; rel="next"/);
    assert.match(link.description, new RegExp(link.example.replace(/[?]/g, '\\?')));
  });

  test('is served at /openapi.json byte for byte, without a key', async () => {
    const response = await send(server.origin, { path: '/openapi.json' });
    assert.equal(response.status, 200);
    assert.equal(header(response, 'content-type'), 'application/json');
    assert.ok(response.text === documentText, 'the served document differs from docs/openapi.json: rebuild the binary');
  });

  test('/docs is an HTML page that loads only the embedded renderer and the document', async () => {
    const page = await send(server.origin, { path: '/docs' });
    assert.equal(page.status, 200);
    assert.equal(header(page, 'content-type'), 'text/html; charset=utf-8');
    assert.match(header(page, 'content-security-policy'), /default-src 'none'; script-src 'self'/);
    assert.match(page.text, /<redoc spec-url="openapi.json">/);
    const script = await send(server.origin, { path: '/docs/redoc.standalone.js' });
    assert.equal(script.status, 200);
    assert.equal(header(script, 'content-type'), 'text/javascript; charset=utf-8');
    assert.equal(header(script, 'x-content-type-options'), 'nosniff');
    assert.ok(script.text.length > 100_000);
    const post = await send(server.origin, { method: 'POST', path: '/docs', headers: json, body: '{}' });
    assert.equal(post.status, 405);
    assert.equal(header(post, 'allow'), 'GET, HEAD');
  });
});

describe('listPets', () => {
  test('200: an empty catalogue is an empty array without Link', async () => {
    const response = await call('listPets', 200, { path: '/v1/pets', headers: auth() });
    assert.deepEqual(response.json, []);
    assert.equal(header(response, 'link'), undefined);
  });

  test('200: pages in ascending id, Link to the next page, none on the last', async () => {
    const created = [];
    for (const [name, status] of [['Rex', 'available'], ['Tom', 'sold'], ['Kit', 'available'], ['Bo', 'available']]) {
      created.push((await createPet({ name, categoryId: 7, status })).json);
    }
    const first = await call('listPets', 200, { path: '/v1/pets?limit=2', headers: auth() });
    assert.deepEqual(first.json, created.slice(0, 2));
    assert.equal(header(first, 'link'), `</v1/pets?limit=2&after=${created[1].id}>; rel="next"`);
    const next = header(first, 'link').slice(1, header(first, 'link').indexOf('>'));
    const second = await call('listPets', 200, { path: next, headers: auth() });
    assert.deepEqual(second.json, created.slice(2, 4));
    assert.equal(header(second, 'link'), undefined);

    const filtered = await call('listPets', 200, { path: '/v1/pets?status=available&limit=1', headers: auth() });
    assert.deepEqual(filtered.json, [created[0]]);
    assert.equal(header(filtered, 'link'), `</v1/pets?limit=1&after=${created[0].id}&status=available>; rel="next"`);
    const defaults = await call('listPets', 200, { path: '/v1/pets?unknown=ignored', headers: auth() });
    assert.equal(defaults.json.length, 4);
  });

  for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=', 'limit', 'limit=%2B5', 'limit=1&limit=2',
    'status=lost', 'status=', 'after=x', 'after=1.5', 'after=9223372036854775808']) {
    test(`400 invalid_parameter: ${query}`, async () => {
      const response = await call('listPets', 400, { path: `/v1/pets?${query}`, headers: auth() });
      assert.match(response.json.message, new RegExp(query.split('=')[0]));
    });
  }

  unauthorizedCases('listPets', { path: '/v1/pets' });
  headersTooLarge('listPets', { path: '/v1/pets' });
});

describe('createPet', () => {
  test('201: the pet with its id and Location; status defaults to available', async () => {
    const response = await createPet({ name: 'Rex', categoryId: 7 });
    assert.equal(header(response, 'location'), `/v1/pets/${response.json.id}`);
    assert.deepEqual(response.json, { id: response.json.id, name: 'Rex', categoryId: 7, status: 'available' });
  });

  test('201: names and category ids at their limits come back exactly', async () => {
    const name = '\u{1F408}'.repeat(200);
    const body = `{"name":${JSON.stringify(name)},"categoryId":-9223372036854775808,"status":"pending"}`;
    const response = await call('createPet', 201, { method: 'POST', path: '/v1/pets', headers: { ...auth(), 'Content-Type': 'application/json; charset=UTF-8' }, body });
    assert.equal(response.json.name, name);
    assert.match(response.text, /"categoryId":-9223372036854775808[,}]/);
    const big = await call('createPet', 201, { method: 'POST', path: '/v1/pets', headers: { ...auth(), ...json }, body: '{"categoryId":9223372036854775807,"name":" a\u00a0"}' });
    assert.match(big.text, /"categoryId":9223372036854775807[,}]/);
    assert.equal(big.json.name, ' a\u00a0');
  });

  test('201: a repeated Idempotency-Key with the same body answers the first pet again', async () => {
    const first = await createPet({ name: 'Once', categoryId: 1 }, { 'Idempotency-Key': 'conformance-1' });
    const again = await createPet({ categoryId: 1, name: 'Once', status: 'available' }, { 'Idempotency-Key': 'conformance-1' });
    assert.deepEqual(again.json, first.json);
    assert.equal(header(again, 'location'), header(first, 'location'));
    const otherKey = await call('createPet', 201, {
      method: 'POST', path: '/v1/pets', headers: { ...auth(server.otherKey), ...json, 'Idempotency-Key': 'conformance-1' }, body: '{"name":"Once","categoryId":1}',
    });
    assert.notEqual(otherKey.json.id, first.json.id, 'keys are scoped to the API key');
  });

  test('422 idempotency_key_reused: the same key with another body', async () => {
    await createPet({ name: 'First', categoryId: 1 }, { 'Idempotency-Key': 'conformance-2' });
    await call('createPet', 422, {
      method: 'POST', path: '/v1/pets', headers: { ...auth(), ...json, 'Idempotency-Key': 'conformance-2' }, body: '{"name":"Second","categoryId":1}',
    });
  });

  const invalid = {
    invalid_json: ['', 'not json', '[]', '"Rex"', 'null', '{"name":"Rex","categoryId":7', '{"name":"a","name":"b","categoryId":1}',
      '{"name":"Rex","categoryId":7} {}', '{"name":"\\ud800","categoryId":1}', `${'['.repeat(40)}${']'.repeat(40)}`],
    validation_failed: ['{}', '{"categoryId":7}', '{"name":"Rex"}', '{"id":1,"name":"Rex","categoryId":7}', '{"name":"Rex","categoryId":7,"colour":"red"}',
      '{"name":"","categoryId":7}', '{"name":"\\u3000 \\u00a0","categoryId":7}', '{"name":"a\\u0007","categoryId":7}', `{"name":"${'x'.repeat(201)}","categoryId":7}`,
      '{"name":7,"categoryId":7}', '{"name":"Rex","categoryId":7.5}', '{"name":"Rex","categoryId":7.0}', '{"name":"Rex","categoryId":7e0}',
      '{"name":"Rex","categoryId":"7"}', '{"name":"Rex","categoryId":9223372036854775808}', '{"name":"Rex","categoryId":7,"status":"lost"}',
      '{"name":"Rex","categoryId":7,"status":null}'],
  };
  for (const [code, bodies] of Object.entries(invalid)) {
    for (const body of bodies) {
      test(`400 ${code}: ${body.slice(0, 60)}`, async () => {
        const response = await call('createPet', 400, { method: 'POST', path: '/v1/pets', headers: { ...auth(), ...json }, body });
        assert.equal(response.json.code, code, response.json.message);
      });
    }
  }

  for (const [label, headers] of [['empty', { 'Idempotency-Key': '' }], ['256 characters', { 'Idempotency-Key': 'k'.repeat(256) }], ['a space', { 'Idempotency-Key': 'a b' }],
    ['non-ASCII', { 'Idempotency-Key': 'caf\u00e9' }], ['sent twice', { 'Idempotency-Key': ['a', 'b'] }]]) {
    test(`400 invalid_parameter: Idempotency-Key ${label}`, async () => {
      const response = await call('createPet', 400, { method: 'POST', path: '/v1/pets', headers: { ...auth(), ...json, ...headers }, body: '{"name":"Rex","categoryId":7}' });
      assert.equal(response.json.code, 'invalid_parameter');
      assert.match(response.json.message, /Idempotency-Key/);
    });
  }

  for (const contentType of [undefined, 'text/plain', 'application/json; charset=latin1', 'application/jsonx', 'application/x-www-form-urlencoded']) {
    test(`415 unsupported_media_type: Content-Type ${contentType}`, async () => {
      const headers = contentType === undefined ? auth() : { ...auth(), 'Content-Type': contentType };
      await call('createPet', 415, { method: 'POST', path: '/v1/pets', headers, body: '{"name":"Rex","categoryId":7}' });
    });
  }

  test('413 payload_too_large: a body over 64 KiB, answered without a key too', async () => {
    const body = JSON.stringify({ name: 'Rex', categoryId: 7, pad: 'x'.repeat(70_000) });
    await call('createPet', 413, { method: 'POST', path: '/v1/pets', headers: { ...auth(), ...json }, body, fresh: true });
    await call('createPet', 413, { method: 'POST', path: '/v1/pets', headers: json, body, fresh: true });
  });

  test('403 forbidden: a read-only key, whatever the body; it still lists', async () => {
    for (const body of ['{"name":"Rex","categoryId":7}', 'not json']) {
      const response = await call('createPet', 403, { method: 'POST', path: '/v1/pets', headers: { ...auth(server.readOnlyKey), ...json }, body });
      assert.match(response.json.message, /read-only/);
    }
    await call('listPets', 200, { path: '/v1/pets', headers: auth(server.readOnlyKey) });
  });

  unauthorizedCases('createPet', { method: 'POST', path: '/v1/pets', headers: json, body: '{"name":"Rex","categoryId":7}' });
  headersTooLarge('createPet', { method: 'POST', path: '/v1/pets', headers: json, body: '{"name":"Rex","categoryId":7}' });
});

describe('getPet (deprecated)', () => {
  test('200: the pet, with Deprecation, Sunset and the successor Link', async () => {
    const created = (await createPet({ name: 'Rex', categoryId: 7, status: 'sold' })).json;
    const response = await call('getPet', 200, { path: `/v1/pets/${created.id}`, headers: auth() });
    assert.deepEqual(response.json, created);
    const padded = await call('getPet', 200, { path: `/v1/pets/000${created.id}`, headers: auth() });
    assert.deepEqual(padded.json, created);
  });

  for (const id of ['999999', '-1', '0', '9223372036854775807', '-9223372036854775808']) {
    test(`404 not_found: ${id}, with the deprecation headers`, async () => {
      const response = await call('getPet', 404, { path: `/v1/pets/${id}`, headers: auth() });
      assert.equal(response.json.code, 'not_found');
    });
  }

  for (const id of ['abc', '1.5', '%2B1', '1e3', '9223372036854775808', '-', '%20']) {
    test(`400 invalid_parameter: ${id}`, async () => {
      const response = await call('getPet', 400, { path: `/v1/pets/${id}`, headers: auth() });
      assert.match(response.json.message, /petId/);
    });
  }

  unauthorizedCases('getPet', { path: '/v1/pets/1' });
  headersTooLarge('getPet', { path: '/v1/pets/1' });
});

describe('listOrders', () => {
  test('501 not_implemented, whatever the parameters', async () => {
    await call('listOrders', 501, { path: '/v1/store/orders', headers: auth() });
    await call('listOrders', 501, { path: '/v1/store/orders?limit=0&status=x', headers: auth() });
  });
  unauthorizedCases('listOrders', { path: '/v1/store/orders' });
  headersTooLarge('listOrders', { path: '/v1/store/orders' });
});

// The head operations (RFC 9110 section 9.3.2): each GET's statuses and headers, and no body,
// checked against their own entries in the document.
describe('HEAD operations', () => {
  const head = (path, headers = auth()) => ({ method: 'HEAD', path, headers });
  test('listPetsHead 200 and 400', async () => {
    await createPet({ name: 'Headed', categoryId: 1 });
    await createPet({ name: 'Headed too', categoryId: 1 });
    const page = await call('listPetsHead', 200, head('/v1/pets?limit=1'));
    assert.match(header(page, 'link'), /^<\/v1\/pets\?limit=1&after=\d+>; rel="next"$/);
    await call('listPetsHead', 400, head('/v1/pets?limit=0'));
  });
  test('getPetHead 200, 404 and 400, deprecated as getPet is', async () => {
    const created = (await createPet({ name: 'Rex', categoryId: 7 })).json;
    const found = await call('getPetHead', 200, head(`/v1/pets/${created.id}`));
    assert.equal(header(found, 'sunset'), 'Thu, 05 Dec 2030 00:00:00 GMT');
    await call('getPetHead', 404, head('/v1/pets/999999'));
    await call('getPetHead', 400, head('/v1/pets/abc'));
  });
  test('listOrdersHead 501', async () => {
    await call('listOrdersHead', 501, head('/v1/store/orders'));
  });
  for (const [operationId, path] of [['listPetsHead', '/v1/pets'], ['getPetHead', '/v1/pets/1'], ['listOrdersHead', '/v1/store/orders']]) {
    describe(operationId, () => {
      unauthorizedCases(operationId, { method: 'HEAD', path });
      headersTooLarge(operationId, { method: 'HEAD', path });
    });
  }
});

describe('429 too_many_requests with Retry-After', () => {
  let throttled;
  before(async () => { throttled = await startServer({ extraArgs: ['--auth-failures-per-minute', '1'] }); });
  after(async () => { await throttled?.stop(); });

  test('once an address has failed too often, every operation answers 429; accepted keys still work', async () => {
    const first = await send(throttled.origin, { path: '/v1/pets' });
    assert.equal(first.status, 401, 'the first failure is a plain 401');
    const requests = {
      listPets: { path: '/v1/pets' },
      createPet: { method: 'POST', path: '/v1/pets', headers: { ...json, Authorization: 'Bearer pst_unknown' }, body: '{"name":"Rex","categoryId":7}' },
      getPet: { path: '/v1/pets/1', headers: { Authorization: 'Basic dXNlcjpwYXNz' } },
      listOrders: { path: '/v1/store/orders', headers: { Authorization: 'Bearer' } },
      listPetsHead: { method: 'HEAD', path: '/v1/pets' },
      getPetHead: { method: 'HEAD', path: '/v1/pets/1', headers: { Authorization: 'Bearer pst_unknown' } },
      listOrdersHead: { method: 'HEAD', path: '/v1/store/orders' },
    };
    for (const [operationId, request] of Object.entries(requests)) {
      const response = await send(throttled.origin, request);
      assert.equal(response.status, 429, `${operationId}: ${response.text}`);
      assert.deepEqual(check(operationId, response), [], operationId);
      assert.ok(Number(header(response, 'retry-after')) >= 1);
    }
    const unknownPath = await send(throttled.origin, { path: '/v1/nothing' });
    assert.equal(unknownPath.status, 429);
    const accepted = await send(throttled.origin, { path: '/v1/pets', headers: { Authorization: `Bearer ${throttled.key}` } });
    assert.equal(accepted.status, 200);
  });
});

describe('405 method_not_allowed with Allow', () => {
  const samples = { '/pets': '/v1/pets', '/pets/{petId}': '/v1/pets/1', '/store/orders': '/v1/store/orders' };
  for (const [path, target] of Object.entries(samples)) {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS', ...(path === '/pets' ? [] : ['POST'])]) {
      test(`${method} ${target}`, async () => {
        const response = await send(server.origin, { method, path: target, headers: { ...auth(), ...json }, body: '{}' });
        assert.deepEqual(check(`405 ${path}`, response), []);
        assert.equal(header(response, 'allow'), allowOf(path));
      });
    }
  }
});

describe('outside the operations', () => {
  // docs/decisions/paths-by-decoded-segments.md: "/v1/pets/ (trailing slash) ... are 404 not_found
  // after authentication".
  test('/v1/pets/ with a key is 404 not_found', async () => {
    const response = await send(server.origin, { path: '/v1/pets/', headers: auth() });
    assert.equal(response.status, 404, response.text);
  });

  // The document's "HEAD" section (RFC 9110 sections 9.3.2 and 8.6): HEAD gets GET's status and
  // headers, Content-Length included, and not one byte of body. Over HTTP/1.1 it is read off a
  // raw socket (a client library would stop reading at the head); over HTTP/2 the response's
  // HEADERS frame ends the stream, and any DATA after it would show in the text.
  for (const [path, withKey] of [['/v1/pets?limit=1', true], ['/v1/pets/1', true], ['/v1/store/orders', true], ['/v1/pets', false], ['/healthz', false], ['/readyz', false], ['/openapi.json', false], ['/docs', false]]) {
    test(`HEAD ${path}${withKey ? '' : ' without a key'} answers as GET would, without a body`, async () => {
      const head = transport === 'http1' ? await rawHead(path, withKey) : await send(server.origin, { method: 'HEAD', path, headers: withKey ? auth() : {} });
      assert.equal(head.text, '', 'a body after the head');
      const get = await send(server.origin, { path, headers: withKey ? auth() : {} });
      assert.equal(head.status, get.status);
      assert.equal(header(head, 'content-length'), String(Buffer.byteLength(get.text)));
      for (const name of ['content-type', 'cache-control', 'link', 'www-authenticate', 'deprecation', 'etag']) {
        assert.equal(header(head, name), header(get, name), name);
      }
    });
  }

  test('an unknown path under /v1 is 401 without a key and 404 not_found with one', async () => {
    for (const path of ['/v1/nothing', '/v1', '/v1//pets', '/v1/pets/1/x']) {
      const anonymous = await send(server.origin, { path });
      assert.equal(anonymous.status, 401, path);
      assert.deepEqual(schemaErrors(pointer('components', 'responses', 'Unauthorized', 'content', 'application/json', 'schema'), anonymous.json), []);
      const known = await send(server.origin, { path, headers: auth() });
      assert.equal(known.status, 404, path);
      assert.deepEqual(schemaErrors(pointer('components', 'schemas', 'Error'), known.json), []);
      assert.equal(known.json.code, 'not_found');
      assert.equal(header(known, 'cache-control'), 'no-store');
    }
  });
});

test('every documented response was exercised and conformed', () => {
  const missing = documentedResponses().filter((response) => !covered.has(response));
  assert.deepEqual(missing, []);
});

// unauthorizedCases: the 401 variants of RFC 6750 for one operation.
function unauthorizedCases(operationId, request) {
  const variants = [
    ['no Authorization', {}, 'Bearer realm="petstore"'],
    ['another scheme', { Authorization: 'Basic dXNlcjpwYXNz' }, 'Bearer realm="petstore"'],
    ['an unknown key', { Authorization: 'Bearer pst_unknown' }, 'Bearer realm="petstore", error="invalid_token"'],
    ['a malformed key', { Authorization: 'Bearer a,b' }, 'Bearer realm="petstore", error="invalid_token"'],
    ['an empty bearer', { Authorization: 'Bearer' }, 'Bearer realm="petstore", error="invalid_token"'],
  ];
  for (const [label, headers, challenge] of variants) {
    test(`401 unauthorized: ${label}`, async () => {
      const response = await call(operationId, 401, { ...request, headers: { ...request.headers, ...headers } });
      assert.equal(header(response, 'www-authenticate'), challenge);
    });
  }
  test('a lower-case scheme followed by several spaces is accepted', async () => {
    const response = await send(server.origin, { ...request, headers: { ...request.headers, Authorization: `bearer   ${server.key}` } });
    assert.notEqual(response.status, 401);
  });
}

// headersTooLarge: 431 for request headers over 16 KiB, with or without a key.
function headersTooLarge(operationId, request) {
  test('431 request_header_fields_too_large', async () => {
    await call(operationId, 431, { ...request, headers: { ...request.headers, ...auth(), 'X-Padding': 'p'.repeat(17_000) }, fresh: true });
    await call(operationId, 431, { ...request, headers: { ...request.headers, 'X-Padding': 'p'.repeat(17_000) }, fresh: true });
  });
}

// rawHead: HEAD over a raw HTTP/1.1 socket, as send's answer (status, headers, text after the head).
async function rawHead(path, withKey) {
  const key = withKey ? `Authorization: Bearer ${server.key}\r\n` : '';
  const url = new URL(server.origin);
  const raw = await new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.end(`HEAD ${path} HTTP/1.1\r\nHost: ${url.host}\r\n${key}Connection: close\r\n\r\n`);
    });
    const chunks = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
  const headers = new Map(raw.slice(raw.indexOf('\r\n') + 2, raw.indexOf('\r\n\r\n')).split('\r\n').map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).toLowerCase(), [line.slice(colon + 1).trim()]];
  }));
  return { status: Number(raw.slice(9, 12)), headers, text: raw.slice(raw.indexOf('\r\n\r\n') + 4) };
}

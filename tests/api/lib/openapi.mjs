// The API document as a validator. Responses are checked against docs/openapi.json with Ajv
// (JSON Schema 2020-12, the dialect of OpenAPI 3.1) and ajv-formats: the status must be documented
// for the operation, every documented header present when required and valid, no undocumented
// API header sent, and the body of the documented media type valid against its schema. Each
// (operation, status) checked is recorded, so a test can prove it covered every documented one.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { documentPath } from './paths.mjs';

export const documentText = readFileSync(documentPath, 'utf8');
export const doc = JSON.parse(documentText);

const documentId = 'https://petstore.test/openapi.json';
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
// The document's top-level members are not JSON Schema keywords; Ajv only walks through them.
ajv.addVocabulary(['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components']);
ajv.addSchema({ ...doc, $id: documentId });

// Headers that carry API meaning: a response may send one only where the document names it.
const apiHeaders = ['x-request-id', 'location', 'link', 'deprecation', 'sunset', 'www-authenticate', 'allow', 'retry-after'];
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const escapeSegment = (segment) => encodeURIComponent(String(segment).replaceAll('~', '~0').replaceAll('/', '~1'));
export const pointer = (...segments) => `#/${segments.map(escapeSegment).join('/')}`;

const validators = new Map();
// validatorAt: the compiled schema found at a JSON pointer (`#/...`) of the document.
export function validatorAt(at) {
  if (!validators.has(at)) validators.set(at, ajv.compile({ $ref: `${documentId}${at}` }));
  return validators.get(at);
}

export function schemaErrors(at, value) {
  const validate = validatorAt(at);
  return validate(value) ? [] : validate.errors.map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
}

// resolve: follows a `$ref` between OpenAPI objects; returns the object and its pointer.
export function resolve(object, at) {
  if (object && object.$ref) {
    const target = object.$ref.slice(2).split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
    return resolve(target.reduce((node, key) => node[key], doc), pointer(...target));
  }
  return { object, at };
}

export const operations = new Map();
for (const [path, item] of Object.entries(doc.paths)) {
  for (const method of methods) {
    if (item[method]) operations.set(item[method].operationId, { path, method, operation: item[method] });
  }
}

// allowOf: the Allow header a path of the document must answer with: its methods, in order, and
// HEAD wherever GET (the document's "HEAD" section: a `get` operation answers HEAD too).
export function allowOf(path) {
  const listed = methods.filter((m) => doc.paths[path][m] && m !== 'head');
  return listed.flatMap((m) => (m === 'get' ? ['GET', 'HEAD'] : [m.toUpperCase()])).join(', ');
}

export const covered = new Set();

// check: the problems of `response` as an answer of `operationId` (empty when it conforms).
// `operationId` may also be `405 <path>`: the path's x-method-not-allowed response.
export function check(operationId, response) {
  let responseObject;
  if (operationId.startsWith('405 ')) {
    const path = operationId.slice(4);
    responseObject = resolve(doc.paths[path]['x-method-not-allowed'], pointer('paths', path, 'x-method-not-allowed'));
    if (response.status !== 405) return [`status ${response.status}, expected 405`];
  } else {
    const { path, method, operation } = operations.get(operationId);
    const key = String(response.status);
    const documented = operation.responses[key] ?? (response.status >= 500 ? operation.responses.default : undefined);
    if (!documented) return [`status ${response.status} is not documented for ${operationId}`];
    responseObject = resolve(documented, pointer('paths', path, method, 'responses', operation.responses[key] ? key : 'default'));
  }
  const problems = [];
  const { object, at } = responseObject;
  const documentedHeaders = new Set();
  for (const [name, declared] of Object.entries(object.headers ?? {})) {
    documentedHeaders.add(name.toLowerCase());
    const headerAt = resolve(declared, `${at}/headers/${escapeSegment(name)}`);
    const values = response.headers.get(name.toLowerCase()) ?? [];
    if (values.length === 0) {
      if (headerAt.object.required) problems.push(`missing header ${name}`);
      continue;
    }
    if (values.length > 1) problems.push(`header ${name} sent ${values.length} times`);
    for (const error of schemaErrors(`${headerAt.at}/schema`, values[0])) problems.push(`header ${name}: ${error}`);
  }
  for (const name of apiHeaders) {
    if (response.headers.has(name) && !documentedHeaders.has(name)) problems.push(`undocumented header ${name}`);
  }
  const contentType = response.headers.get('content-type')?.[0];
  if (object.content) {
    const mediaType = contentType?.split(';')[0].trim().toLowerCase();
    if (!mediaType || !object.content[mediaType]) {
      problems.push(`Content-Type ${contentType} is not documented`);
    } else if (response.json === undefined) {
      problems.push(`the body is not JSON: ${response.text.slice(0, 200)}`);
    } else {
      for (const error of schemaErrors(`${at}/content/${escapeSegment(mediaType)}/schema`, response.json)) problems.push(`body: ${error}`);
      if (response.status >= 400 && response.json.status !== response.status) problems.push('Error.status differs from the HTTP status');
    }
  } else if (response.text !== '') {
    problems.push('a body where the document has none');
  }
  if (problems.length === 0) covered.add(`${operationId} ${operationId.startsWith('405 ') ? '' : response.status}`.trim());
  return problems;
}

// documentedResponses: every (operation, status) of the document but `default`, and a 405 per path.
export function documentedResponses() {
  const all = [];
  for (const [operationId, { operation }] of operations) {
    for (const status of Object.keys(operation.responses)) if (status !== 'default') all.push(`${operationId} ${status}`);
  }
  for (const path of Object.keys(doc.paths)) if (doc.paths[path]['x-method-not-allowed']) all.push(`405 ${path}`);
  return all;
}

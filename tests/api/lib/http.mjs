// A small HTTP client that hides nothing: any method, path and header (also oversized or repeated
// ones), and the response's raw header list, so that a test can see every header the server sent
// and how often. It speaks the transport PETSTORE_API_TRANSPORT names: `http1` (the default,
// node:http) or `h2c` (node:http2, HTTP/2 with prior knowledge), so that one suite checks the
// contract on both (issue 40).
import http from 'node:http';
import http2 from 'node:http2';

export const transport = process.env.PETSTORE_API_TRANSPORT ?? 'http1';
if (!['http1', 'h2c'].includes(transport)) throw new Error(`PETSTORE_API_TRANSPORT=${transport}: http1 or h2c`);
// protocol: what the server's log lines and metrics call the transport.
export const protocol = transport === 'h2c' ? 'HTTP/2' : 'HTTP/1.1';

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 4 });

// send: resolves with { status, headers: Map<lowercase name, string[]>, text, json }.
export function send(origin, request) {
  return transport === 'h2c' ? sendHttp2(origin, request) : sendHttp1(origin, request);
}

// header: the one value of a response header, or undefined.
export function header(response, name) {
  return response.headers.get(name.toLowerCase())?.[0];
}

function answer(status, rawHeaders, chunks) {
  const list = new Map();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (!name.startsWith(':')) list.set(name, [...(list.get(name) ?? []), rawHeaders[i + 1]]);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let json;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, headers: list, text, json };
}

function sendHttp1(origin, { method = 'GET', path, headers = {}, body, fresh = false }) {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: body === undefined ? headers : { 'Content-Length': Buffer.byteLength(body), ...headers },
        agent: fresh ? false : keepAlive,
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => resolve(answer(response.statusCode, response.rawHeaders, chunks)));
      },
    );
    // The server may answer (413, 431) and close before it has read the whole request.
    request.on('error', (error) => {
      if (!request.res) reject(error);
    });
    if (body !== undefined) request.write(body);
    request.end();
  });
}

// One HTTP/2 connection an origin, as a browser keeps one; `fresh` opens one for the request alone.
const sessions = new Map();

function sessionFor(origin, fresh) {
  const open = (session) => session && !session.closed && !session.destroyed;
  if (!fresh && open(sessions.get(origin))) return sessions.get(origin);
  const session = http2.connect(origin, { settings: { enablePush: false } });
  // A GOAWAY (the server draining) or a reset ends the session; the next request opens another.
  session.on('error', () => {});
  session.unref();
  if (!fresh) sessions.set(origin, session);
  return session;
}

function sendHttp2(origin, { method = 'GET', path, headers = {}, body, fresh = false }) {
  const session = sessionFor(origin, fresh);
  const fields = { ':method': method, ':path': path };
  for (const [name, value] of Object.entries(headers)) fields[name.toLowerCase()] = value;
  if (body !== undefined && fields['content-length'] === undefined) fields['content-length'] = Buffer.byteLength(body);
  return new Promise((resolve, reject) => {
    let stream;
    try {
      stream = session.request(fields, { endStream: body === undefined });
    } catch (error) {
      reject(error);
      return;
    }
    let status;
    let rawHeaders = [];
    const chunks = [];
    stream.on('response', (received, flags, raw) => {
      status = received[':status'];
      // Node 18 gives no raw list; the object keeps repeated fields as arrays.
      rawHeaders = raw ?? Object.entries(received).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value]).flatMap((one) => [name, String(one)]));
    });
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      if (fresh) session.close();
      resolve(answer(status, rawHeaders, chunks));
    });
    // The server may answer (413, 431) and reset the stream before it has read the whole request.
    stream.on('error', (error) => {
      if (status === undefined) reject(error);
    });
    stream.on('close', () => {
      if (status !== undefined) resolve(answer(status, rawHeaders, chunks));
      else reject(new Error(`stream closed without a response (code ${stream.rstCode})`));
      if (fresh) session.close();
    });
    if (body !== undefined) stream.end(body);
  });
}

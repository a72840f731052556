// A small HTTP/1.1 client over node:http that hides nothing: any method, path and header (also
// oversized or repeated ones), and the response's raw header list, so that a test can see every
// header the server sent and how often.
import http from 'node:http';

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 4 });

// send: resolves with { status, headers: Map<lowercase name, string[]>, text, json }.
export function send(origin, { method = 'GET', path, headers = {}, body, fresh = false }) {
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
        response.on('end', () => {
          const list = new Map();
          for (let i = 0; i < response.rawHeaders.length; i += 2) {
            const name = response.rawHeaders[i].toLowerCase();
            list.set(name, [...(list.get(name) ?? []), response.rawHeaders[i + 1]]);
          }
          const text = Buffer.concat(chunks).toString('utf8');
          let json;
          try {
            json = text === '' ? undefined : JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode, headers: list, text, json });
        });
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

// header: the one value of a response header, or undefined.
export function header(response, name) {
  return response.headers.get(name.toLowerCase())?.[0];
}

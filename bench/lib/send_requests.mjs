// Sends exactly COUNT requests over CONNECTIONS kept-alive connections and fails on any answer
// other than the expected status. bench/run uses it to seed pets and to drive the callgrind runs,
// where an exact request count matters more than speed (wrk runs for a time, not a count).
// Usage: node send_requests.mjs ORIGIN KEY METHOD PATH COUNT CONNECTIONS EXPECTED_STATUS
import http from 'node:http';

const [origin, key, method, path, countText, connectionsText, expectedText] = process.argv.slice(2);
const count = Number(countText);
const connections = Number(connectionsText);
const expected = Number(expectedText);
const url = new URL(origin);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const statuses = ['available', 'pending', 'sold'];

function send(index) {
  // Pets get 10-character names and a status mix, like the catalogue bench/scale measures.
  const body = method === 'POST'
    ? JSON.stringify({ name: `pet-${String(index).padStart(6, '0')}`, categoryId: 1 + (index % 7), status: statuses[index % 3] })
    : undefined;
  const headers = { Authorization: `Bearer ${key}` };
  if (body) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = Buffer.byteLength(body);
  }
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, method, path, headers, agent }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === expected
        ? resolve()
        : reject(new Error(`${method} ${path}: ${response.statusCode}, expected ${expected}`))));
    });
    request.on('error', reject);
    request.end(body);
  });
}

let next = 0;
async function worker() {
  while (next < count) {
    await send(next++);
  }
}
await Promise.all(Array.from({ length: connections }, worker));
agent.destroy();

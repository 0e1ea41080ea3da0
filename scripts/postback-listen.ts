// `npm run postback:listen`: a stand-in tracker for trying postbacks on one's own machine, as
// `npm run webhook:listen` is for webhooks. It prints every request it gets (method, path, each
// query parameter and form field decoded, a JSON body) and answers 200 `OK`, the answer Keitaro's
// preset expects; a HEAD (a readiness probe) is answered without being printed. Postbacks carry no
// signature: there is nothing to verify. The path is printed as
// it came, a postback key in it included: this is the tracker's side, which holds that key anyway.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { POSTBACK_LISTENER_URL } from '../src/modules/postbacks/graphiql';

// The address GraphiQL's postbacks tab prefills.
const { hostname: HOST, port: DEFAULT_PORT } = new URL(POSTBACK_LISTENER_URL);
const BODY_MAX_BYTES = 64 * 1024;

const rawPort = process.env.POSTBACK_LISTEN_PORT ?? DEFAULT_PORT;
if (!/^\d+$/.test(rawPort) || Number(rawPort) > 65_535) {
  console.error(`POSTBACK_LISTEN_PORT must be a port number, got "${rawPort}"`);
  process.exit(2);
}

/** The body, cut at BODY_MAX_BYTES (a postback's is far smaller). */
function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      if (size < BODY_MAX_BYTES) chunks.push(chunk);
      size += chunk.length;
    });
    request.on('end', () =>
      resolve(Buffer.concat(chunks).subarray(0, BODY_MAX_BYTES).toString('utf8')),
    );
    request.on('error', reject);
  });
}

/** `name = value` lines, decoded, in the order they came. */
function parameterLines(parameters: URLSearchParams): string[] {
  return [...parameters].map(([name, value]) => `  ${name} = ${JSON.stringify(value)}`);
}

function bodyLines(body: string, contentType: string): string[] {
  if (!body) return [];
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    return ['form:', ...parameterLines(new URLSearchParams(body))];
  }
  try {
    return ['json:', JSON.stringify(JSON.parse(body), null, 2)];
  } catch {
    return ['body:', body];
  }
}

const server = createServer(async (request, response) => {
  // A HEAD is a readiness probe (trackers receive GETs and POSTs): answered, not printed.
  if (request.method === 'HEAD') {
    response.writeHead(200, { 'content-type': 'text/plain' }).end();
    return;
  }
  const at = new Date().toISOString();
  const body = await readBody(request);
  const url = new URL(request.url ?? '/', 'http://listener');
  // One write per request, so another process printing to the same terminal never splits it.
  console.log(
    [
      `${at} --> ${request.method} ${url.pathname}`,
      ...parameterLines(url.searchParams),
      ...bodyLines(body, String(request.headers['content-type'] ?? '')),
    ].join('\n'),
  );
  response.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
});

server.listen(Number(rawPort), HOST, () => {
  const { port } = server.address() as AddressInfo;
  console.log(
    `Listening for postbacks on http://${HOST}:${port}/: every request is printed here and ` +
      'answered 200 OK (Ctrl-C stops)',
  );
});

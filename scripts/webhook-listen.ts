// `npm run webhook:listen`: a webhook receiver for trying order webhooks on one's own machine, as
// `stripe listen` is for Stripe's. It verifies each request's Standard Webhooks signature with the
// endpoint's secret (WEBHOOK_SECRET, as createWebhookEndpoint answered it) through the
// `standardwebhooks` library, as an integrator's receiver would, and prints every verified event.
// A request that does not verify is answered 400 and said so, without its body.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_LISTENER_URL } from '../src/modules/webhooks/graphiql';

// The address GraphiQL's order webhooks tab prefills.
const { hostname: HOST, port: DEFAULT_PORT, pathname: PATH } = new URL(WEBHOOK_LISTENER_URL);
const BODY_MAX_BYTES = 1024 * 1024;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const secret = process.env.WEBHOOK_SECRET ?? '';
if (!secret.startsWith('whsec_')) {
  fail(
    'WEBHOOK_SECRET must be the endpoint\'s signing secret ("whsec_..."), as createWebhookEndpoint ' +
      'or rotateWebhookSecret answered it',
  );
}
const rawPort = process.env.WEBHOOK_LISTEN_PORT ?? DEFAULT_PORT;
if (!/^\d+$/.test(rawPort) || Number(rawPort) > 65_535) {
  fail(`WEBHOOK_LISTEN_PORT must be a port number, got "${rawPort}"`);
}

let webhook: Webhook;
try {
  webhook = new Webhook(secret);
} catch {
  fail('WEBHOOK_SECRET is not a valid signing secret: copy it whole, "whsec_" included');
}

/** The body, or null when it is larger than any webhook this service sends. */
function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_MAX_BYTES) chunks.push(chunk);
    });
    request.on('end', () =>
      resolve(size <= BODY_MAX_BYTES ? Buffer.concat(chunks).toString('utf8') : null),
    );
    request.on('error', reject);
  });
}

const header = (request: IncomingMessage, name: string) => String(request.headers[name] ?? '');

/** webhook-ids already printed: a retry of one is acknowledged again but said to be a retry. */
const seen = new Set<string>();

const server = createServer(async (request, response) => {
  const at = new Date().toISOString();
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const body = await readBody(request);
  const headers = {
    'webhook-id': header(request, 'webhook-id'),
    'webhook-timestamp': header(request, 'webhook-timestamp'),
    'webhook-signature': header(request, 'webhook-signature'),
  };
  let event: { type?: unknown };
  try {
    if (body === null) throw new Error('the body is over 1 MB');
    // Throws unless a signature matches and the timestamp is within 5 minutes of now.
    event = webhook.verify(body, headers) as { type?: unknown };
  } catch (error) {
    console.log(`${at} refused ${request.url}: ${(error as Error).message} (answered 400)`);
    response.writeHead(400).end();
    return;
  }
  const id = headers['webhook-id'];
  const retry = seen.has(id) ? ' (a retry of an event shown above)' : '';
  seen.add(id);
  // One write per event, so another process printing to the same terminal never splits it.
  console.log(`${at} --> ${String(event.type)} [${id}]${retry}\n${JSON.stringify(event, null, 2)}`);
  response.writeHead(204).end();
});

server.listen(Number(rawPort), HOST, () => {
  const { port } = server.address() as AddressInfo;
  console.log(
    `Listening for webhooks on http://${HOST}:${port}${PATH}: every verified event is printed ` +
      'here (Ctrl-C stops)',
  );
});

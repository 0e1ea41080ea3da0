// The ceiling: a bare node:http server answering one fixed body (ceilingBody.ts), what a list route
// of this service would answer at best on this machine. Bundled and run as its own process like
// every reference server (bench/support/build.ts); it prints `listening <port>` once it listens on
// PORT (0: any free port).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ceilingBody } from './ceilingBody';

function main(): void {
  const body = ceilingBody();
  const server = createServer((_request, response) => {
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': body.length,
    });
    response.end(body);
  });
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    console.log(`listening ${(server.address() as AddressInfo).port}`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

if (require.main === module) main();

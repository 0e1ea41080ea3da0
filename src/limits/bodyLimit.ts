// The 1 MB payload limit, enforced before a body is buffered whole: a declared Content-Length
// over the limit is refused without reading, and a body without one (chunked) is counted as it
// streams and cut off at the first byte over the limit.

import { PayloadTooLargeError } from '../platform/errors';

/** The contract's payload limit: 1 MB, counted as 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

export type BodyCheck =
  | { kind: 'too-large' }
  | { kind: 'ok'; body: ReadableStream<Uint8Array> | null; exceeded: () => boolean };

/**
 * `Streams`: the fetch implementation's TransformStream, for the bodies it made (a request from
 * the HTTP server); a body that is Node's own stream (a `Request` built in-process) is piped through
 * Node's, as each implementation only pipes into its own streams.
 */
export function checkBody(
  request: Request,
  maxBytes: number,
  Streams: typeof TransformStream = TransformStream,
): BodyCheck {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
    return { kind: 'too-large' };
  }
  const body = request.body;
  if (!body) return { kind: 'ok', body: null, exceeded: () => false };

  let bytesRead = 0;
  let over = false;
  const Transform = body instanceof ReadableStream ? TransformStream : Streams;
  const limited = body.pipeThrough(
    new Transform<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytesRead += chunk.byteLength;
        if (bytesRead > maxBytes) {
          over = true;
          // Whoever reads the body meets the client's own mistake, not a fault of the service.
          controller.error(new PayloadTooLargeError(maxBytes));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  return { kind: 'ok', body: limited, exceeded: () => over };
}

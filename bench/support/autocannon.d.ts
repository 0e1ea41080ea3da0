// The part of autocannon 8's programmatic API the harness uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  interface AutocannonOptions {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Cycled through by every connection, in order. */
    requests?: AutocannonRequest[];
    /** Each connection stops after this many requests (0: no limit). */
    maxConnectionRequests?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
  }

  interface AutocannonResult {
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface AutocannonInstance extends EventEmitter, PromiseLike<AutocannonResult> {
    stop(): void;
    on(event: 'start', listener: () => void): this;
    on(
      event: 'response',
      listener: (
        client: unknown,
        statusCode: number,
        bytes: number,
        responseTimeMs: number,
      ) => void,
    ): this;
    on(event: 'reqError', listener: (error: Error) => void): this;
  }

  function autocannon(options: AutocannonOptions): AutocannonInstance;
  export = autocannon;
}

// Loaded into the service process (`node --require bench/support/serverProbe.cjs`) by the soak and
// the profiler; answers the harness over the IPC channel:
//   bench:sample         -> event-loop delay since the previous sample (perf_hooks), memory; with
//                           `collect`, after a full GC (what is retained, for the soak's verdict)
//   bench:profile-start  -> starts the V8 CPU profiler (inspector), so start-up stays out of it
//   bench:profile-stop   -> stops it and writes the profile (.cpuprofile JSON) to `file`
//   bench:heap-start     -> full GC, then V8's sampling heap profiler (allocations, their stacks);
//                           with `collected`, it keeps the samples of objects collected since too
//   bench:heap-stop      -> full GC, then writes the sampled allocations to `file`: those still
//                           alive (what the process kept), or with `collected` all of them
// The two full GCs make heapUsed comparable: what stays after them is retained, not garbage.
// Plain CommonJS, no dependencies: it runs before the compiled service (dist/server.js) loads.
'use strict';
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { Session } = require('node:inspector');
const { writeFileSync } = require('node:fs');

if (typeof process.send === 'function') {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const ms = (ns) => ns / 1e6;
  let session = null;

  const connect = () => {
    if (!session) {
      session = new Session();
      session.connect();
    }
  };
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );

  const handlers = {
    'bench:sample': async ({ collect }) => {
      if (collect) {
        connect();
        await post('HeapProfiler.collectGarbage');
      }
      const sample = {
        eventLoop: {
          p50Ms: ms(delay.percentile(50)),
          p99Ms: ms(delay.percentile(99)),
          maxMs: ms(delay.max),
          meanMs: ms(delay.mean),
        },
        memory: process.memoryUsage(),
      };
      delay.reset();
      return sample;
    },
    'bench:profile-start': async () => {
      connect();
      await post('Profiler.enable');
      await post('Profiler.start');
      return {};
    },
    'bench:profile-stop': async ({ file }) => {
      const { profile } = await post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      return { file };
    },
    'bench:heap-start': async ({ collected }) => {
      connect();
      await post('HeapProfiler.enable');
      await post('HeapProfiler.collectGarbage');
      const memory = process.memoryUsage();
      await post('HeapProfiler.startSampling', {
        samplingInterval: 32768,
        includeObjectsCollectedByMajorGC: Boolean(collected),
        includeObjectsCollectedByMinorGC: Boolean(collected),
      });
      return { memory };
    },
    'bench:heap-stop': async ({ file }) => {
      await post('HeapProfiler.collectGarbage');
      const memory = process.memoryUsage();
      const { profile } = await post('HeapProfiler.getSamplingProfile');
      await post('HeapProfiler.stopSampling');
      writeFileSync(file, JSON.stringify(profile));
      return { file, memory };
    },
  };

  process.on('message', (message) => {
    const handler = message && handlers[message.type];
    if (!handler) return;
    handler(message).then(
      (reply) => process.send({ type: `${message.type}:reply`, ...reply }),
      (error) => process.send({ type: `${message.type}:reply`, error: String(error) }),
    );
  });
  // The channel must not keep a server that is shutting down alive.
  process.channel.unref();
}

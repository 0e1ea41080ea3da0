import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { summarizeHeapProfile, type SamplingHeapProfile } from '../../bench/support/heapProfile';
import { askProbe, PROBE_PATH, type NodeChild } from '../../bench/support/processes';

const MiB = 2 ** 20;
const GARBAGE_MIB = 32;

/** A process with the bench's probe that, when asked, allocates 32 MiB and keeps none of it. */
const ALLOCATOR = `
  // The probe lets go of the channel, as a server must be free to exit; this process lives on it.
  process.channel.ref();
  process.on('message', (message) => {
    if (message.type !== 'allocate') return;
    let length = 0;
    for (let i = 0; i < ${(GARBAGE_MIB * MiB) / (64 * 1024)}; i++) {
      length += Buffer.alloc(64 * 1024, i).toString('latin1').length;
    }
    process.send({ type: 'allocate:reply', length });
  });`;

let dir: string;
let allocator: Pick<NodeChild, 'child'>;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'allocation-'));
  const script = path.join(dir, 'allocator.cjs');
  writeFileSync(script, ALLOCATOR);
  allocator = {
    child: fork(script, [], { execArgv: ['--require', PROBE_PATH], stdio: 'ignore' }),
  };
});

afterAll(() => {
  allocator.child.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** The bytes the profile samples while the process allocates its garbage. */
async function sampledMiB(collected: boolean): Promise<number> {
  const file = path.join(dir, `${collected}.heapprofile`);
  await askProbe(allocator, 'bench:heap-start', { collected });
  await askProbe(allocator, 'allocate');
  await askProbe(allocator, 'bench:heap-stop', { file });
  const profile = JSON.parse(readFileSync(file, 'utf8')) as SamplingHeapProfile;
  return summarizeHeapProfile(profile).bytes / MiB;
}

describe("the bench's allocation profile", () => {
  test('with collected objects kept, it finds what was allocated, garbage included', async () => {
    const mib = await sampledMiB(true);
    expect(mib).toBeGreaterThan(GARBAGE_MIB * 0.8);
    expect(mib).toBeLessThan(GARBAGE_MIB * 1.25);
  });

  test('without them, only what is still alive: none of the garbage', async () => {
    expect(await sampledMiB(false)).toBeLessThan(GARBAGE_MIB * 0.1);
  });
});

import { execFileSync } from 'node:child_process';
import { leakVerdict, type HeapPoint } from '../../bench/support/leakVerdict';

/**
 * A node process that allocates 4 MiB of garbage a round and, when leaking, keeps 256 KiB of it;
 * after each round a full collection, then its heap, as the soak reads it.
 */
function heapAfterRounds(leaking: boolean): HeapPoint[] {
  const script = `
    const kept = [];
    const points = [];
    for (let round = 0; round < 30; round++) {
      const garbage = Array.from({ length: 64 }, () => Buffer.alloc(64 * 1024).toString('latin1'));
      if (${leaking}) kept.push(garbage.slice(0, 4));
      gc();
      points.push({ atS: round * 10, mib: process.memoryUsage().heapUsed / 2 ** 20 });
    }
    process.stdout.write(JSON.stringify(points));`;
  const output = execFileSync(process.execPath, ['--expose-gc', '-e', script], {
    encoding: 'utf8',
  });
  return JSON.parse(output) as HeapPoint[];
}

describe("the soak's verdict on memory", () => {
  test('a process that keeps part of what it allocates is a leak', () => {
    expect(leakVerdict(heapAfterRounds(true))).toMatchObject({ met: false });
  });

  test('a process whose garbage is all collected is flat', () => {
    expect(leakVerdict(heapAfterRounds(false))).toMatchObject({ met: true });
  });

  test('a sawtooth around a level is flat, a steady climb under it is not', () => {
    const sawtooth = Array.from({ length: 30 }, (_, i) => ({ atS: i * 10, mib: 90 + (i % 6) * 8 }));
    expect(leakVerdict(sawtooth)).toMatchObject({ met: true });
    const climbing = sawtooth.map(({ atS, mib }, i) => ({ atS, mib: mib + i * 0.8 }));
    expect(leakVerdict(climbing)).toMatchObject({ met: false });
  });

  test('five points are too few for a verdict', () => {
    expect(leakVerdict([1, 2, 3, 4, 5].map((i) => ({ atS: i, mib: 100 })))).toBeNull();
  });
});

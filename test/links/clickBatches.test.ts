import { clickBatches, type WriteClicks } from '../../src/modules/links/clickBatches';

/** The batching is the same whatever a click is: here a client's name, null for a bot. */
type Click = string | null;

/** A write the test completes by hand, recording each batch it was given. */
function manualWrites() {
  const batches: {
    clicks: Map<string, readonly Click[]>;
    finish(targets: [string, string][]): void;
    fail(error: Error): void;
  }[] = [];
  const write: WriteClicks<Click> = (clicksByCode) =>
    new Promise((resolve, reject) => {
      batches.push({
        clicks: new Map(clicksByCode),
        finish: (targets) => resolve(new Map(targets)),
        fail: reject,
      });
    });
  return { batches, write };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('click batches', () => {
  it('writes a click at once when nothing is being written', async () => {
    const { batches, write } = manualWrites();
    const count = clickBatches(write, { maxWritesInFlight: 1, maxLinksPerBatch: 10 });
    const answer = count('AAAAAAAA', 'client-1');
    expect(batches.map((batch) => [...batch.clicks])).toEqual([[['AAAAAAAA', ['client-1']]]]);
    batches[0]!.finish([['AAAAAAAA', 'https://a.example']]);
    await expect(answer).resolves.toBe('https://a.example');
  });

  it('answers a click only once the write holding it is done', async () => {
    const { batches, write } = manualWrites();
    const count = clickBatches(write, { maxWritesInFlight: 1, maxLinksPerBatch: 10 });
    let answered = false;
    void count('AAAAAAAA', 'client-1').then(() => (answered = true));
    await settled();
    expect(answered).toBe(false);
    batches[0]!.finish([['AAAAAAAA', 'https://a.example']]);
    await settled();
    expect(answered).toBe(true);
  });

  it('gathers the clicks that arrive during a write into the next batch, per link', async () => {
    const { batches, write } = manualWrites();
    const count = clickBatches(write, { maxWritesInFlight: 1, maxLinksPerBatch: 10 });
    const first = count('AAAAAAAA', 'client-1');
    const waiting = [
      count('AAAAAAAA', 'client-2'),
      count('BBBBBBBB', 'client-1'),
      count('AAAAAAAA', null),
      count('CCCCCCCC', 'client-3'),
    ];
    expect(batches).toHaveLength(1);

    batches[0]!.finish([['AAAAAAAA', 'https://a.example']]);
    await first;
    await settled();
    expect([...batches[1]!.clicks]).toEqual([
      ['AAAAAAAA', ['client-2', null]],
      ['BBBBBBBB', ['client-1']],
      ['CCCCCCCC', ['client-3']],
    ]);
    // CCCCCCCC is inactive or unknown: the write returns no target for it.
    batches[1]!.finish([
      ['AAAAAAAA', 'https://a.example'],
      ['BBBBBBBB', 'https://b.example'],
    ]);
    await expect(Promise.all(waiting)).resolves.toEqual([
      'https://a.example',
      'https://b.example',
      'https://a.example',
      null,
    ]);
  });

  it('keeps up to maxWritesInFlight writes going and at most maxLinksPerBatch links in one', async () => {
    const { batches, write } = manualWrites();
    const count = clickBatches(write, { maxWritesInFlight: 2, maxLinksPerBatch: 2 });
    const answers = ['A', 'B', 'C', 'D', 'E', 'F'].map((letter) =>
      count(letter.repeat(8), 'client'),
    );
    expect(batches.map((batch) => [...batch.clicks.keys()])).toEqual([['AAAAAAAA'], ['BBBBBBBB']]);

    batches[0]!.finish([]);
    await settled();
    expect([...batches[2]!.clicks.keys()]).toEqual(['CCCCCCCC', 'DDDDDDDD']);
    batches[1]!.finish([]);
    await settled();
    expect([...batches[3]!.clicks.keys()]).toEqual(['EEEEEEEE', 'FFFFFFFF']);
    batches[2]!.finish([]);
    batches[3]!.finish([]);
    await expect(Promise.all(answers)).resolves.toEqual(Array(6).fill(null));
  });

  it('fails only the clicks of a failed write; the next batch is still written', async () => {
    const { batches, write } = manualWrites();
    const count = clickBatches(write, { maxWritesInFlight: 1, maxLinksPerBatch: 10 });
    const failed = count('AAAAAAAA', 'client');
    const next = count('BBBBBBBB', 'client');
    batches[0]!.fail(new Error('connection lost'));
    await expect(failed).rejects.toThrow('connection lost');
    await settled();
    batches[1]!.finish([['BBBBBBBB', 'https://b.example']]);
    await expect(next).resolves.toBe('https://b.example');
  });
});

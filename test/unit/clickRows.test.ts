import { clickBatchRows, type Click } from '../../src/modules/links/clicks';

const person = (name: string, subIds: (string | null)[] | null = null): Click => ({
  visitor: { client: `client-${name}`, address: `address-${name}` },
  subIds,
});
const bot = (subIds: (string | null)[] | null = null): Click => ({ visitor: null, subIds });
const tags = (sub1: string | null, sub2: string | null = null) => [sub1, sub2, null, null, null];

describe('clickBatchRows', () => {
  it('an untagged batch: distinct clients with their addresses, people and bots per link; no tags', () => {
    const rows = clickBatchRows(
      new Map([
        ['AAAAAAAA', [person('ana'), person('ana'), bot(), person('ben')]],
        ['BBBBBBBB', [bot()]],
      ]),
    );
    expect(rows).toEqual({
      codes: ['AAAAAAAA', 'AAAAAAAA'],
      clients: ['client-ana', 'client-ben'],
      addresses: ['address-ana', 'address-ben'],
      links: ['AAAAAAAA', 'BBBBBBBB'],
      people: [3, 0],
      bots: [1, 1],
      tags: null,
    });
  });

  it("a tagged batch: each candidate with its first click's values; every click per link, sub-ID and value", () => {
    const rows = clickBatchRows(
      new Map([
        [
          'AAAAAAAA',
          [
            person('ana', tags('mail', 'hero')),
            person('ana', tags('social')),
            person('ben'),
            bot(tags('mail')),
          ],
        ],
        ['BBBBBBBB', [person('ana', tags('mail'))]],
      ]),
    );
    expect(rows.codes).toEqual(['AAAAAAAA', 'AAAAAAAA', 'BBBBBBBB']);
    expect(rows.tags).toEqual({
      candidates: {
        codes: ['AAAAAAAA', 'AAAAAAAA', 'BBBBBBBB'],
        clients: ['client-ana', 'client-ana', 'client-ana'],
        slots: [1, 2, 1],
        values: ['mail', 'hero', 'mail'],
      },
      clicks: {
        codes: ['AAAAAAAA', 'AAAAAAAA', 'AAAAAAAA', 'BBBBBBBB'],
        slots: [1, 2, 1, 1],
        values: ['mail', 'hero', 'social', 'mail'],
        people: [1, 1, 1, 1],
        bots: [1, 0, 0, 0],
      },
    });
  });
});

import { addressBucket } from '../../src/limits/addressBucket';
import { clickBatchRows, networkOf, type Click } from '../../src/modules/links/clicks';

const person = (name: string, subIds: (string | null)[] | null = null): Click => ({
  visitor: { client: `client-${name}`, address: `address-${name}`, network: `network-${name}` },
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

  it("a tagged batch: each candidate with its first click's values and its network; every click per link, sub-ID and value", () => {
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
        ['BBBBBBBB', [person('cid', tags('mail'))]],
      ]),
    );
    expect(rows.codes).toEqual(['AAAAAAAA', 'AAAAAAAA', 'BBBBBBBB']);
    expect(rows.tags).toEqual({
      candidates: {
        codes: ['AAAAAAAA', 'AAAAAAAA', 'BBBBBBBB'],
        clients: ['client-ana', 'client-ana', 'client-cid'],
        networks: ['network-ana', 'network-ana', 'network-cid'],
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

describe('networkOf', () => {
  const network = (ip: string) => networkOf(addressBucket(ip));

  it('an IPv4 address: its /24; IPv4-mapped IPv6 is IPv4', () => {
    expect(network('203.0.113.7')).toBe('203.0.113.0/24');
    expect(network('203.0.113.200')).toBe('203.0.113.0/24');
    expect(network('::ffff:203.0.113.9')).toBe('203.0.113.0/24');
    expect(network('198.51.100.7')).toBe('198.51.100.0/24');
  });

  it('an IPv6 address: its /48, however it is written', () => {
    expect(network('2001:db8:1:2::1')).toBe('2001:db8:1::/48');
    expect(network('2001:DB8:1:ffff:1:2:3:4')).toBe('2001:db8:1::/48');
    expect(network('2001:0db8:0001:0000::9')).toBe('2001:db8:1::/48');
    expect(network('2001:db8::1')).toBe('2001:db8:0::/48');
    expect(network('2001:db8:2::1')).toBe('2001:db8:2::/48');
  });

  it('no address known: a network of its own', () => {
    expect(network('unknown')).toBe('unknown');
  });
});

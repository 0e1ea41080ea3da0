import { isSubId, subIdsOf, withSubIds } from '../../src/modules/links/subIds';

describe('isSubId: 1 to 100 visible ASCII characters', () => {
  it.each(['a', 'newsletter-may', '!~', 'x'.repeat(100), 'a/b=c&d', '(other)'])('%p is one', (v) =>
    expect(isSubId(v)).toBe(true),
  );
  it.each(['', 'x'.repeat(101), 'a b', 'a\tb', 'café', 'a\u0000b', '(other values)'])(
    '%p is not',
    (v) => expect(isSubId(v)).toBe(false),
  );
});

describe('subIdsOf', () => {
  it('reads sub1 to sub5 by position, decoded; other parameters are not sub-IDs', () => {
    expect(subIdsOf('utm_source=x&sub3=a%2Fb&sub1=mail&SUB2=no&sub6=no')).toEqual([
      'mail',
      null,
      'a/b',
      null,
      null,
    ]);
  });

  it('drops invalid values, keeps the valid ones; null when none is valid', () => {
    expect(subIdsOf('sub1=a+b&sub2=ok')).toEqual([null, 'ok', null, null, null]);
    expect(subIdsOf(`sub1=&sub2=${'x'.repeat(101)}&sub3=caf%C3%A9`)).toBeNull();
    expect(subIdsOf('')).toBeNull();
    expect(subIdsOf('utm_source=mail')).toBeNull();
  });

  it('the first of a repeated name counts', () => {
    expect(subIdsOf('sub1=first&sub1=second')).toEqual(['first', null, null, null, null]);
  });
});

describe('withSubIds', () => {
  const subIds = (...values: (string | null)[]) => [...values, null, null, null, null].slice(0, 5);

  it("appends the values, encoded, after the target's own parameters, before its fragment", () => {
    expect(withSubIds('https://shop.example/p?x=1#top', subIds('a b', null, 'c&d'))).toBe(
      'https://shop.example/p?x=1&sub1=a%20b&sub3=c%26d#top',
    );
  });

  it('starts a query when the target has none, or an empty one', () => {
    expect(withSubIds('https://shop.example/', subIds('a'))).toBe('https://shop.example/?sub1=a');
    expect(withSubIds('https://shop.example/?', subIds('a'))).toBe('https://shop.example/?sub1=a');
  });

  it("keeps the target's other parameters as written; one named like a given sub-ID gives way", () => {
    expect(
      withSubIds(
        'https://shop.example/p?q=caf%C3%A9+x&sub1=own&sub%32=enc&sub3=kept',
        subIds('a', 'b'),
      ),
    ).toBe('https://shop.example/p?q=caf%C3%A9+x&sub3=kept&sub1=a&sub2=b');
  });

  it('leaves a parameter whose name does not decode as it is', () => {
    expect(withSubIds('https://shop.example/p?%E0%A4%A=1', subIds('a'))).toBe(
      'https://shop.example/p?%E0%A4%A=1&sub1=a',
    );
  });
});

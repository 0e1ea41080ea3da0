// The short URL list's filter (src/modules/links/schema.ts): active by default, search by URL or code.
import { affiliateShortUrlWhere, shortUrlSearchWhere } from '../../src/modules/links/schema';

describe('short URL list filters', () => {
  test('affiliateShortUrlWhere', () => {
    expect(affiliateShortUrlWhere('a', { active: true })).toEqual({
      affiliateId: 'a',
      active: true,
    });
    expect(affiliateShortUrlWhere('a', { active: false, type: 'Custom' })).toEqual({
      affiliateId: 'a',
      active: false,
      linkType: 'Custom',
    });
  });

  test('shortUrlSearchWhere recognises a short URL only under the base', () => {
    expect(shortUrlSearchWhere('sale', 'https://go.example/s').OR).toHaveLength(2);
    expect(shortUrlSearchWhere('go.example/s/AbC', 'https://go.example/s').OR).toContainEqual({
      urlCode: { startsWith: 'abc', mode: 'insensitive' },
    });
  });
});

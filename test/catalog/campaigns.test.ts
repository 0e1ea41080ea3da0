// Campaign status from its period, and the campaign list filter, docs/decisions.md "Catalog".
import { campaignStatus, campaignWhere } from '../../src/modules/catalog/campaigns';
import { BadRequestError } from '../../src/platform/errors';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const period = {
  startAt: new Date('2026-06-01T00:00:00.000Z'),
  endAt: new Date('2026-06-30T23:59:59.999Z'),
};

// Every campaign list is restricted to campaigns of visible brands, read from the row's copy of its
// brand's visibility (test/catalog/brand-visibility.test.ts checks that the copy follows the brand).
const OF_VISIBLE_BRAND = { brandVisible: true };

function at(iso: string): Date {
  return new Date(iso);
}

describe('campaignStatus', () => {
  test('before startAt: scheduled', () => {
    expect(campaignStatus(period, at('2026-05-31T23:59:59.999Z'))).toBe('scheduled');
  });

  test('at startAt exactly: onTime', () => {
    expect(campaignStatus(period, period.startAt)).toBe('onTime');
  });

  test('inside the period: onTime', () => {
    expect(campaignStatus(period, NOW)).toBe('onTime');
  });

  test('at endAt exactly: onTime', () => {
    expect(campaignStatus(period, period.endAt)).toBe('onTime');
  });

  test('after endAt: expired', () => {
    expect(campaignStatus(period, at('2026-07-01T00:00:00.000Z'))).toBe('expired');
  });

  test('a one-instant period is onTime at that instant only', () => {
    const instant = { startAt: NOW, endAt: NOW };
    expect(campaignStatus(instant, new Date(NOW.getTime() - 1))).toBe('scheduled');
    expect(campaignStatus(instant, NOW)).toBe('onTime');
    expect(campaignStatus(instant, new Date(NOW.getTime() + 1))).toBe('expired');
  });
});

describe('campaignWhere', () => {
  test('no filter: only campaigns of visible brands', () => {
    expect(campaignWhere({}, NOW)).toEqual({ AND: [OF_VISIBLE_BRAND] });
  });

  test('null and empty filters narrow nothing', () => {
    expect(
      campaignWhere(
        {
          types: [],
          offerType: [],
          status: [],
          categories: [],
          organizationIds: [],
          name: '',
          isHighlight: null,
        },
        NOW,
      ),
    ).toEqual({ AND: [OF_VISIBLE_BRAND] });
  });

  test('every filter keeps the visibility restriction', () => {
    const where = campaignWhere(
      {
        types: ['Offer'],
        name: 'summer',
        isHighlight: true,
        organizationId: '0b6f2c1e-8a4d-4e7b-9c3a-5f1d2e3c4b5a',
      },
      NOW,
    );
    expect(where.AND).toContainEqual(OF_VISIBLE_BRAND);
  });

  test('types narrows to those campaign types', () => {
    expect(campaignWhere({ types: ['GenericCoupon', 'PersonalCoupon'] }, NOW)).toEqual({
      AND: [OF_VISIBLE_BRAND, { type: { in: ['GenericCoupon', 'PersonalCoupon'] } }],
    });
  });

  test('offerType alone asks for offers of those offer types only', () => {
    expect(campaignWhere({ offerType: ['Url'] }, NOW)).toEqual({
      AND: [
        OF_VISIBLE_BRAND,
        { type: { in: ['Offer'] } },
        { OR: [{ type: { not: 'Offer' } }, { offerType: { in: ['Url'] } }] },
      ],
    });
  });

  test('offerType with types narrows offers and keeps the other types', () => {
    expect(
      campaignWhere({ types: ['Offer', 'GenericCoupon'], offerType: ['Spreadsheet'] }, NOW),
    ).toEqual({
      AND: [
        OF_VISIBLE_BRAND,
        { type: { in: ['Offer', 'GenericCoupon'] } },
        { OR: [{ type: { not: 'Offer' } }, { offerType: { in: ['Spreadsheet'] } }] },
      ],
    });
  });

  test('name matches part of the name, any case', () => {
    expect(campaignWhere({ name: 'Summer' }, NOW).AND).toContainEqual({
      name: { contains: 'Summer', mode: 'insensitive' },
    });
  });

  test('isHighlight=false is a filter, not an absent one', () => {
    expect(campaignWhere({ isHighlight: false }, NOW)).toEqual({
      AND: [OF_VISIBLE_BRAND, { isHighlight: false }],
    });
  });

  test('status becomes period conditions at the given instant', () => {
    expect(campaignWhere({ status: ['onTime', 'scheduled'] }, NOW)).toEqual({
      AND: [
        OF_VISIBLE_BRAND,
        { OR: [{ startAt: { lte: NOW }, endAt: { gte: NOW } }, { startAt: { gt: NOW } }] },
      ],
    });
  });

  test('status expired: the period ended before now', () => {
    expect(campaignWhere({ status: ['expired'] }, NOW).AND).toContainEqual({
      OR: [{ endAt: { lt: NOW } }],
    });
  });

  test('startAt and endAt keep the campaigns whose period overlaps them', () => {
    const startAt = at('2026-06-10T00:00:00.000Z');
    const endAt = at('2026-06-20T00:00:00.000Z');
    expect(campaignWhere({ startAt, endAt }, NOW)).toEqual({
      AND: [OF_VISIBLE_BRAND, { startAt: { lte: endAt } }, { endAt: { gte: startAt } }],
    });
  });

  test('startAt equal to endAt is a valid one-instant range', () => {
    expect(() => campaignWhere({ startAt: NOW, endAt: NOW }, NOW)).not.toThrow();
  });

  test('startAt after endAt answers 400', () => {
    let thrown: unknown;
    try {
      campaignWhere(
        { startAt: at('2026-06-20T00:00:00.000Z'), endAt: at('2026-06-10T00:00:00.000Z') },
        NOW,
      );
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BadRequestError);
    expect((thrown as BadRequestError).message).toBe('startAt must not be after endAt');
  });
});

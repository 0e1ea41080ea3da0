// page/limit rules, docs/decisions.md "Parameters": page >= 1 and limit >= 1 else 400; above the
// max, most lists clamp silently and products answer 400.
import { BadRequestError } from '../../src/platform/errors';
import { FIND_IDS_FROM_OFFSET, findPage } from '../../src/schema/lists';
import { pageInfo, resolvePage, type PageRule } from '../../src/schema/pagination';

const CLAMPED: PageRule = { defaultLimit: 10, maxLimit: 20, aboveMax: 'clamp' };
const STRICT: PageRule = { defaultLimit: 20, maxLimit: 100, aboveMax: 'reject' };

function refusal(run: () => unknown): BadRequestError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    return error as BadRequestError;
  }
  throw new Error('accepted');
}

describe('resolvePage', () => {
  test('no page and no limit: page 1 with the default limit', () => {
    expect(resolvePage({}, CLAMPED)).toEqual({ page: 1, limit: 10, skip: 0 });
  });

  test('null page and limit (GraphQL nulls) take the defaults too', () => {
    expect(resolvePage({ page: null, limit: null }, STRICT)).toEqual({
      page: 1,
      limit: 20,
      skip: 0,
    });
  });

  test('skips the rows of the earlier pages', () => {
    expect(resolvePage({ page: 3, limit: 15 }, CLAMPED)).toEqual({ page: 3, limit: 15, skip: 30 });
  });

  test('a limit equal to the max is kept', () => {
    expect(resolvePage({ limit: 20 }, CLAMPED)).toEqual({ page: 1, limit: 20, skip: 0 });
  });

  test('a limit above the max of a clamping rule is clamped silently', () => {
    expect(resolvePage({ limit: 21 }, CLAMPED)).toEqual({ page: 1, limit: 20, skip: 0 });
    expect(resolvePage({ limit: 1000 }, CLAMPED)).toEqual({ page: 1, limit: 20, skip: 0 });
  });

  test('skip uses the clamped limit', () => {
    expect(resolvePage({ page: 2, limit: 50 }, CLAMPED)).toEqual({ page: 2, limit: 20, skip: 20 });
  });

  test('a limit of 1 is accepted', () => {
    expect(resolvePage({ limit: 1 }, STRICT)).toEqual({ page: 1, limit: 1, skip: 0 });
  });

  test('a limit equal to the max of a rejecting rule is accepted', () => {
    expect(resolvePage({ limit: 100 }, STRICT)).toEqual({ page: 1, limit: 100, skip: 0 });
  });

  test('a limit above the max of a rejecting rule answers 400 naming the range', () => {
    const error = refusal(() => resolvePage({ limit: 101 }, STRICT));
    expect(error.message).toBe('limit must be between 1 and 100');
    expect(error.status).toBe(400);
  });

  test('limit=0 of a rejecting rule answers 400 naming the range', () => {
    expect(refusal(() => resolvePage({ limit: 0 }, STRICT)).message).toBe(
      'limit must be between 1 and 100',
    );
  });

  test('limit=0 of a clamping rule answers 400', () => {
    expect(refusal(() => resolvePage({ limit: 0 }, CLAMPED)).message).toBe(
      'limit must be an integer >= 1',
    );
  });

  test('a negative limit answers 400', () => {
    expect(refusal(() => resolvePage({ limit: -5 }, CLAMPED)).message).toBe(
      'limit must be an integer >= 1',
    );
  });

  test('page=0 answers 400', () => {
    expect(refusal(() => resolvePage({ page: 0 }, CLAMPED)).message).toBe(
      'page must be an integer >= 1',
    );
  });

  test('a negative page answers 400', () => {
    expect(refusal(() => resolvePage({ page: -1 }, STRICT)).message).toBe(
      'page must be an integer >= 1',
    );
  });

  test('a page beyond the last one is allowed (it is simply empty)', () => {
    expect(resolvePage({ page: 1000, limit: 10 }, CLAMPED)).toEqual({
      page: 1000,
      limit: 10,
      skip: 9990,
    });
  });
});

describe('pageInfo', () => {
  const firstPage = { page: 1, limit: 10, skip: 0 };

  test('no rows: zero pages', () => {
    expect(pageInfo(0, firstPage)).toEqual({ total: 0, page: 1, limit: 10, totalPages: 0 });
  });

  test('one row: one page', () => {
    expect(pageInfo(1, firstPage)).toEqual({ total: 1, page: 1, limit: 10, totalPages: 1 });
  });

  test('exactly one full page: one page', () => {
    expect(pageInfo(10, firstPage)).toEqual({ total: 10, page: 1, limit: 10, totalPages: 1 });
  });

  test('one row past a full page: a second page', () => {
    expect(pageInfo(11, firstPage)).toEqual({ total: 11, page: 1, limit: 10, totalPages: 2 });
  });

  test('reports the requested page and the effective limit', () => {
    expect(pageInfo(45, { page: 3, limit: 20, skip: 40 })).toEqual({
      total: 45,
      page: 3,
      limit: 20,
      totalPages: 3,
    });
  });
});

describe('findPage', () => {
  const rule = { defaultLimit: 10, maxLimit: 100, aboveMax: 'clamp' as const };
  const where = { affiliateId: 'me' };
  const order = [{ createdAt: 'desc' }, { id: 'desc' }];
  const selection = { select: { id: true, name: true } };
  /** A model delegate that records its queries; an ids query finds `ids`. */
  const rowsFinding = (ids: string[]) => {
    const calls: Record<string, unknown>[] = [];
    const findMany = async (args: Record<string, unknown>) => {
      calls.push(args);
      return args.select === selection.select ? [{ id: 'row' }] : ids.map((id) => ({ id }));
    };
    return { calls, rows: { findMany, count: async () => 0, findFirst: async () => null } };
  };

  test('a page before FIND_IDS_FROM_OFFSET is one query by offset', async () => {
    const { calls, rows } = rowsFinding(['a']);
    const page = resolvePage({ page: FIND_IDS_FROM_OFFSET / 10, limit: 10 }, rule);
    await findPage(rows, where, order, page, selection);
    expect(calls).toEqual([
      { ...selection, where, orderBy: order, skip: FIND_IDS_FROM_OFFSET - 10, take: 10 },
    ]);
  });

  test("from FIND_IDS_FROM_OFFSET on: the page's ids by offset, then its rows by id, the filter kept", async () => {
    const { calls, rows } = rowsFinding(['a', 'b']);
    const page = resolvePage({ page: FIND_IDS_FROM_OFFSET / 10 + 1, limit: 10 }, rule);
    await findPage(rows, where, order, page, selection);
    expect(calls).toEqual([
      { where, orderBy: order, skip: FIND_IDS_FROM_OFFSET, take: 10, select: { id: true } },
      { ...selection, where: { AND: [where, { id: { in: ['a', 'b'] } }] }, orderBy: order },
    ]);
  });

  test('a deep page past the end reads no rows', async () => {
    const { calls, rows } = rowsFinding([]);
    const page = resolvePage({ page: 5_000, limit: 10 }, rule);
    await expect(findPage(rows, where, order, page, selection)).resolves.toEqual([]);
    expect(calls).toHaveLength(1);
  });
});

// GET /affiliate/channels and /affiliate/channels/{channelId} against the contract: the key's
// affiliate's channels only, WhiteLabel never, at most 20, `{ data, count }`.
import { prisma } from '../../src/platform/db';
import { listedChannelWhere } from '../../src/modules/catalog/channels';
import { createApiKey, createChannel, createChannelType } from '../support/factories';
import { call, graphql, useTestDatabase, expectError } from '../support/app';

useTestDatabase();

const at = (day: number) => new Date(Date.UTC(2025, 0, 1 + day));

interface Affiliate {
  key: string;
  id: string;
}

async function createAffiliate(scopes?: string[]): Promise<Affiliate> {
  const { apiKey, row } = await createApiKey('affiliate', scopes ? { scopes } : {});
  return { key: apiKey, id: row.ownerId };
}

let many: Affiliate; // 25 listed channels and a WhiteLabel one
let few: Affiliate; // two listed channels and a WhiteLabel one
let manyWhiteLabel: { id: string };
const fewChannels: Record<string, { id: string }> = {};

beforeAll(async () => {
  const blog = await createChannelType('Blog');
  const push = await createChannelType('Push notification');
  const whiteLabel = await createChannelType('WhiteLabel', true);

  many = await createAffiliate();
  // The WhiteLabel channel is the oldest, so it would lead the list if it were not excluded.
  manyWhiteLabel = await createChannel(many.id, whiteLabel.id, { createdAt: at(0) });
  for (let day = 1; day <= 25; day += 1) {
    await createChannel(many.id, blog.id, { createdAt: at(day) });
  }

  few = await createAffiliate();
  fewChannels.whiteLabel = await createChannel(few.id, whiteLabel.id, { createdAt: at(0) });
  fewChannels.push = await createChannel(few.id, push.id, { createdAt: at(2), active: false });
  fewChannels.blog = await createChannel(few.id, blog.id, { createdAt: at(1) });
});

const get = (path: string, key: string) => call(path, { key });

describe('GET /affiliate/channels', () => {
  test("answers { data, count } with the affiliate's listed channels, oldest first", async () => {
    const { status, body } = await get('/affiliate/channels', few.key);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['data', 'count']);
    expect(body).toEqual({
      data: [
        {
          id: fewChannels.blog!.id,
          name: 'Blog',
          active: true,
          createdAt: '2025-01-02T00:00:00.000Z',
        },
        {
          id: fewChannels.push!.id,
          name: 'Push notification',
          active: false,
          createdAt: '2025-01-03T00:00:00.000Z',
        },
      ],
      count: 2,
    });
  });

  test('returns at most 20 channels and counts those returned', async () => {
    const { status, body } = await get('/affiliate/channels', many.key);
    expect(status).toBe(200);
    expect(body.count).toBe(20);
    expect(body.data).toHaveLength(20);
    expect(body.data[0].createdAt).toBe(at(1).toISOString());
    expect(body.data[19].createdAt).toBe(at(20).toISOString());
  });

  test('never lists a WhiteLabel channel', async () => {
    const { body } = await get('/affiliate/channels', many.key);
    expect(body.data.map((channel: { id: string }) => channel.id)).not.toContain(manyWhiteLabel.id);
    expect(body.data.every((channel: { name: string }) => channel.name === 'Blog')).toBe(true);
  });

  test('an affiliate without channels gets an empty list', async () => {
    const { key } = await createAffiliate();
    expect((await get('/affiliate/channels', key)).body).toEqual({ data: [], count: 0 });
  });

  test('takes no parameters: page and limit are ignored', async () => {
    const { status, body } = await get('/affiliate/channels?limit=1&page=3', many.key);
    expect(status).toBe(200);
    expect(body.count).toBe(20);
  });

  test('a key whose affiliate account was closed answers 404', async () => {
    const closed = await createAffiliate();
    await prisma.user.update({ where: { id: closed.id }, data: { deletedAt: new Date() } });
    const { status, body } = await get('/affiliate/channels', closed.key);
    expectError({ status, body }, 'NOT_FOUND');
    expect(body.message).toContain('Affiliate');
  });
});

describe('GET /affiliate/channels/{channelId}', () => {
  test('answers { data: channel }', async () => {
    const { status, body } = await get(`/affiliate/channels/${fewChannels.push!.id}`, few.key);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        id: fewChannels.push!.id,
        name: 'Push notification',
        active: false,
        createdAt: '2025-01-03T00:00:00.000Z',
      },
    });
  });

  test('accepts an upper-case UUID', async () => {
    const { body } = await get(
      `/affiliate/channels/${fewChannels.blog!.id.toUpperCase()}`,
      few.key,
    );
    expect(body.data.id).toBe(fewChannels.blog!.id);
  });

  test.each([
    ["another affiliate's channel", () => fewChannels.blog!.id],
    ['a WhiteLabel channel of its own', () => manyWhiteLabel.id],
    ['an unknown id', () => '00000000-0000-4000-8000-000000000000'],
    ['a non-UUID id', () => 'not-a-uuid'],
    ['an injection attempt', () => "1'%20OR%20'1'='1"],
  ])('answers 404 for %s', async (_case, channelId) => {
    const { status, body } = await get(`/affiliate/channels/${channelId()}`, many.key);
    expectError({ status, body }, 'NOT_FOUND');
  });

  test('a key whose affiliate account was closed answers 404', async () => {
    const closed = await createAffiliate();
    const type = await createChannelType();
    const channel = await createChannel(closed.id, type.id);
    await prisma.user.update({ where: { id: closed.id }, data: { deletedAt: new Date() } });
    const { status, body } = await get(`/affiliate/channels/${channel.id}`, closed.key);
    expectError({ status, body }, 'NOT_FOUND');
  });
});

describe('GraphQL answers what REST answers', () => {
  test('affiliateChannels and affiliateChannel', async () => {
    const rest = await get('/affiliate/channels', few.key);
    const restOne = await get(`/affiliate/channels/${fewChannels.blog!.id}`, few.key);
    const { body } = await graphql(
      `
        query ($channelId: ID!) {
          affiliateChannels {
            data {
              id
              name
              active
              createdAt
            }
            count
          }
          affiliateChannel(channelId: $channelId) {
            data {
              id
              name
              active
              createdAt
            }
          }
        }
      `,
      { channelId: fewChannels.blog!.id },
      { key: few.key },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.affiliateChannels).toEqual(rest.body);
    expect(body.data.affiliateChannel).toEqual(restOne.body);
  });
});

describe('where-clauses', () => {
  test('listedChannelWhere scopes to the affiliate and leaves WhiteLabel out', () => {
    expect(listedChannelWhere('a')).toEqual({ userId: 'a', type: { isWhiteLabel: false } });
  });
});

// What webhook endpoints and postbacks share as delivery targets: a target found only by its
// owner, and what an update's `enabled` writes.
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../src/platform/errors';
import { enabledChange, ownedOrNotFound } from '../../src/schema/deliveryTargets';

describe('ownedOrNotFound', () => {
  test('answers the row the owner filter finds', async () => {
    const id = randomUUID();
    await expect(ownedOrNotFound('Postback', id, async () => ({ id }))).resolves.toEqual({ id });
  });

  test('is NOT_FOUND, naming the row, when the filter finds nothing', async () => {
    const id = randomUUID();
    const refused = ownedOrNotFound('Webhook endpoint', id, async () => null);
    await expect(refused).rejects.toBeInstanceOf(NotFoundError);
    await expect(refused).rejects.toThrow(`Webhook endpoint ${id} not found`);
  });

  test('is NOT_FOUND for an id that is no UUID, without a lookup', async () => {
    const find = jest.fn(async () => ({ id: 'x' }));
    await expect(ownedOrNotFound('Postback', 'not-a-uuid', find)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(find).not.toHaveBeenCalled();
  });
});

describe('enabledChange', () => {
  test('true resumes the target and clears a failing or disabled state', () => {
    expect(enabledChange(true, false)).toEqual({
      enabled: true,
      failingSince: null,
      disabledAt: null,
      disabledReason: null,
    });
  });

  test('false pauses an enabled target, as its owner did', () => {
    const change = enabledChange(false, true);
    expect(change).toEqual({ enabled: false, disabledAt: expect.any(Date), disabledReason: null });
  });

  test('false leaves a paused or disabled target as it is; absent changes nothing', () => {
    expect(enabledChange(false, false)).toEqual({});
    expect(enabledChange(undefined, true)).toEqual({});
    expect(enabledChange(null, false)).toEqual({});
  });
});

// Tracker presets: from the tracker's postback address, the parameters its documentation names,
// its status words and its success text; a key in Keitaro's path becomes {secret}.
import { applyPreset, PRESETS, TRACKERS } from '../../src/modules/postbacks/presets';
import { parseUrlTemplate, TemplateError } from '../../src/modules/postbacks/templates';

describe('applyPreset', () => {
  test('Keitaro: subid, tid, status, payout, currency, the other sub-IDs, return=OK; its postback key becomes {secret}', () => {
    expect(applyPreset('KEITARO', 'https://tracker.example.com/7d5e8a0/postback')).toEqual({
      events: ['order.created', 'order.status_changed', 'order.adjusted'],
      statuses: [],
      method: 'GET',
      urlTemplate:
        'https://tracker.example.com/{secret}/postback?subid={sub1}&tid={order_id}&status={status}&payout={payout}&currency={currency}&sub_id_2={sub2}&sub_id_3={sub3}&sub_id_4={sub4}&sub_id_5={sub5}&return=OK',
      // Keitaro documents no move from sale back to lead: an approval taken back is a rejection.
      statusMap: {
        PENDING: 'lead',
        APPROVED: 'sale',
        PAID: 'sale',
        REJECTED: 'rejected',
        UNAPPROVED: 'rejected',
      },
      typeMap: {},
      payoutRule: 'EARNINGS',
      successText: 'OK',
      secret: '7d5e8a0',
    });
  });

  test('Voluum: cid, payout, txid, currency and the other sub-IDs, sent once an order is final; the placeholders of its copied URL are replaced', () => {
    expect(
      applyPreset(
        'VOLUUM',
        'https://abc.voluumtrk.com/postback?cid=REPLACE&payout=OPTIONAL&txid=OPTIONAL',
        2,
      ),
    ).toEqual({
      events: ['order.locked', 'order.paid'],
      statuses: ['APPROVED', 'PAID'],
      method: 'GET',
      urlTemplate:
        'https://abc.voluumtrk.com/postback?cid={sub2}&payout={payout}&txid={order_id}&currency={currency}&param1={sub1}&param3={sub3}&param4={sub4}&param5={sub5}',
      statusMap: { PENDING: 'pending', APPROVED: 'approved', PAID: 'paid', REJECTED: 'rejected' },
      typeMap: {},
      payoutRule: 'EARNINGS',
      successText: null,
      secret: null,
    });
  });

  test('RedTrack: clickid, sum owed, status and type in its words, and the conversion key as the event id', () => {
    expect(applyPreset('REDTRACK', 'https://track.example.net/postback')).toMatchObject({
      urlTemplate:
        'https://track.example.net/postback?clickid={sub1}&sum={payout}&status={status}&type={type}&rdtk_event_id={conversion_key}',
      statusMap: {
        PENDING: 'Pending',
        APPROVED: 'Approved',
        PAID: 'Approved',
        REJECTED: 'Declined',
      },
      typeMap: { PENDING: 'Lead', APPROVED: 'Purchase', PAID: 'Purchase', REJECTED: 'Lead' },
      payoutRule: 'OWED',
    });
  });

  test('Binom: cnv_id, payout owed, cnv_status, cnv_currency; its own parameters are kept', () => {
    expect(applyPreset('BINOM', 'https://binom.example.org/click.php?to_offer=2')).toMatchObject({
      urlTemplate:
        'https://binom.example.org/click.php?to_offer=2&cnv_id={sub1}&payout={payout}&cnv_status={status}&cnv_currency={currency}',
      payoutRule: 'OWED',
      secret: null,
    });
  });

  test.each(TRACKERS)(
    '%s: the template parses, and the preset names its documentation',
    (tracker) => {
      const { urlTemplate } = applyPreset(tracker, 'https://t.example/a/postback');
      expect(() => parseUrlTemplate(urlTemplate)).not.toThrow();
      expect(PRESETS[tracker].source).toMatch(/^https:\/\/(docs|doc|help)\./);
    },
  );

  test.each([
    [
      'not a url',
      'baseUrl must be the tracker’s postback address, like https://tracker.example.com/postback',
    ],
    ['ftp://t.example/postback', 'baseUrl must be http or https'],
  ])('refuses the base URL %s', (baseUrl, message) => {
    expect(() => applyPreset('BINOM', baseUrl)).toThrow(new TemplateError(message));
  });

  test('refuses a click-id sub-ID outside 1-5', () => {
    expect(() => applyPreset('BINOM', 'https://t.example/', 6)).toThrow(
      'clickIdSubId must be 1, 2, 3, 4 or 5',
    );
  });
});

// Closing the database (SIGTERM, the end of a test file) while a LISTEN still waits its turn: the
// refused LISTEN is dropped, not left as an unhandled rejection, which would end the process with
// an error instead of a clean exit.
import {
  closeDatabase,
  isEmbeddedDatabase,
  listenToDatabase,
  withSqlConnection,
} from '../../src/platform/db';

const onPglite = isEmbeddedDatabase ? test : test.skip;

onPglite('a LISTEN still queued when the embedded database closes is dropped quietly', async () => {
  const rejections: unknown[] = [];
  const record = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', record);
  try {
    await withSqlConnection((connection) => connection.query('SELECT 1'));
    // A process listens on a few channels; their LISTENs take turns, so the last still waits.
    for (const channel of ['first', 'second', 'third']) {
      listenToDatabase(channel, { onMessage: () => undefined, onListening: () => undefined });
    }
    await closeDatabase();
    // The refused LISTEN settles within the turns that follow the close; a rejection nobody
    // handles is reported in the same turns.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(rejections).toEqual([]);
  } finally {
    process.off('unhandledRejection', record);
  }
});

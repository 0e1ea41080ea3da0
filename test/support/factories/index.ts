// Rows for tests, created on the real client with sensible defaults; each call makes new rows.
export * from './accounts';
export * from './affiliation';
export * from './catalog';
export * from './commerce';
export * from './links';
export * from './payouts';

// Opens embedded PGlite with the extensions the migrations create (pg_trgm: the trigram indexes
// of the `search` filters). PGlite bundles contrib extensions but loads only those named here.
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** `dataDir`: a folder, or none for an in-memory database; `template`: a dump a new one starts from. */
export function openPGlite(dataDir?: string, template?: Blob): PGlite {
  return new PGlite({ dataDir, extensions: { pg_trgm }, loadDataDir: template });
}

// Prisma's WebAssembly schema engine (@prisma/schema-engine-wasm) on embedded PGlite: the engine
// behind `prisma migrate diff` and `prisma migrate status`. Prisma 7's CLI runs those commands only
// with its native schema engine, a download, so the project drives the WASM engine itself (as the
// prisma-pglite package does): the history is replayed on a throw-away PGlite, then diffed.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { messages, type PGlite } from '@electric-sql/pglite';
import {
  bindMigrationAwareSqlAdapterFactory,
  DriverAdapterError,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type {
  DiagnoseMigrationHistoryOutput,
  MigrationList,
  SchemaEngine,
} from '@prisma/schema-engine-wasm/schema_engine_bg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { openPGlite } from '../src/platform/pglite';

type EngineModule = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');

// No table or enum is managed outside the migrations.
const NO_EXTERNAL = { externalTables: [], externalEnums: [] };

let engineModule: Promise<EngineModule> | undefined;

/**
 * The package's entry imports the .wasm file as a module (an experimental Node flag); its JS glue
 * is loaded instead and given the instantiated WASM module.
 */
function loadEngine(): Promise<EngineModule> {
  engineModule ??= (async () => {
    const glue: EngineModule = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmPath = path.join(
      path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg')),
      'schema_engine_bg.wasm',
    );
    const wasm = new WebAssembly.Instance(new WebAssembly.Module(await readFile(wasmPath)), {
      './schema_engine_bg.js': glue as unknown as WebAssembly.ModuleImports,
    });
    (glue as unknown as { __wbg_set_wasm(exports: unknown): void }).__wbg_set_wasm(wasm.exports);
    (wasm.exports as { __wbindgen_start(): void }).__wbindgen_start();
    return glue;
  })();
  return engineModule;
}

/**
 * The PGlite driver adapter, with `executeScript` (how the engine runs each migration file) waiting
 * for the script and reporting PostgreSQL's error: pglite-prisma-adapter 0.7.2 starts the script
 * and returns at once.
 */
function migrationAdapter(pglite: PGlite): SqlMigrationAwareDriverAdapterFactory {
  const factory = new PrismaPGlite(pglite);
  const withScripts = async (adapter: SqlDriverAdapter) => {
    adapter.executeScript = async (script) => {
      try {
        await pglite.exec(script);
      } catch (error) {
        if (!(error instanceof messages.DatabaseError)) throw error;
        throw new DriverAdapterError({
          kind: 'postgres',
          code: error.code ?? 'N/A',
          severity: error.severity ?? 'N/A',
          message: error.message,
          detail: error.detail,
          column: error.column,
          hint: error.hint,
        });
      }
    };
    return adapter;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => withScripts(await factory.connect()),
    connectToShadowDb: () => {
      throw new Error('no shadow database: the history is replayed on a throw-away PGlite instead');
    },
  };
}

async function withSchemaEngine<T>(
  pglite: PGlite,
  work: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await loadEngine();
  const adapter = bindMigrationAwareSqlAdapterFactory(migrationAdapter(pglite));
  const engine = await SchemaEngine.new({ datamodels: undefined }, () => {}, adapter);
  try {
    return await work(engine);
  } finally {
    engine.free();
  }
}

/** The migrations folder as the engine reads it (what Prisma's CLI hands it). */
export async function readMigrationList(migrationsDir: string): Promise<MigrationList> {
  const baseDir = path.resolve(migrationsDir);
  const entries = await readdir(baseDir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const lockfile = entries.some((entry) => entry.name === 'migration_lock.toml')
    ? await readFile(path.join(baseDir, 'migration_lock.toml'), 'utf8')
    : null;
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: lockfile },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: {
            tag: 'ok' as const,
            value: await readFile(path.join(baseDir, name, 'migration.sql'), 'utf8'),
          },
        },
      })),
    ),
  };
}

/**
 * The SQL that takes a database made by the migrations in `migrationsDir` to `schemaPath`
 * (`prisma migrate diff --from-migrations … --to-schema … --script`), or undefined when they agree.
 */
export async function migrationDiff(options: {
  migrationsDir: string;
  schemaPath: string;
}): Promise<string | undefined> {
  const migrations = await readMigrationList(options.migrationsDir);
  const schemaPath = path.resolve(options.schemaPath);
  const files = [{ path: schemaPath, content: await readFile(schemaPath, 'utf8') }];
  const pglite = openPGlite();
  try {
    return await withSchemaEngine(pglite, async (engine) => {
      if (migrations.migrationDirectories.length > 0) {
        await engine.applyMigrations({ migrationsList: migrations, filters: NO_EXTERNAL });
      }
      const { exitCode, stdout } = await engine.diff({
        from: { tag: 'schemaDatasource', files, configDir: path.dirname(schemaPath) },
        to: { tag: 'schemaDatamodel', files },
        script: true,
        // 2 when there is a difference, 0 when there is none.
        exitCode: true,
        filters: NO_EXTERNAL,
      });
      return exitCode === 2 && stdout ? stdout : undefined;
    });
  } finally {
    await pglite.close();
  }
}

/**
 * What the engine finds comparing a database's `_prisma_migrations` with `migrationsDir`
 * (what `prisma migrate status` reports). Read-only.
 */
export async function migrationStatus(options: {
  pglite: PGlite;
  migrationsDir: string;
}): Promise<DiagnoseMigrationHistoryOutput> {
  const migrations = await readMigrationList(options.migrationsDir);
  return withSchemaEngine(options.pglite, (engine) =>
    engine.diagnoseMigrationHistory({
      migrationsList: migrations,
      optInToShadowDatabase: false,
      filters: NO_EXTERNAL,
    }),
  );
}

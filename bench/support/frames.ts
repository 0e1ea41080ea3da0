// A V8 profile's frames: where each function lives (a package, the service's own code, node), its
// name in reports, and its place in the source when it ran from the bundle (its source map).
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './processes';

export interface CallFrame {
  functionName: string;
  url: string;
  /** Zero-based, as V8 counts. */
  lineNumber: number;
  columnNumber: number;
}

/** Where a function lives: a package of node_modules, the service's own code, or node itself. */
export function ownerOf(url: string): string {
  if (!url) return '(native / V8)';
  // The only WebAssembly the service runs on PostgreSQL (PGlite is never started there).
  if (url.startsWith('wasm://')) return 'Prisma query compiler (wasm)';
  if (url.startsWith('node:')) return 'node core';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  const local = url.replace(/^file:\/\//, '');
  return local.startsWith(REPO_ROOT) ? path.relative(REPO_ROOT, local).split('/')[0]! : local;
}

export function frameName({ functionName, url, lineNumber }: CallFrame): string {
  const where = url
    ? `${url.replace(/^file:\/\//, '').replace(`${REPO_ROOT}/`, '')}:${lineNumber + 1}`
    : '';
  return `${functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
}

/** The source map beside a compiled file (`<file>.map`), read once; null when it has none. */
export type SourceMaps = (file: string) => SourceMap | null;

export function sourceMapsBesideFiles(): SourceMaps {
  const maps = new Map<string, SourceMap | null>();
  return (file) => {
    if (!maps.has(file)) {
      const mapFile = `${file}.map`;
      maps.set(
        file,
        existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : null,
      );
    }
    return maps.get(file)!;
  };
}

/** The frame at its place in the source, when it ran from a bundle with a source map. */
export function sourceFrame(frame: CallFrame, sourceMaps: SourceMaps): CallFrame {
  if (!frame.url || frame.url.includes('node_modules') || !/^(file:\/\/)?\//.test(frame.url)) {
    return frame;
  }
  const file = frame.url.startsWith('file:') ? fileURLToPath(frame.url) : frame.url;
  const entry = sourceMaps(file)?.findEntry(frame.lineNumber, frame.columnNumber);
  if (!entry || !('originalSource' in entry)) return frame;
  return {
    ...frame,
    url: path.resolve(path.dirname(file), entry.originalSource),
    lineNumber: entry.originalLine,
    columnNumber: entry.originalColumn,
  };
}

/**
 * The entries of a zip archive, read with fflate (stored and deflated entries, the two methods the
 * NSW Valuer General's bulk sales archives use; zip64 too). A zip inside a zip (the yearly archive
 * holds the weekly ones) is opened in turn. Enough for archives that fit in memory. A corrupt or
 * truncated archive is an IngestError naming the file (and the zip it is inside).
 */
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { IngestError } from './gnaf-release.ts';

export type ZipEntry = { name: string; data: Buffer };

export function readZip(path: string): ZipEntry[] {
  return entriesOf(readFileSync(path), path);
}

function entriesOf(zip: Uint8Array, name: string): ZipEntry[] {
  // the central directory's order (an object's keys would put integer-like names first)
  const order: string[] = [];
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, {
      filter: (file) => {
        if (file.name.endsWith('/')) return false;
        if (file.compression !== 0 && file.compression !== 8) {
          throw new IngestError(
            `${name}: entry ${file.name} uses zip method ${file.compression}; only stored and deflated are read`,
          );
        }
        // a name the directory holds twice is read once (fflate keeps the last)
        if (!order.includes(file.name)) order.push(file.name);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof IngestError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw new IngestError(`${name} is not a readable zip archive (corrupt or truncated: ${why})`);
  }
  const entries: ZipEntry[] = [];
  for (const entryName of order) {
    const data = files[entryName]!;
    if (/\.zip$/i.test(entryName)) entries.push(...entriesOf(data, `${name}/${entryName}`));
    else entries.push({ name: `${name}/${entryName}`, data: Buffer.from(data.buffer, data.byteOffset, data.length) });
  }
  return entries;
}

/**
 * The entries of a zip archive, read with node:zlib alone (stored and deflated entries, the two
 * methods the NSW Valuer General's bulk sales archives use). A zip inside a zip (the yearly
 * archive holds the weekly ones) is opened in turn. Enough for archives that fit in memory.
 */
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { IngestError } from './gnaf-release.ts';

export type ZipEntry = { name: string; data: Buffer };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export function readZip(path: string): ZipEntry[] {
  return entriesOf(readFileSync(path), path);
}

function entriesOf(zip: Buffer, name: string): ZipEntry[] {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65_535); i -= 1) {
    if (zip.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new IngestError(`${name} is not a zip archive (no end of central directory)`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n += 1) {
    if (zip.readUInt32LE(at) !== CENTRAL) throw new IngestError(`${name}: a damaged zip central directory`);
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const entryName = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (entryName.endsWith('/')) continue;
    if (zip.readUInt32LE(local) !== LOCAL) throw new IngestError(`${name}: a damaged zip entry ${entryName}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + size);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw);
    else
      throw new IngestError(`${name}: entry ${entryName} uses zip method ${method}; only stored and deflated are read`);
    if (/\.zip$/i.test(entryName)) entries.push(...entriesOf(data, `${name}/${entryName}`));
    else entries.push({ name: `${name}/${entryName}`, data });
  }
  return entries;
}

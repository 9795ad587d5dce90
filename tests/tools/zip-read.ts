/**
 * Reading a zip's central directory and one entry (stored or deflated): enough to check what
 * `npm run zip` and `npm run store` made, without an unzip tool or library.
 */
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  localHeader: number;
}

function entries(zip: Buffer, path: string): Entry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${path}: no end of central directory`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const found: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${path}: bad central directory entry ${i}`);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    found.push({
      name: zip.subarray(at + 46, at + 46 + nameLength).toString('utf8'),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      localHeader: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return found;
}

/** The names of the files in the zip at `path`. */
export function zipEntries(path: string): string[] {
  return entries(readFileSync(path), path).map((e) => e.name);
}

/** One file of the zip at `path`, or undefined when it holds none of that name. */
export function zipFile(path: string, name: string): Buffer | undefined {
  const zip = readFileSync(path);
  const entry = entries(zip, path).find((e) => e.name === name);
  if (!entry) return undefined;
  const start =
    entry.localHeader + 30 + zip.readUInt16LE(entry.localHeader + 26) + zip.readUInt16LE(entry.localHeader + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return Buffer.from(data);
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`${path}: ${name} is compressed with method ${entry.method}`);
}

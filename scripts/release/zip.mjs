// Reads a zip archive (a .vsix) from its central directory: the entry names, and one entry's bytes
// (stored or deflated, the two methods vsce writes). Enough to check a release without an unzip tool.
import { inflateRawSync } from 'node:zlib';
import { ReleaseError } from './errors.mjs';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;

function endOfCentralDirectory(zip) {
  // The record is 22 bytes plus a comment of at most 65 535 bytes, at the very end.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--)
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  throw new ReleaseError('not a zip archive (no end of central directory record)');
}

/** The archive's entries in central-directory order: name, compression method, sizes, local header offset. */
export function zipEntries(zip) {
  const end = endOfCentralDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_FILE_HEADER) throw new ReleaseError(`zip entry ${i}: bad central header`);
    const nameLength = zip.readUInt16LE(at + 28);
    entries.push({
      name: zip.toString('utf8', at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      offset: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** One entry's bytes. */
export function zipRead(zip, entry) {
  const at = entry.offset;
  if (zip.readUInt32LE(at) !== LOCAL_FILE_HEADER) throw new ReleaseError(`${entry.name}: bad local header`);
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return Buffer.from(data);
  if (entry.method === 8) return inflateRawSync(data);
  throw new ReleaseError(`${entry.name}: compression method ${entry.method} is not read here`);
}

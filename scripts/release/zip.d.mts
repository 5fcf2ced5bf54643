export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly offset: number;
}
export function zipEntries(zip: Buffer): ZipEntry[];
export function zipRead(zip: Buffer, entry: ZipEntry): Buffer;

// A zip archive written while its files arrive: each entry stored as is (DICOM does not compress
// well and the archive must start at once), its CRC and sizes in a data descriptor after the data,
// the central directory at the end. Zip64 records are added only where an offset or the number of
// entries outgrows the classic fields (a study over 4 GiB or 65,535 instances); one entry stays
// under 4 GiB (a DICOM instance cannot be larger), beyond which the stream fails rather than write
// an archive no one can open.
import { crc32 } from 'node:zlib';

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
/** Bit 3: sizes and CRC follow the data; bit 11: the name is UTF-8. */
const FLAGS = 0x0008 | 0x0800;

export type TZipEvent =
  { type: 'file'; name: string } | { type: 'data'; chunk: Buffer } | { type: 'end-file' };

export type TZipOptions = {
  now?: Date;
  /** Offsets and counts from which Zip64 records are written (tests lower them). */
  zip64From?: { offset: number; entries: number };
};

type TEntry = { name: Buffer; offset: number; crc: number; size: number };

function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((Math.max(date.getFullYear(), 1980) - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

function localHeader(name: Buffer, stamp: { time: number; date: number }): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(FLAGS, 6);
  header.writeUInt16LE(0, 8); // stored
  header.writeUInt16LE(stamp.time, 10);
  header.writeUInt16LE(stamp.date, 12);
  // CRC and sizes (14..25) stay 0: the data descriptor carries them.
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(0, 28);
  return Buffer.concat([header, name]);
}

function dataDescriptor(entry: TEntry): Buffer {
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(entry.crc >>> 0, 4);
  descriptor.writeUInt32LE(entry.size, 8);
  descriptor.writeUInt32LE(entry.size, 12);
  return descriptor;
}

function directoryRecord(entry: TEntry, stamp: { time: number; date: number }, zip64: boolean): Buffer {
  // Zip64 extra field (id 1) with the local header's offset, whose classic field then reads 0xFFFFFFFF.
  const extra = zip64 ? Buffer.alloc(12) : Buffer.alloc(0);
  if (zip64) {
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(8, 2);
    extra.writeBigUInt64LE(BigInt(entry.offset), 4);
  }
  const record = Buffer.alloc(46);
  record.writeUInt32LE(0x02014b50, 0);
  record.writeUInt16LE(zip64 ? 45 : 20, 4); // made by: MS-DOS
  record.writeUInt16LE(zip64 ? 45 : 20, 6);
  record.writeUInt16LE(FLAGS, 8);
  record.writeUInt16LE(0, 10);
  record.writeUInt16LE(stamp.time, 12);
  record.writeUInt16LE(stamp.date, 14);
  record.writeUInt32LE(entry.crc >>> 0, 16);
  record.writeUInt32LE(entry.size, 20);
  record.writeUInt32LE(entry.size, 24);
  record.writeUInt16LE(entry.name.length, 28);
  record.writeUInt16LE(extra.length, 30);
  // comment, disk, internal and external attributes: 0
  record.writeUInt32LE(zip64 ? MAX32 : entry.offset, 42);
  return Buffer.concat([record, entry.name, extra]);
}

function endRecords(
  count: number,
  directory: { offset: number; size: number },
  zip64: boolean,
  endOffset: number,
): Buffer {
  const parts: Buffer[] = [];
  if (zip64) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE(45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(count), 24);
    record.writeBigUInt64LE(BigInt(count), 32);
    record.writeBigUInt64LE(BigInt(directory.size), 40);
    record.writeBigUInt64LE(BigInt(directory.offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(endOffset), 8);
    locator.writeUInt32LE(1, 16);
    parts.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? MAX16 : count, 8);
  end.writeUInt16LE(zip64 ? MAX16 : count, 10);
  end.writeUInt32LE(zip64 ? MAX32 : directory.size, 12);
  end.writeUInt32LE(zip64 ? MAX32 : directory.offset, 16);
  parts.push(end);
  return Buffer.concat(parts);
}

/** The zip's bytes for a sequence of files (name, its data in pieces, end), as they come. */
export async function* zipStream(
  events: AsyncIterable<TZipEvent>,
  options: TZipOptions = {},
): AsyncGenerator<Buffer> {
  const stamp = dosDateTime(options.now ?? new Date());
  const zip64From = options.zip64From ?? { offset: MAX32, entries: MAX16 };
  const entries: TEntry[] = [];
  let offset = 0;
  let current: TEntry | null = null;
  const emit = (buffer: Buffer): Buffer => {
    offset += buffer.length;
    return buffer;
  };

  for await (const event of events) {
    if (event.type === 'file') {
      if (current) throw new Error('a zip entry started inside another');
      current = { name: Buffer.from(event.name, 'utf8'), offset, crc: 0, size: 0 };
      yield emit(localHeader(current.name, stamp));
    } else if (event.type === 'data') {
      if (!current) throw new Error('zip data outside an entry');
      if (current.size + event.chunk.length > MAX32) throw new Error('one instance is larger than 4 GiB');
      current.crc = crc32(event.chunk, current.crc);
      current.size += event.chunk.length;
      yield emit(event.chunk);
    } else {
      if (!current) throw new Error('a zip entry ended that never started');
      entries.push(current);
      yield emit(dataDescriptor(current));
      current = null;
    }
  }
  if (current) throw new Error('the last zip entry never ended');

  const directoryOffset = offset;
  for (const entry of entries) yield emit(directoryRecord(entry, stamp, entry.offset >= zip64From.offset));
  const directory = { offset: directoryOffset, size: offset - directoryOffset };
  const zip64 =
    entries.length >= zip64From.entries ||
    directory.offset >= zip64From.offset ||
    directory.size >= zip64From.offset;
  yield emit(endRecords(entries.length, directory, zip64, offset));
}

/** Multipart parts as zip files named by `nameOf(index)` (a part's start and end become a file's). */
export async function* partsAsFiles(
  parts: AsyncIterable<{ type: 'start' | 'data' | 'end'; chunk?: Buffer }>,
  nameOf: (index: number) => string,
): AsyncGenerator<TZipEvent> {
  let index = 0;
  for await (const part of parts) {
    if (part.type === 'start') yield { type: 'file', name: nameOf(++index) };
    else if (part.type === 'data' && part.chunk) yield { type: 'data', chunk: part.chunk };
    else if (part.type === 'end') yield { type: 'end-file' };
  }
}

// A zip archive written while its files arrive: each entry stored as is (DICOM does not compress
// well and the archive must start at once), its CRC and sizes in a data descriptor after the data,
// the central directory at the end. Without Zip64: at most 65,535 entries and 4 GiB, beyond which
// the stream fails rather than writing an archive no one can open.
import { crc32 } from 'node:zlib';

const LIMIT = 0xffffffff;
const MAX_ENTRIES = 0xffff;
/** Bit 3: sizes and CRC follow the data; bit 11: the name is UTF-8. */
const FLAGS = 0x0008 | 0x0800;

export type TZipEvent =
  { type: 'file'; name: string } | { type: 'data'; chunk: Buffer } | { type: 'end-file' };

type TEntry = { name: Buffer; offset: number; crc: number; size: number };

function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((Math.max(date.getFullYear(), 1980) - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/** The zip's bytes for a sequence of files (name, its data in pieces, end), as they come. */
export async function* zipStream(events: AsyncIterable<TZipEvent>, now = new Date()): AsyncGenerator<Buffer> {
  const stamp = dosDateTime(now);
  const entries: TEntry[] = [];
  let offset = 0;
  let current: TEntry | null = null;
  const emit = (buffer: Buffer): Buffer => {
    offset += buffer.length;
    if (offset > LIMIT) throw new Error('the study is larger than a zip without Zip64 can hold (4 GiB)');
    return buffer;
  };

  for await (const event of events) {
    if (event.type === 'file') {
      if (current) throw new Error('a zip entry started inside another');
      if (entries.length >= MAX_ENTRIES) throw new Error('the study has more instances than a zip can list');
      const name = Buffer.from(event.name, 'utf8');
      current = { name, offset, crc: 0, size: 0 };
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
      yield emit(Buffer.concat([header, name]));
    } else if (event.type === 'data') {
      if (!current) throw new Error('zip data outside an entry');
      current.crc = crc32(event.chunk, current.crc);
      current.size += event.chunk.length;
      yield emit(event.chunk);
    } else {
      if (!current) throw new Error('a zip entry ended that never started');
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(current.crc >>> 0, 4);
      descriptor.writeUInt32LE(current.size, 8);
      descriptor.writeUInt32LE(current.size, 12);
      entries.push(current);
      current = null;
      yield emit(descriptor);
    }
  }
  if (current) throw new Error('the last zip entry never ended');

  const directoryOffset = offset;
  for (const entry of entries) {
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4); // made by: MS-DOS, 2.0
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(FLAGS, 8);
    record.writeUInt16LE(0, 10);
    record.writeUInt16LE(stamp.time, 12);
    record.writeUInt16LE(stamp.date, 14);
    record.writeUInt32LE(entry.crc >>> 0, 16);
    record.writeUInt32LE(entry.size, 20);
    record.writeUInt32LE(entry.size, 24);
    record.writeUInt16LE(entry.name.length, 28);
    // extra, comment, disk, internal and external attributes: 0
    record.writeUInt32LE(entry.offset, 42);
    yield emit(Buffer.concat([record, entry.name]));
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(offset - directoryOffset, 12);
  end.writeUInt32LE(directoryOffset, 16);
  yield emit(end);
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

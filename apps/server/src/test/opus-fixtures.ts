// Opus recordings for tests. fixtures/tone-440hz-1s.webm is what Chromium's MediaRecorder wrote
// ('audio/webm;codecs=opus', 1 s of a 440 Hz tone from an OscillatorNode, stereo). Chromium records
// no Ogg, so the Ogg recording is the same Opus packets written into Ogg pages here (RFC 7845).
import { readFileSync } from 'node:fs';

export const WEBM_TONE = readFileSync(new URL('./fixtures/tone-440hz-1s.webm', import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let crc = n << 24;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  return crc >>> 0;
});

function oggCrc(page: Buffer): number {
  let crc = 0;
  for (const byte of page) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}

function oggPage(packet: Uint8Array, sequence: number, granule: number, flags: number): Buffer {
  const lacing: number[] = [];
  for (let left = packet.byteLength; ; left -= 255) {
    lacing.push(Math.min(255, left));
    if (left < 255) break;
  }
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'ascii');
  header.writeUInt8(flags, 5);
  header.writeBigUInt64LE(BigInt(granule), 6);
  header.writeUInt32LE(0x5249_5331, 14);
  header.writeUInt32LE(sequence, 18);
  header.writeUInt8(lacing.length, 26);
  Buffer.from(lacing).copy(header, 27);
  const page = Buffer.concat([header, packet]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

/** An Ogg Opus file of these packets (one packet a page), `channels` and no pre-skip. */
export function oggOpus(
  packets: readonly Uint8Array[],
  channels: number,
  samples: (p: Uint8Array) => number,
): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'ascii');
  head.writeUInt8(1, 8);
  head.writeUInt8(channels, 9);
  head.writeUInt32LE(48_000, 12);
  const tags = Buffer.concat([
    Buffer.from('OpusTags', 'ascii'),
    Buffer.from([3, 0, 0, 0]),
    Buffer.from('ris'),
    Buffer.alloc(4),
  ]);
  const pages = [oggPage(head, 0, 0, 0x02), oggPage(tags, 1, 0, 0)];
  let granule = 0;
  packets.forEach((packet, index) => {
    granule += samples(packet);
    pages.push(oggPage(packet, index + 2, granule, index === packets.length - 1 ? 0x04 : 0));
  });
  return Buffer.concat(pages);
}

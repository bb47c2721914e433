// Opus recordings, as browsers record them (MediaRecorder: WebM in Chromium, Ogg in Firefox): the
// Opus packets read out of the container here (a small WebM/EBML walker and an Ogg page reader),
// their duration counted from each packet's TOC byte (RFC 6716 §3.1), and decoded with the
// maintained WebAssembly decoder `opus-decoder` straight to 16 kHz, then downmixed to mono.
import { DICTATION_SAMPLE_RATE } from '@ris/domain';
import { OpusDecoder } from 'opus-decoder';
import { WavError } from './wav.ts';

export type TOpusContainer = 'webm' | 'ogg';

export type TOpusStream = { channels: number; preSkip: number; packets: Uint8Array[] };

/** Why a file is not an Opus recording we can read (a WavError: the same "not readable" kind). */
const unreadable = (message: string) => new WavError(message);

/** Samples (at 48 kHz) one Opus packet holds, from its TOC byte and frame count. */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0];
  if (toc === undefined) return 0;
  const config = toc >> 3;
  const frameSamples =
    config < 12
      ? [480, 960, 1920, 2880][config % 4]
      : config < 16
        ? [480, 960][config % 2]
        : [120, 240, 480, 960][config % 4];
  const code = toc & 3;
  const frames = code === 0 ? 1 : code === 3 ? (packet[1] ?? 0) & 0x3f : 2;
  return (frameSamples ?? 0) * frames;
}

/** The stream's length in seconds (its packets' samples, less the decoder's pre-skip). */
export function opusDurationSeconds(stream: TOpusStream): number {
  const samples = stream.packets.reduce((sum, packet) => sum + opusPacketSamples(packet), 0);
  return Math.max(0, samples - stream.preSkip) / 48_000;
}

function readOpusHead(head: Uint8Array): { channels: number; preSkip: number } {
  const text = Buffer.from(head.subarray(0, 8)).toString('ascii');
  if (text !== 'OpusHead' || head.byteLength < 19) throw unreadable('the recording is not Opus audio');
  const view = Buffer.from(head);
  const channels = view.readUInt8(9);
  if (channels < 1 || channels > 2 || view.readUInt8(18) !== 0)
    throw unreadable('only mono or stereo Opus recordings are accepted');
  return { channels, preSkip: view.readUInt16LE(10) };
}

// ---- WebM (Matroska/EBML) ----

const ID = {
  segment: 0x18538067,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  codecId: 0x86,
  codecPrivate: 0x63a2,
  cluster: 0x1f43b675,
  blockGroup: 0xa0,
  block: 0xa1,
  simpleBlock: 0xa3,
} as const;

/** Masters walked into (their children are read in place, also when their size is unknown). */
const MASTERS = new Set<number>([ID.segment, ID.tracks, ID.trackEntry, ID.cluster, ID.blockGroup]);

/** An EBML variable-length integer at `at`: its value (marker removed unless `keepMarker`) and length. */
function vint(
  data: Buffer,
  at: number,
  keepMarker: boolean,
): { value: number; length: number; unknown: boolean } {
  const first = data[at];
  if (first === undefined || first === 0) throw unreadable('the WebM file is cut off or damaged');
  const length = Math.clz32(first) - 23;
  if (length > 8 || at + length > data.byteLength) throw unreadable('the WebM file is cut off or damaged');
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = data[at + i] ?? 0;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

type TWebmTrack = { number: number; codec: string; head: Uint8Array | null };

/** The Opus packets of a WebM file's (first) Opus track. */
export function readWebmOpus(data: Buffer): TOpusStream {
  const tracks: TWebmTrack[] = [];
  let track: TWebmTrack | null = null;
  const blocks: { track: number; payload: Uint8Array }[] = [];
  let at = 0;
  while (at < data.byteLength) {
    const id = vint(data, at, true);
    const size = vint(data, at + id.length, false);
    const body = at + id.length + size.length;
    if (MASTERS.has(id.value)) {
      if (id.value === ID.trackEntry) tracks.push((track = { number: 0, codec: '', head: null }));
      at = body;
      continue;
    }
    if (size.unknown) throw unreadable('the WebM file has an element of unknown size');
    const end = body + size.value;
    if (end > data.byteLength) break; // A recording cut off mid-element: keep what came before.
    const bytes = data.subarray(body, end);
    if (id.value === ID.trackNumber && track) {
      // An unsigned integer (readUIntBE throws on an empty one, and track numbers fit in 6 bytes).
      if (bytes.byteLength < 1 || bytes.byteLength > 6)
        throw unreadable('the WebM file is cut off or damaged');
      track.number = bytes.readUIntBE(0, bytes.byteLength);
    } else if (id.value === ID.codecId && track) track.codec = bytes.toString('ascii');
    else if (id.value === ID.codecPrivate && track) track.head = new Uint8Array(bytes);
    else if (id.value === ID.simpleBlock || id.value === ID.block) {
      const number = vint(bytes, 0, false);
      const flags = bytes[number.length + 2] ?? 0;
      if (((flags >> 1) & 3) !== 0) throw unreadable('laced WebM blocks are not supported');
      blocks.push({ track: number.value, payload: new Uint8Array(bytes.subarray(number.length + 3)) });
    }
    at = end;
  }
  const opus = tracks.find((entry) => entry.codec === 'A_OPUS');
  if (!opus) throw unreadable('the WebM file has no Opus audio');
  const { channels, preSkip } = opus.head ? readOpusHead(opus.head) : { channels: 1, preSkip: 0 };
  const packets = blocks.filter((block) => block.track === opus.number).map((block) => block.payload);
  return { channels, preSkip, packets };
}

// ---- Ogg ----

/** The Opus packets of an Ogg file's first Opus stream. */
export function readOggOpus(data: Buffer): TOpusStream {
  const streams = new Map<number, { packets: Uint8Array[]; pending: Buffer[] }>();
  let at = 0;
  while (at + 27 <= data.byteLength) {
    if (data.toString('ascii', at, at + 4) !== 'OggS') throw unreadable('the Ogg file is damaged');
    const serial = data.readUInt32LE(at + 14);
    const segments = data.readUInt8(at + 26);
    const table = data.subarray(at + 27, at + 27 + segments);
    let offset = at + 27 + segments;
    const stream = streams.get(serial) ?? { packets: [], pending: [] };
    streams.set(serial, stream);
    for (const lace of table) {
      if (offset + lace > data.byteLength) break;
      stream.pending.push(data.subarray(offset, offset + lace));
      offset += lace;
      if (lace < 255) {
        stream.packets.push(new Uint8Array(Buffer.concat(stream.pending)));
        stream.pending = [];
      }
    }
    at = offset;
  }
  for (const { packets } of streams.values()) {
    const [head, , ...audio] = packets;
    if (!head || Buffer.from(head.subarray(0, 8)).toString('ascii') !== 'OpusHead') continue;
    return { ...readOpusHead(head), packets: audio };
  }
  throw unreadable('the Ogg file has no Opus audio');
}

export function readOpus(data: Buffer, container: TOpusContainer): TOpusStream {
  return container === 'webm' ? readWebmOpus(data) : readOggOpus(data);
}

/** 16 kHz s16le mono PCM of an Opus recording. */
export async function decodeOpusToPcm16k(data: Buffer, container: TOpusContainer): Promise<Buffer> {
  const stream = readOpus(data, container);
  const decoder = new OpusDecoder({ channels: stream.channels, sampleRate: DICTATION_SAMPLE_RATE });
  await decoder.ready;
  try {
    const parts: Buffer[] = [];
    // The pre-skip counts 48 kHz samples; the decoder's output is at 16 kHz.
    let skip = Math.round((stream.preSkip * DICTATION_SAMPLE_RATE) / 48_000);
    for (const packet of stream.packets) {
      const { channelData, samplesDecoded } = decoder.decodeFrame(packet);
      const from = Math.min(skip, samplesDecoded);
      skip -= from;
      const out = Buffer.alloc((samplesDecoded - from) * 2);
      for (let i = from; i < samplesDecoded; i++) {
        let sum = 0;
        for (const channel of channelData) sum += channel[i] ?? 0;
        const value = Math.max(-1, Math.min(1, sum / channelData.length));
        out.writeInt16LE(Math.round(value * 32_767), (i - from) * 2);
      }
      parts.push(out);
    }
    return Buffer.concat(parts);
  } finally {
    decoder.free();
  }
}

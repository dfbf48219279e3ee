import { crc32, deflateSync } from 'node:zlib';

/**
 * A real PNG (8-bit RGB) of `width` × `height`, each pixel's colour from `color(x, y)`: images a browser
 * can decode, for the fake image host of e2e tests (generated here, nothing is downloaded).
 */
export function png(
  width: number,
  height: number,
  color: (x: number, y: number) => [number, number, number],
) {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // no filter
    for (let x = 0; x < width; x++) raw.set(color(x, y), row + 1 + x * 3);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A diagonal two-colour gradient picked from the file name, so every image looks different. */
export function gradientFor(file: string, width: number, height: number): Buffer {
  let hash = 0;
  for (const ch of file) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  const a = [hash & 0xff, (hash >> 8) & 0xff, (hash >> 16) & 0xff];
  const b = [255 - a[0]!, (a[1]! + 96) & 0xff, (a[2]! + 160) & 0xff];
  return png(width, height, (x, y) => {
    const t = (x / width + y / height) / 2;
    return [0, 1, 2].map((i) => Math.round(a[i]! * (1 - t) + b[i]! * t)) as [number, number, number];
  });
}

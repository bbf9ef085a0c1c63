// A small zip writer on Node's standard library (node:zlib), so the command needs no package.
// What it writes is what the portal's build check reads: deflated files, Unix modes in the
// external attributes, and links stored as links (their target as the content, mode 0o120777)
// so the server names them instead of the pipeline following them out of the folder.
import { open, readFile, readdir, readlink, lstat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const deflateRaw = promisify(zlib.deflateRaw);

/** CRC-32 as zip needs it: zlib's own where Node has it (20.15 and later), a table otherwise. */
const crc32 = typeof zlib.crc32 === 'function' ? (/** @type {Buffer} */ data) => zlib.crc32(data) : tableCrc32;

/** @type {Uint32Array | undefined} */
let table;
/** @param {Buffer} data */
function tableCrc32(data) {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      let c = n;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of data) crc = /** @type {number} */ (table[(crc ^ byte) & 0xff]) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Zip's DOS time and date of a moment (two seconds' precision, local time as zip tools expect). */
function dosTime(/** @type {Date} */ when) {
  const year = Math.max(1980, when.getFullYear());
  return {
    time: (when.getHours() << 11) | (when.getMinutes() << 5) | Math.floor(when.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((when.getMonth() + 1) << 5) | when.getDate(),
  };
}

const LIMIT = 0xffffffff;

/**
 * Every file and link under a folder, in a stable order, as zip names (forward slashes).
 * @param {string} folder
 * @returns {Promise<{ path: string, name: string, link: boolean }[]>}
 */
export async function entriesOf(folder) {
  /** @type {{ path: string, name: string, link: boolean }[]} */
  const found = [];
  /** @param {string} dir */
  const walk = async (dir) => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const name = relative(folder, path).split(sep).join('/');
      if (entry.isDirectory()) await walk(path);
      else if (entry.isSymbolicLink()) found.push({ path, name, link: true });
      else if (entry.isFile()) found.push({ path, name, link: false });
    }
  };
  await walk(folder);
  return found;
}

/**
 * Writes the zip of a folder's contents to a file, one file in memory at a time.
 * @param {string} folder
 * @param {string} into
 * @returns {Promise<{ files: number, bytes: number }>}
 */
export async function zipFolder(folder, into) {
  const entries = await entriesOf(folder);
  const out = await open(into, 'w');
  /** @type {Buffer[]} */
  const central = [];
  let offset = 0;
  const write = async (/** @type {Buffer} */ data) => {
    await out.write(data);
    offset += data.length;
  };
  try {
    for (const entry of entries) {
      const info = await lstat(entry.path);
      const raw = entry.link ? Buffer.from(await readlink(entry.path)) : await readFile(entry.path);
      const mode = entry.link ? 0o120777 : info.mode & 0o177777;
      const deflated = raw.length > 0 ? await deflateRaw(raw) : raw;
      // Stored when deflating does not help (already compressed media, links, empty files).
      const method = deflated.length < raw.length ? 8 : 0;
      const body = method === 8 ? deflated : raw;
      if (raw.length >= LIMIT || offset + body.length >= LIMIT) throw new RangeError(`${entry.name}: the zip would pass 4 GB.`);
      const name = Buffer.from(entry.name, 'utf8');
      const crc = crc32(raw);
      const { time, date } = dosTime(info.mtime);
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4); // version needed: 2.0
      local.writeUInt16LE(0x0800, 6); // names are UTF-8
      local.writeUInt16LE(method, 8);
      local.writeUInt16LE(time, 10);
      local.writeUInt16LE(date, 12);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(body.length, 18);
      local.writeUInt32LE(raw.length, 22);
      local.writeUInt16LE(name.length, 26);
      local.writeUInt16LE(0, 28);
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the external attributes hold the mode
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(0x0800, 8);
      header.writeUInt16LE(method, 10);
      header.writeUInt16LE(time, 12);
      header.writeUInt16LE(date, 14);
      header.writeUInt32LE(crc, 16);
      header.writeUInt32LE(body.length, 20);
      header.writeUInt32LE(raw.length, 24);
      header.writeUInt16LE(name.length, 28);
      header.writeUInt32LE(((mode << 16) >>> 0) >>> 0, 38);
      header.writeUInt32LE(offset, 42);
      central.push(header, name);
      await write(Buffer.concat([local, name]));
      await write(body);
    }
    const directory = Buffer.concat(central);
    if (entries.length > 0xffff || offset + directory.length >= LIMIT) throw new RangeError('The zip would hold too many files or pass 4 GB.');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(offset, 16);
    await write(directory);
    await write(end);
    return { files: entries.length, bytes: offset };
  } finally {
    await out.close();
  }
}

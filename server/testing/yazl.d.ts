// The part of yazl (without types of its own) the tests and the studio command use to make zips.
declare module 'yazl' {
  import type { Readable } from 'node:stream';
  export class ZipFile {
    outputStream: Readable;
    addBuffer(buffer: Buffer, metadataPath: string, options?: { mode?: number; compress?: boolean; mtime?: Date }): void;
    addFile(realPath: string, metadataPath: string, options?: { mode?: number; compress?: boolean; mtime?: Date }): void;
    end(): void;
  }
  const yazl: { ZipFile: typeof ZipFile };
  export default yazl;
}

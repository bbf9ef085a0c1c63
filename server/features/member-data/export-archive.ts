import yazl from 'yazl';

/** A zip of text files made in memory (a member's data is small: JSON of their rows and saves). */
export async function zipOf(files: Array<{ name: string; content: string }>, madeAt: Date): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const file of files) zip.addBuffer(Buffer.from(file.content, 'utf8'), file.name, { compress: true, mtime: madeAt });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/;
const LABEL = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g;

/** The samples of a Prometheus text exposition (comments and blank lines skipped); throws on a line it cannot read. */
export function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = SAMPLE.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(LABEL)].map(([, key = '', value = '']) => [key, value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))]),
      );
      return { name: match[1] ?? '', labels, value: Number(match[3]) };
    });
}

/** The metric names a text exposition declares (its `# TYPE` lines). */
export function declaredMetrics(text: string): string[] {
  return [...text.matchAll(/^# TYPE (\S+) \w+$/gm)].map(([, name = '']) => name);
}

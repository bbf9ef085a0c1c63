import { readFileSync } from 'node:fs';
import { brotliCompressSync } from 'node:zlib';
const html = await (await fetch(process.argv[2] ?? 'http://localhost:3400/')).text();
const mods = [...new Set([...html.matchAll(/\/assets\/[^"']+\.js/g)].map((m) => m[0]))];
let total = 0;
const rows = mods.map((m) => { const n = brotliCompressSync(readFileSync('build/client' + m)).length; total += n; return [n, m] as const; }).sort((a, b) => b[0] - a[0]);
for (const [n, m] of rows.slice(0, Number(process.argv[3] ?? 15))) console.log(String(n).padStart(7), m);
console.log('modules', mods.length, 'total br', total);

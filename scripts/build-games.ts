// Compiles the demo games' WebAssembly: games/<slug>/assembly/index.ts (AssemblyScript) becomes
// games/<slug>/build/<slug>.wasm, git-ignored, served beside the game. Part of `npm run build`;
// `npm start` and `npm run dev` call it too, so a checkout whose build predates a game still gets
// its module. A module newer than every file of its source folder is left as it is.
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const gamesDir = join(root, 'games');

interface WasmGame {
  slug: string;
  source: string;
  output: string;
}

/** The games with an AssemblyScript source folder. */
function wasmGames(): WasmGame[] {
  return readdirSync(gamesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(gamesDir, entry.name, 'assembly', 'index.ts')))
    .map((entry) => ({ slug: entry.name, source: join(gamesDir, entry.name, 'assembly'), output: join(gamesDir, entry.name, 'build', `${entry.name}.wasm`) }));
}

function newestChange(folder: string): number {
  return Math.max(...readdirSync(folder, { recursive: true, encoding: 'utf8' }).map((file) => statSync(join(folder, file)).mtimeMs));
}

/** Compiles every game module that is missing or older than its source; throws when one does not compile. */
export async function buildGames(): Promise<void> {
  const stale = wasmGames().filter((game) => !existsSync(game.output) || statSync(game.output).mtimeMs < newestChange(game.source));
  if (stale.length === 0) return;
  // Loaded only when there is something to compile: the compiler is a development dependency.
  const asc = await import('assemblyscript/asc');
  for (const game of stale) {
    mkdirSync(join(game.output, '..'), { recursive: true });
    // The stub runtime (no garbage collector: the games allocate only at start) and no abort
    // import, so the page instantiates the module with no imports at all.
    const result = await asc.main([
      join(game.source, 'index.ts'),
      '--outFile',
      game.output,
      '--runtime',
      'stub',
      '--optimizeLevel',
      '3',
      '--shrinkLevel',
      '1',
      '--noAssert',
      '--use',
      'abort=',
      '--noExportMemory',
    ]);
    if (result.error) throw new Error(`${game.slug}: AssemblyScript did not compile: ${result.error.message}\n${result.stderr.toString()}`);
    console.log(`${relative(root, game.output)}: ${statSync(game.output).size} bytes`);
  }
}

if (import.meta.main) await buildGames();

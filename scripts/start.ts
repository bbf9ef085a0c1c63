// Starts the production server, building first when there is no build.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildGames } from './build-games.ts';

const buildDir = process.env.BUILD_DIR ?? 'build';
if (!existsSync(`${buildDir}/server/index.js`) || !existsSync(`${buildDir}/client`)) {
  console.log('No build found: building once (npm run build)…');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
} else {
  // A build made before a game's WebAssembly existed (or changed) still serves that game.
  await buildGames();
}
process.env.NODE_ENV ??= 'production';
await import('../server/main.ts');

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from './config.ts';

/** The variables the README's configuration table does not name (one `OAUTH_{PROVIDER}_…` row covers every provider). */
function undocumented(readme: string, variables: readonly string[]): string[] {
  const table = readme
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .join('\n');
  return variables.filter((name) => {
    if (table.includes(`\`${name}\``) || new RegExp(`\\b${name}\\b`).test(table)) return false;
    const provider = /^OAUTH_[A-Z]+_(CLIENT_ID|CLIENT_SECRET|ISSUER_URL)$/.exec(name);
    if (provider && table.includes('OAUTH_{PROVIDER}_ISSUER_URL') && table.includes(`OAUTH_${name.split('_')[1]}_`)) return false;
    return true;
  });
}

describe('the README names every variable the configuration reads', () => {
  it('has a row or a mention in the table for each', () => {
    expect(ENV_VARIABLES.length).toBeGreaterThan(60);
    expect(undocumented(readFileSync('README.md', 'utf8'), ENV_VARIABLES)).toEqual([]);
  });

  it('notices a variable the table leaves out', () => {
    const readme = '| variable | default | meaning |\n|---|---|---|\n| `PORT` | `3000` | where to listen |\nBUILD_DIR is mentioned outside the table.\n';
    expect(undocumented(readme, ['PORT', 'BUILD_DIR'])).toEqual(['BUILD_DIR']);
  });
});

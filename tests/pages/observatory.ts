import { retrieve } from '@mdn/mdn-http-observatory/src/retriever/retriever.js';
import { ALL_TESTS } from '@mdn/mdn-http-observatory/src/constants.js';
import { MINIMUM_SCORE_FOR_EXTRA_CREDIT } from '@mdn/mdn-http-observatory/src/grader/charts.js';
import { getGradeForScore, getScoreModifier } from '@mdn/mdn-http-observatory/src/grader/grader.js';
import { redirectionTest } from '@mdn/mdn-http-observatory/src/analyzer/tests/redirection.js';
import { strictTransportSecurityTest } from '@mdn/mdn-http-observatory/src/analyzer/tests/strict-transport-security.js';

/**
 * The Mozilla HTTP Observatory's rules, run by its own package against one URL of a local server
 * (decision 072). Its `scan()` only takes a host name (port 80, path "/"), so this calls the same
 * retriever with a port and a path and grades the results as `scan()` does, leaving out the two
 * tests that need TLS: HTTPS redirection and HSTS are the reverse proxy's part on plain-HTTP
 * loopback, and both read the HSTS preload list that the package would download at install time.
 */
export const TESTS_NEEDING_TLS = ['redirection', 'strict-transport-security'];
const NEEDS_TLS = new Set<unknown>([redirectionTest, strictTransportSecurityTest]);

export interface ObservatoryTest {
  name: string;
  result: string;
  pass: boolean;
  scoreModifier: number;
}

export interface ObservatoryReport {
  status: number;
  grade: string;
  score: number;
  tests: ObservatoryTest[];
}

/** Scans `origin + path` (optionally with request headers such as a session cookie) and grades it without the TLS tests. */
export async function observatoryScan(origin: string, path: string, headers: string[] = []): Promise<ObservatoryReport> {
  const url = new URL(origin);
  const requests = await retrieve(url.hostname, {
    httpPort: url.port,
    path,
    headers: ['Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', ...headers],
  });
  const response = requests.responses.auto;
  if (!response) throw new Error(`${origin}${path} did not answer`);
  const tests = ALL_TESTS.filter((test) => !NEEDS_TLS.has(test)).map((test) => {
    const output = test(requests);
    return { name: output.constructor.name, result: output.result, pass: output.pass, scoreModifier: getScoreModifier(output.result) };
  });
  // The scanner's own arithmetic: bonuses count only once the penalties leave an A.
  const uncurved = 100 + tests.reduce((sum, test) => sum + Math.min(test.scoreModifier, 0), 0);
  const withBonuses = 100 + tests.reduce((sum, test) => sum + test.scoreModifier, 0);
  const { grade, score } = getGradeForScore(uncurved >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withBonuses : uncurved);
  return { status: response.status, grade, score, tests };
}

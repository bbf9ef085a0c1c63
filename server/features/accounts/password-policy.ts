/** The translated reason a password is refused (`accounts:password.*`), or null when it may be used. */
export interface PasswordPolicy {
  problem(password: string, context: readonly string[]): Promise<PasswordProblem | null>;
}

export type PasswordProblem = 'accounts:password.common' | 'accounts:password.personal' | 'accounts:password.guessable';

/** zxcvbn scores 0–4; below this, a password falls to an online guessing attack too soon. */
const MIN_SCORE = 2;
const COMMON_WARNINGS = new Set(['common', 'topTen', 'topHundred', 'similarToCommon']);

type Checker = (password: string, context: string[]) => { score: number; feedback: { warning: string | null } };

/**
 * Refuses common, breached-list and easily guessed passwords (ASVS 6.2.4, 6.2.11, 6.2.12) with
 * zxcvbn-ts and its common dictionaries (top passwords from breaches, common words), which ship in
 * the package: nothing is fetched. The username and the product's name count as words an
 * attacker tries first. Any characters are allowed; only the length rule of the schema and this
 * check apply. The dictionaries (a few MB) are loaded on the first check, on the server only.
 */
export class ZxcvbnPasswordPolicy implements PasswordPolicy {
  readonly #siteWords: string[];
  #checker: Promise<Checker> | undefined;

  constructor(siteWords: readonly string[]) {
    this.#siteWords = [...siteWords];
  }

  async problem(password: string, context: readonly string[]): Promise<PasswordProblem | null> {
    const words = [...this.#siteWords, ...context].filter((word) => word.length >= 3);
    const lower = password.toLowerCase();
    if (words.some((word) => lower.includes(word.toLowerCase()) && word.length * 2 >= password.length)) return 'accounts:password.personal';
    const result = (await this.#load())(password, words);
    if (result.score >= MIN_SCORE) return null;
    const warning = result.feedback.warning ?? '';
    if (COMMON_WARNINGS.has(warning)) return 'accounts:password.common';
    if (warning === 'userInputs') return 'accounts:password.personal';
    return 'accounts:password.guessable';
  }

  #load(): Promise<Checker> {
    this.#checker ??= (async () => {
      const [{ ZxcvbnFactory }, common] = await Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]);
      const zxcvbn = new ZxcvbnFactory({ dictionary: common.dictionary, graphs: common.adjacencyGraphs });
      return (password: string, context: string[]) => zxcvbn.check(password, context);
    })();
    return this.#checker;
  }
}

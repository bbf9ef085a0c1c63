/*
 * Search text analysis shared by the index (written by the importer) and the queries.
 *
 * Both databases index the same token string: SQLite with an FTS5 table (unicode61 tokenizer),
 * PostgreSQL with a `to_tsvector('simple', …)` GIN index. Neither splits Chinese into words, so
 * runs of CJK characters are turned into overlapping bigrams here ("贪吃蛇" → "贪吃 吃蛇 蛇"):
 * any substring of two or more characters is then a phrase of adjacent bigrams, and a single
 * character is a prefix of some token. Latin words stay whole and are matched by prefix.
 */

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const RUNS = new RegExp(`[${CJK}]+|(?:(?![${CJK}])[\\p{L}\\p{N}])+`, 'gu');
const IS_CJK = new RegExp(`^[${CJK}]`, 'u');
/** Longer words are cut: nobody types them, and PostgreSQL drops words over 2 KB. */
const MAX_WORD = 40;
/** A query has at most this many terms; more only slows the match down. */
const MAX_TERMS = 8;

/** One term of a query: tokens that must appear next to each other; the last one may be a prefix. */
export type SearchTerm = string[];

/** Full-width forms folded, lower case, accents dropped: the same for index and query. */
function normalize(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').normalize('NFC').toLowerCase();
}

function runs(text: string): string[] {
  return normalize(text).match(RUNS) ?? [];
}

function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  const pairs: string[] = [];
  for (let i = 0; i < chars.length - 1; i++) pairs.push(chars[i]! + chars[i + 1]!);
  return pairs;
}

/** The token string the index stores for a piece of text. */
export function searchTokens(...texts: Array<string | null | undefined>): string {
  const tokens: string[] = [];
  for (const text of texts) {
    if (!text) continue;
    for (const run of runs(text)) {
      if (IS_CJK.test(run)) {
        const chars = [...run];
        tokens.push(...bigrams(run));
        // The last character as its own token too, so that a one-character query finds it by prefix.
        if (chars.length > 1) tokens.push(chars.at(-1)!);
      } else {
        tokens.push([...run].slice(0, MAX_WORD).join(''));
      }
    }
  }
  return tokens.join(' ');
}

/** The terms of a user's query; empty when it has nothing searchable (only punctuation). */
export function searchTerms(query: string): SearchTerm[] {
  return runs(query)
    .slice(0, MAX_TERMS)
    .map((run) => (IS_CJK.test(run) ? bigrams(run) : [[...run].slice(0, MAX_WORD).join('')]));
}

/** An FTS5 MATCH expression: every term as a phrase, its last token a prefix. */
export function fts5Expression(terms: SearchTerm[]): string {
  // Tokens hold only letters and digits, so double quotes cannot be broken out of.
  return terms.map((term) => `"${term.join(' ')}" *`).join(' AND ');
}

/** A PostgreSQL tsquery: every term as a `<->` phrase, its last token a prefix. */
export function tsQueryExpression(terms: SearchTerm[]): string {
  return terms.map((term) => term.map((token, i) => `'${token}'${i === term.length - 1 ? ':*' : ''}`).join(' <-> ')).join(' & ');
}

import { describe, expect, it } from 'vitest';
import { fts5Expression, searchTerms, searchTokens, tsQueryExpression } from './catalogue-search.ts';

describe('search tokens', () => {
  it('keeps words whole, lower-cased, without accents or punctuation', () => {
    expect(searchTokens('Tic-Tac-Toe: Café 2048!')).toBe('tic tac toe cafe 2048');
  });

  it('turns Chinese into overlapping bigrams plus the last character', () => {
    expect(searchTokens('贪吃蛇')).toBe('贪吃 吃蛇 蛇');
    expect(searchTokens('数独')).toBe('数独 独');
    expect(searchTokens('棋')).toBe('棋');
  });

  it('splits mixed text into runs and folds full-width forms', () => {
    expect(searchTokens('经典2048数字', 'ＡＢＣ')).toBe('经典 典 2048 数字 字 abc');
  });

  it('cuts very long words', () => {
    expect(searchTokens('x'.repeat(100))).toBe('x'.repeat(40));
  });
});

describe('search terms and expressions', () => {
  it('makes a phrase of bigrams per Chinese run and one token per word', () => {
    expect(searchTerms('贪吃蛇 Snake')).toEqual([['贪吃', '吃蛇'], ['snake']]);
    expect(searchTerms('蛇')).toEqual([['蛇']]);
  });

  it('finds nothing to search in punctuation and operators', () => {
    expect(searchTerms('"*()^:')).toEqual([]);
    expect(searchTerms('snake" OR "x')).toEqual([['snake'], ['or'], ['x']]);
  });

  it('renders FTS5 and tsquery syntax with the last token of each term as a prefix', () => {
    const terms = searchTerms('贪吃蛇 sna');
    expect(fts5Expression(terms)).toBe('"贪吃 吃蛇" * AND "sna" *');
    expect(tsQueryExpression(terms)).toBe("'贪吃' <-> '吃蛇':* & 'sna':*");
  });

  it('finds every substring of an indexed Chinese text', () => {
    const text = '阿尔法数字';
    const tokens = searchTokens(text).split(' ');
    for (let start = 0; start < text.length; start++) {
      for (let end = start + 1; end <= text.length; end++) {
        const [term] = searchTerms(text.slice(start, end));
        // The phrase must appear as adjacent tokens, its last token by prefix.
        const found = tokens.some((_, i) => term!.every((token, j) => (j === term!.length - 1 ? tokens[i + j]?.startsWith(token) : tokens[i + j] === token)));
        expect(found, text.slice(start, end)).toBe(true);
      }
    }
  });
});

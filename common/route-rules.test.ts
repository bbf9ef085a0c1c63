import { describe, expect, it } from 'vitest';
import { articleSegmentToValidate, isValidArticlePath, isValidPostId, isValidSlug } from './route-rules.ts';

describe('slug of /app, /play and /categories (letters, digits, hyphen, underscore)', () => {
  it.each([
    ['snake', true],
    ['connect-four', true],
    ['tic_tac_toe', true],
    ['2048', true],
    ['Game-2_X', true],
    ['a', true],
    ['', false],
    ['snake!', false],
    ['snake game', false],
    ['snake.html', false],
    ['贪吃蛇', false],
    ['snake%20x', false],
    ['../etc', false],
    ['a/b', false],
  ])('%j → %s', (slug, valid) => {
    expect(isValidSlug(slug)).toBe(valid);
  });

  it('an absent slug is not valid (the optional /categories slug is checked only when present)', () => {
    expect(isValidSlug(undefined)).toBe(false);
  });
});

describe('/article/post/{id} (digits only)', () => {
  it.each([
    ['1', true],
    ['1001', true],
    ['007', true],
    ['', false],
    ['12a', false],
    ['-1', false],
    ['1.5', false],
    ['abc', false],
    [' 12', false],
  ])('%j → %s', (id, valid) => {
    expect(isValidPostId(id)).toBe(valid);
  });
});

describe('article catch-all: which segment is validated', () => {
  it.each([
    [['news'], 'news'],
    [['news', 'esports'], 'esports'],
    [['news', '1001'], 'news'],
    [['1001', 'news'], 'news'],
    [['news', 'esports', '1001'], 'esports'],
    [['a', 'b', 'c'], 'b'],
    [[], null],
    [['a', 'b', 'c', 'd'], null],
  ])('%j → %j', (segments, chosen) => {
    expect(articleSegmentToValidate(segments)).toBe(chosen);
  });
});

describe('article catch-all: the chosen segment must be 3 to 20 letters', () => {
  it.each([
    [['news'], true],
    [['abc'], true],
    [['abcdefghijklmnopqrst'], true],
    [['Guides'], true],
    [['ab'], false],
    [['abcdefghijklmnopqrstu'], false],
    [['news1'], false],
    [['new-s'], false],
    [['新闻新闻'], false],
    [['news', 'esports'], true],
    [['news', 'es'], false],
    [['ab', 'esports'], true],
    [['news', '1001'], true],
    [['ab', '1001'], false],
    [['news', '12x'], false],
    [['x', 'esports', '1001'], true],
    [['news', 'e', '1001'], false],
    [['news', 'esports', 'anything'], true],
    [[], false],
    [['news', 'esports', 'more', '1'], false],
  ])('%j → %s', (segments, valid) => {
    expect(isValidArticlePath(segments)).toBe(valid);
  });
});

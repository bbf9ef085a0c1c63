import { describe, expect, it } from 'vitest';
import { jsonDepthWithin, jsonTextDepthWithin, MAX_JSON_DEPTH, storedJson } from './json-depth.ts';

const nested = (depth: number) => `${'['.repeat(depth)}0${']'.repeat(depth)}`;

describe('JSON depth', () => {
  it('counts levels of arrays and objects, scalars being none', () => {
    expect(jsonDepthWithin(1, 0)).toBe(true);
    expect(jsonDepthWithin([], 0)).toBe(false);
    expect(jsonDepthWithin({ a: [1, { b: 2 }] }, 3)).toBe(true);
    expect(jsonDepthWithin({ a: [1, { b: [] }] }, 3)).toBe(false);
    expect(jsonDepthWithin(JSON.parse(nested(MAX_JSON_DEPTH)))).toBe(true);
    expect(jsonDepthWithin(JSON.parse(nested(MAX_JSON_DEPTH + 1)))).toBe(false);
  });

  it('walks a value far deeper than the stack allows without throwing', () => {
    expect(jsonDepthWithin(JSON.parse(nested(200_000)))).toBe(false);
  });

  it('reads the depth of JSON text, ignoring brackets inside strings', () => {
    expect(jsonTextDepthWithin(nested(10), 10)).toBe(true);
    expect(jsonTextDepthWithin(nested(11), 10)).toBe(false);
    expect(jsonTextDepthWithin(`{"a":"[[[[\\"[[[[","b":[{}]}`, 3)).toBe(true);
    expect(jsonTextDepthWithin(`{"a":"\\\\","b":[[1]]}`, 2)).toBe(false);
  });

  it('refuses a value past the cap in the schema, with the translation key', () => {
    const schema = storedJson('A value');
    expect(schema.safeParse({ a: [1] }).success).toBe(true);
    const result = schema.safeParse(JSON.parse(nested(MAX_JSON_DEPTH + 1)));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('errors:field.tooDeep');
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SKU_PATTERN } from '#common/api/game-store.schema.ts';
import { AppError } from '../lib/app-error.ts';
import { parseOrThrow } from './validation.ts';

/** The field errors a value gets from a schema, in a locale. */
function refusals(schema: z.ZodType, value: unknown, locale: 'en' | 'zh-CN' = 'en'): Record<string, string[]> {
  try {
    parseOrThrow(schema, value, locale);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return ((error as AppError).options.data as { errors: Record<string, string[]> }).errors;
  }
  throw new Error('accepted');
}

// Decision 125: every refusal names the rule and the value, in the visitor's language.
describe('field refusals a person can act on', () => {
  const item = z.object({
    sku: z.string().regex(SKU_PATTERN, 'payments:errors.sku'),
    price: z.number().int().min(1).max(100_000_00),
    name: z.string().min(1).max(60),
    kind: z.enum(['permanent', 'consumable']),
    tags: z.array(z.string()).max(2),
    origin: z.string().check((ctx) => {
      if (!ctx.value.startsWith('https://'))
        ctx.issues.push({ code: 'custom', input: ctx.value, message: 'studio:games.errors.backendOrigin', params: { value: ctx.value } });
    }),
  });

  it('refuses a value nested too deep to quote in words, not with a server error', () => {
    const deep = JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`) as unknown;
    expect(refusals(z.object({ uid: z.number() }), deep)).toEqual({ _: [expect.stringContaining('[…]')] });
  });

  it('names the rule and the value in English', () => {
    expect(refusals(item, { sku: 'gold tiles', price: 1.99, name: '', kind: 'rare', tags: ['a', 'b', 'c'], origin: 'ftp://x' })).toEqual({
      sku: ['An item code is 1–64 lower-case letters, digits, _ . or -, starting with a letter or digit: “gold tiles” is not one.'],
      price: ['Enter a whole number: “1.99” is not one.'],
      name: ['This field cannot be empty.'],
      kind: ['Choose “permanent” or “consumable”: “rare” is not one of them.'],
      tags: ['At most 2 entries (3 now).'],
      origin: [expect.stringContaining('"ftp://x" is not an origin')],
    });
    expect(refusals(item.shape.price, 0)).toEqual({ _: ['Enter 1 or more: 0 is too low.'] });
    expect(refusals(item.shape.name, 'x'.repeat(61))).toEqual({ _: ['At most 60 characters (61 now).'] });
  });

  it('says the same in Chinese, with its own punctuation', () => {
    const errors = refusals(item, { sku: 'gold tiles', price: 1.99, name: '', kind: 'rare', tags: [], origin: 'https://ok.example' }, 'zh-CN');
    expect(errors).toEqual({
      sku: ['物品代码为 1–64 个小写字母、数字、_ . 或 -，以字母或数字开头：“gold tiles”不符合。'],
      price: ['请输入整数：“1.99”不是整数。'],
      name: ['此项不能为空。'],
      kind: ['请选择“permanent”或“consumable”：“rare”不在其中。'],
    });
  });

  it('reads a message with a colon that is not a translation key as text, not as a key', () => {
    const schema = z.string().refine((v) => v === 'ok', 'Use https://api.example.com: no path');
    expect(refusals(schema, 'no')).toEqual({ _: ['This value is invalid.'] });
    const keyed = z.string().refine((v) => v === 'ok', 'errors:field.empty');
    expect(refusals(keyed, 'no')).toEqual({ _: ['This field cannot be empty.'] });
  });
});

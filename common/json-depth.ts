import { z } from 'zod';

/**
 * How deeply a JSON value the API stores may nest (docs/security.md). Nothing a game keeps needs
 * more, and code that walks a value recursively (JSON.stringify, structured clone, a game's own
 * loader) can then never run out of stack on one.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether a parsed JSON value nests at most `max` levels (a scalar is 0, `[]` and `[0]` are 1); walks without recursion. */
export function jsonDepthWithin(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > max) return false;
    for (const child of Array.isArray(next.value) ? next.value : Object.values(next.value)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth });
    }
  }
  return true;
}

/**
 * Whether JSON text nests at most `max` levels, read before it is parsed: brackets outside
 * strings are counted, so a body nested 100,000 deep is refused in one pass over its text.
 */
export function jsonTextDepthWithin(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return false;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return true;
}

/** Any JSON value the API stores, nested at most MAX_JSON_DEPTH levels (422 past that). */
export function storedJson(description: string) {
  return z
    .unknown()
    .refine((value) => jsonDepthWithin(value), { message: 'errors:field.tooDeep', params: { max: MAX_JSON_DEPTH } })
    .meta({ description: `${description}; nested at most ${MAX_JSON_DEPTH} levels` });
}

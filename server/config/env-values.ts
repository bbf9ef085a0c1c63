// The value types the environment's variables are read as, shared by every area of the configuration.
import { z } from 'zod';

/** true, false, 1, 0 or empty (false). */
export const booleanFromEnv = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');

const PORT_MESSAGE = 'must be a port number from 0 to 65535';
/** A TCP port, 0 to 65535. */
export const Port = z.coerce.number({ error: PORT_MESSAGE }).int(PORT_MESSAGE).min(0, PORT_MESSAGE).max(65535, PORT_MESSAGE);

/** Whether a parsed value is a port (a bad one is reported by its own field). */
export function isPort(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= 65535;
}

/** A variable that may be unset or empty (both mean unset). */
export const OptionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/** An http(s) URL that may be unset or empty (both mean unset). */
export const OptionalHttpUrl = z
  .url({ protocol: /^https?$/ })
  .optional()
  .or(z.literal('').transform(() => undefined));

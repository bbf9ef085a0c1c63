/**
 * What to tell the person about a failed call: the server's message, else the generic text. A
 * module of its own: the header's sign-out needs only this, not the forms' error handling.
 */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

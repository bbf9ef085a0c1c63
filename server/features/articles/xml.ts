/** Escapes text for XML element content and double-quoted attributes. */
export function escapeXml(value: string): string {
  return value.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** Drops characters XML 1.0 cannot carry at all (control characters other than tab and newlines). */
export function xmlText(value: string): string {
  // oxlint-disable-next-line no-control-regex -- matching control characters is the point
  return escapeXml(value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, ''));
}

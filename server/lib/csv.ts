// CSV files the server hands out (RFC 4180), safe to open in a spreadsheet.

/** What a spreadsheet reads as the start of a formula (OWASP "CSV injection"): = + - @, a tab, a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number, negative ones too: a spreadsheet reads it as the number it is. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * One CSV field: text that a spreadsheet would run as a formula gets a leading single quote (a
 * game's or an item's name is the developer's or a player's text); quoted when it holds a comma,
 * a quote or a line break, quotes doubled.
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows as a CSV file's text: fields by `csvField`, CRLF line ends, a final line end. */
export function csvText(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

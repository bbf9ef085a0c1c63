// UTC months as statements count them (`YYYY-MM`), over the ISO instants the ledger keeps.

/** The month of an ISO instant. */
export const monthOf = (iso: string): string => iso.slice(0, 7);

/** The first instant of a month, as the ledger writes instants (ISO text sorts as time). */
export const monthStart = (month: string): string => `${month}-01T00:00:00.000Z`;

/** The month after. */
export function nextMonth(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

/** The month before. */
export function previousMonth(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${year - 1}-12` : `${year}-${String(m - 1).padStart(2, '0')}`;
}

/** The first instant after the month: where its entries stop. */
export const monthEnd = (month: string): string => monthStart(nextMonth(month));

/** The months from `first` to `last`, both included, in order. */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  for (let month = first; month <= last; month = nextMonth(month)) months.push(month);
  return months;
}

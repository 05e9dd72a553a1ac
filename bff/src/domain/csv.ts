/**
 * CSV for spreadsheet programs. A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return is read as a formula by Excel and LibreOffice (CSV injection): such cells get a leading
 * apostrophe, which the spreadsheet shows as text. Numbers the export itself writes are passed as
 * numbers and stay numbers (a negative amount is never member input).
 */
export type CsvCell = string | number | null;

const formulaStart = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = formulaStart.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Rows → CSV text with CRLF line ends and a UTF-8 byte-order mark, so Excel opens Korean text
 * correctly without an import dialog.
 */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>): string {
  const lines = [header.map(csvCell).join(','), ...rows.map((row) => row.map(csvCell).join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The byte-order mark a streamed CSV starts with (see toCsv). */
export const csvBom = '\uFEFF';

/** One CSV line with its CRLF, for exports written row by row. */
export function csvLine(row: readonly CsvCell[]): string {
  return `${row.map(csvCell).join(',')}\r\n`;
}

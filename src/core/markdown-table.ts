/** A GitHub-flavoured Markdown table, for `table` blocks turned into text a model can read. */

function cell(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  } catch {
    // Cycles, BigInts or nesting too deep for JSON.stringify (never null): still show something, without
    // recursing.
    text = Array.isArray(value) ? '[…]' : typeof value === 'object' ? '{…}' : String(value);
  }
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/** Rows shorter than the widest row or the header are padded, so every line has the same columns. */
export function markdownTable(headers: readonly unknown[], rows: readonly (readonly unknown[])[]): string {
  // A loop, not Math.max(...rows): a spread of a very long table exceeds the argument limit.
  let width = Math.max(headers.length, 1);
  for (const row of rows) width = Math.max(width, row.length);
  const pad = (row: readonly unknown[]) => Array.from({ length: width }, (_, i) => cell(row[i] ?? ''));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(pad(headers)),
    line(Array.from({ length: width }, () => '---')),
    ...rows.map((r) => line(pad(r))),
  ].join('\n');
}

/** A GitHub-flavoured Markdown table, for `table` blocks turned into text a model can read. */

function cell(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  } catch {
    text = String(value); // cycles or BigInt: still show something
  }
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/** Rows shorter than the widest row or the header are padded, so every line has the same columns. */
export function markdownTable(headers: readonly unknown[], rows: readonly (readonly unknown[])[]): string {
  const width = Math.max(headers.length, ...rows.map((r) => r.length), 1);
  const pad = (row: readonly unknown[]) => Array.from({ length: width }, (_, i) => cell(row[i] ?? ''));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(pad(headers)),
    line(Array.from({ length: width }, () => '---')),
    ...rows.map((r) => line(pad(r))),
  ].join('\n');
}

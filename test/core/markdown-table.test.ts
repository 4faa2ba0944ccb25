/** `table` blocks turned into text a model can read (src/core/markdown-table.ts). */

import { describe, expect, it } from 'vitest';
import { markdownTable } from '../../src/core/markdown-table.js';

describe('markdownTable', () => {
  it('writes a header, a rule and a line per row', () => {
    expect(
      markdownTable(
        ['city', 'temp'],
        [
          ['Oslo', 3],
          ['Rome', 18.5],
        ],
      ),
    ).toBe(['| city | temp |', '| --- | --- |', '| Oslo | 3 |', '| Rome | 18.5 |'].join('\n'));
  });

  it('pads short rows and headers to the widest row, with one column at least', () => {
    expect(markdownTable(['a'], [['1', '2', '3'], []])).toBe(
      ['| a |  |  |', '| --- | --- | --- |', '| 1 | 2 | 3 |', '|  |  |  |'].join('\n'),
    );
    expect(markdownTable([], [])).toBe('|  |\n| --- |');
  });

  it('escapes what would break the table: pipes, backslashes and line breaks', () => {
    expect(markdownTable(['a|b'], [['c\\d'], ['line\r\nbreak\nagain']])).toBe(
      ['| a\\|b |', '| --- |', '| c\\\\d |', '| line<br>break<br>again |'].join('\n'),
    );
  });

  it('shows values that are not strings as JSON (a missing one empty), and what JSON cannot show in short', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const list: unknown[] = [];
    list.push(list);
    expect(markdownTable(['v'], [[Symbol('s')]])).toBe('| v |\n| --- |\n|  |');
    expect(markdownTable(['v'], [[{ a: [1] }], [null], [undefined], [true], [cycle], [list], [10n]])).toBe(
      ['| v |', '| --- |', '| {"a":[1]} |', '|  |', '|  |', '| true |', '| {…} |', '| […] |', '| 10 |'].join(
        '\n',
      ),
    );
  });
});

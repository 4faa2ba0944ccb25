import { describe, expect, it } from 'vitest';
import { helperMime, pathSuffix } from '../../src/scan/python/fastmcp-helpers.js';

describe('pathSuffix (Python pathlib: Path(path).suffix.lower())', () => {
  it('takes the last dot of the last component, unless it starts or ends the name', () => {
    const cases: [string, string][] = [
      ['chart.png', '.png'],
      ['/tmp/a.b/chart.PNG', '.png'],
      ['archive.tar.gz', '.gz'],
      ['.png', ''],
      ['dir.d/noext', ''],
      ['name.', ''],
      ['', ''],
    ];
    for (const [path, suffix] of cases) expect(pathSuffix(path), path).toBe(suffix);
  });
});

describe('helperMime', () => {
  it('takes format first, as image/… or audio/… lowercased, in both FastMCPs', () => {
    expect(helperMime('Image', { text: 'PNG' }, { text: 'x.gif' })).toEqual({
      sdk: 'image/png',
      standalone: 'image/png',
    });
    expect(helperMime('Audio', { text: 'mp3' }, 'absent')).toEqual({
      sdk: 'audio/mp3',
      standalone: 'audio/mp3',
    });
    // Only the standalone package has File; its text formats are text/plain.
    expect(helperMime('File', { text: 'txt' }, 'absent')).toEqual({ standalone: 'text/plain' });
    expect(helperMime('File', { text: 'pdf' }, 'absent')).toEqual({ standalone: 'application/pdf' });
  });

  it("maps the path's suffix by each FastMCP's table, and leaves what mimetypes would answer unknown", () => {
    expect(helperMime('Image', 'absent', { text: 'a.JPG' })).toEqual({
      sdk: 'image/jpeg',
      standalone: 'image/jpeg',
    });
    expect(helperMime('Image', 'absent', { text: 'a.svg' })).toEqual({ sdk: 'application/octet-stream' });
    expect(helperMime('Audio', 'absent', { text: 'a.aac' })).toEqual({
      sdk: 'audio/aac',
      standalone: 'application/octet-stream',
    });
    expect(helperMime('Audio', 'absent', { text: 'a.m4a' })).toEqual({
      sdk: 'audio/mp4',
      standalone: 'audio/mp4',
    });
    expect(helperMime('File', 'absent', { text: 'a.csv' })).toEqual({});
  });

  it('gives raw data the default type, and says nothing where an argument is unknown', () => {
    expect(helperMime('Image', 'absent', 'absent')).toEqual({ sdk: 'image/png', standalone: 'image/png' });
    expect(helperMime('Audio', 'absent', 'absent')).toEqual({ sdk: 'audio/wav', standalone: 'audio/wav' });
    expect(helperMime('File', 'absent', 'absent')).toEqual({ standalone: 'application/octet-stream' });
    expect(helperMime('Image', 'unknown', { text: 'a.png' })).toEqual({});
    expect(helperMime('Image', 'absent', 'unknown')).toEqual({});
  });
});

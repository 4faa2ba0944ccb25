import { describe, expect, it } from 'vitest';
import { validateToolResult, validateToolResultSync } from '../../src/validate/index.js';
import {
  blockOf,
  check,
  errorsOf,
  PDF,
  PNG,
  repairOnce,
  resultOf,
  ruleFindings,
  SVG,
  WAV,
} from './support.js';

describe('block-text-invalid', () => {
  it('reports a missing text, a data alias and a non-string text', async () => {
    expect((await ruleFindings('block-text-invalid', resultOf([{ type: 'text' }])))[0]?.messageId).toBe(
      'default',
    );
    expect(
      (await ruleFindings('block-text-invalid', resultOf([{ type: 'text', data: 'hi' }])))[0],
    ).toMatchObject({
      messageId: 'alias',
      pointer: '/content/0/text',
      message: 'text block has no "text" but a "data" member; the text belongs in "text"',
    });
    expect(
      (await ruleFindings('block-text-invalid', resultOf([{ type: 'text', text: 42 }])))[0]?.messageId,
    ).toBe('notString');
  });

  it('moves data to text and stringifies numbers', async () => {
    const moved = await repairOnce('block-text-invalid', resultOf([{ type: 'text', data: 'hi' }]));
    expect(blockOf(moved.document)).toEqual({ type: 'text', text: 'hi' });
    const num = await repairOnce('block-text-invalid', resultOf([{ type: 'text', text: 42 }]));
    expect(blockOf(num.document)).toEqual({ type: 'text', text: '42' });
  });

  it('cannot repair a text block with nothing to show', async () => {
    expect((await repairOnce('block-text-invalid', resultOf([{ type: 'text' }]))).outcome).toBeUndefined();
  });
});

describe('block-data-invalid', () => {
  it('reports missing or non-string data on image and audio blocks', async () => {
    expect(
      await ruleFindings('block-data-invalid', resultOf([{ type: 'audio', mimeType: 'audio/wav' }])),
    ).toHaveLength(1);
    const [f] = await ruleFindings(
      'block-data-invalid',
      resultOf([{ type: 'image', data: [1, 2], mimeType: 'image/png' }]),
    );
    expect(f).toMatchObject({ messageId: 'notString', pointer: '/content/0/data' });
  });

  it('moves a blob alias to data', async () => {
    const { document } = await repairOnce(
      'block-data-invalid',
      resultOf([{ type: 'image', blob: PNG, mimeType: 'image/png' }]),
    );
    expect(blockOf(document)).toEqual({ type: 'image', data: PNG, mimeType: 'image/png' });
  });
});

describe('block-mime-type-missing (repair)', () => {
  it('takes the sniffed type, and turns non-image bytes into a resource', async () => {
    const png = await repairOnce('block-mime-type-missing', resultOf([{ type: 'image', data: PNG }]));
    expect(blockOf(png.document)).toEqual({ type: 'image', data: PNG, mimeType: 'image/png' });
    const pdf = await repairOnce('block-mime-type-missing', resultOf([{ type: 'image', data: PDF }]));
    expect(blockOf(pdf.document)).toEqual({
      type: 'resource',
      resource: { uri: 'urn:mcp-shape:blob:0', blob: PDF, mimeType: 'application/pdf' },
    });
    const svg = await repairOnce('block-mime-type-missing', resultOf([{ type: 'image', data: SVG }]));
    expect(blockOf(svg.document)).toMatchObject({ mimeType: 'image/svg+xml' });
  });
});

describe('block-mime-type-malformed', () => {
  it('reports values that are not type/subtype, on every block that has a mimeType', async () => {
    for (const block of [
      { type: 'image', data: PNG, mimeType: 'png' },
      { type: 'resource_link', uri: 'file:///a', name: 'a', mimeType: 'text' },
      { type: 'resource', resource: { uri: 'file:///a', text: 'x', mimeType: 'text/ plain' } },
    ]) {
      const [f] = await ruleFindings('block-mime-type-malformed', resultOf([block]));
      expect(f?.severity, JSON.stringify(block)).toBe('warning');
    }
  });

  it('accepts parameters and vendor types', async () => {
    for (const mimeType of [
      'text/plain; charset=utf-8',
      'application/vnd.api+json',
      'audio/ogg; codecs="opus"',
    ]) {
      const block = { type: 'resource', resource: { uri: 'file:///a', text: 'x', mimeType } };
      expect(await ruleFindings('block-mime-type-malformed', resultOf([block]))).toEqual([]);
    }
  });

  it('repairs from the bytes, from an extension, or drops an optional value', async () => {
    const sniffed = await repairOnce(
      'block-mime-type-malformed',
      resultOf([{ type: 'image', data: PNG, mimeType: 'picture' }]),
    );
    expect(blockOf(sniffed.document).mimeType).toBe('image/png');
    const ext = await repairOnce(
      'block-mime-type-malformed',
      resultOf([{ type: 'image', data: 'AAAA', mimeType: 'jpg' }]),
    );
    expect(blockOf(ext.document).mimeType).toBe('image/jpeg');
    const dropped = await repairOnce(
      'block-mime-type-malformed',
      resultOf([{ type: 'resource_link', uri: 'file:///a', name: 'a', mimeType: '??' }]),
    );
    expect(blockOf(dropped.document)).toEqual({ type: 'resource_link', uri: 'file:///a', name: 'a' });
    expect(dropped.outcome?.lossy).toBe(true);
  });

  it('says the fix is automatic only where the repair can read a type: from the bytes, the value, or by dropping it', async () => {
    const automatic = async (block: unknown) =>
      (await ruleFindings('block-mime-type-malformed', resultOf([block]))).map((f) => f.fix?.automatic);
    expect(await automatic({ type: 'image', data: PNG, mimeType: 'image' })).toEqual([true]);
    expect(await automatic({ type: 'image', data: 'AAAA', mimeType: 'jpg' })).toEqual([true]);
    expect(await automatic({ type: 'resource_link', uri: 'file:///a', name: 'a', mimeType: '??' })).toEqual([
      true,
    ]);
    // A required mimeType of the bare family, on bytes of no known format: nothing right to write.
    const unknown = { type: 'image', data: 'DAU03NeyKdc=', mimeType: 'image' };
    expect(await automatic(unknown)).toEqual([false]);
    const { outcome } = await repairOnce('block-mime-type-malformed', resultOf([unknown]));
    expect(outcome).toBeUndefined();
  });
});

describe('block-mime-type-wrong-family', () => {
  it('reports an image block with a non-image type and an audio block with a non-audio type', async () => {
    expect(
      await ruleFindings(
        'block-mime-type-wrong-family',
        resultOf([{ type: 'image', data: PDF, mimeType: 'application/pdf' }]),
      ),
    ).toHaveLength(1);
    expect(
      await ruleFindings(
        'block-mime-type-wrong-family',
        resultOf([{ type: 'audio', data: WAV, mimeType: 'video/mp4' }]),
      ),
    ).toHaveLength(1);
    expect(
      await ruleFindings(
        'block-mime-type-wrong-family',
        resultOf([{ type: 'image', data: SVG, mimeType: 'image/svg+xml' }]),
      ),
    ).toEqual([]);
  });

  it('moves other media into an embedded resource, or fixes the type from the bytes', async () => {
    const pdf = await repairOnce(
      'block-mime-type-wrong-family',
      resultOf([{ type: 'image', data: PDF, mimeType: 'application/pdf' }]),
    );
    expect(blockOf(pdf.document)).toMatchObject({
      type: 'resource',
      resource: { blob: PDF, mimeType: 'application/pdf' },
    });
    const png = await repairOnce(
      'block-mime-type-wrong-family',
      resultOf([{ type: 'image', data: PNG, mimeType: 'application/octet-stream' }]),
    );
    expect(blockOf(png.document)).toEqual({ type: 'image', data: PNG, mimeType: 'image/png' });
    const audio = await repairOnce(
      'block-mime-type-wrong-family',
      resultOf([{ type: 'image', data: WAV, mimeType: 'text/plain' }]),
    );
    expect(blockOf(audio.document)).toEqual({ type: 'audio', data: WAV, mimeType: 'audio/wav' });
  });
});

describe('block-mime-type-mismatch', () => {
  it('reports a declared type the bytes contradict', async () => {
    const [f] = await ruleFindings(
      'block-mime-type-mismatch',
      resultOf([{ type: 'image', data: PNG, mimeType: 'image/jpeg' }]),
    );
    expect(f).toMatchObject({
      severity: 'warning',
      message: 'mimeType image/jpeg contradicts the bytes, which look like image/png',
    });
    const [r] = await ruleFindings(
      'block-mime-type-mismatch',
      resultOf([
        { type: 'resource', resource: { uri: 'file:///a.pdf', blob: PNG, mimeType: 'application/pdf' } },
      ]),
    );
    expect(r?.pointer).toBe('/content/0/resource/mimeType');
  });

  it('accepts aliases, SVG markup and bytes it cannot recognise', async () => {
    const ok = [
      { type: 'audio', data: WAV, mimeType: 'audio/x-wav' },
      { type: 'image', data: SVG, mimeType: 'image/svg+xml' },
      {
        type: 'image',
        data: btoa('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'),
        mimeType: 'image/svg+xml',
      },
      // No sniffer knows these bytes, and a TIFF or an MP3 has no one fixed signature to miss.
      { type: 'image', data: 'AAAAAAAA', mimeType: 'image/tiff' },
      { type: 'audio', data: 'AAAAAAAA', mimeType: 'audio/mpeg' },
      // Arbitrary binary data (RFC 2046) is what any bytes are; on an image block it is the wrong family.
      {
        type: 'resource',
        resource: { uri: 'file:///a.bin', blob: PNG, mimeType: 'application/octet-stream' },
      },
      {
        type: 'resource',
        resource: { uri: 'file:///a.bin', blob: PNG, mimeType: 'Application/Octet-Stream' },
      },
      { type: 'image', data: PNG, mimeType: 'application/octet-stream' },
    ];
    expect(await ruleFindings('block-mime-type-mismatch', resultOf(ok))).toEqual([]);
  });

  it('reports bytes without the signature every file of the declared type begins with', async () => {
    // Once passed as "unknown bytes agree with anything": zeros, text, an HTML error page as a PNG.
    const blocks = [
      { type: 'image', data: 'AAAAAAAA', mimeType: 'image/png' },
      { type: 'image', data: btoa('hello'), mimeType: 'image/jpeg' },
      { type: 'image', data: btoa('<!doctype html><title>502</title>'), mimeType: 'image/webp' },
      { type: 'audio', data: btoa('RIFF\0\0\0\0AVI LIST'), mimeType: 'audio/wav' },
      { type: 'image', data: '', mimeType: 'image/gif' },
    ];
    for (const validate of [validateToolResult, validateToolResultSync]) {
      const findings = (await validate(resultOf(blocks), { protocolVersion: '2025-06-18' })).filter(
        (f) => f.rule === 'block-mime-type-mismatch',
      );
      expect(findings.map((f) => [f.pointer, f.message, f.fix?.automatic])).toEqual([
        [
          '/content/0/mimeType',
          'mimeType image/png contradicts the bytes, which do not begin with its signature',
          false,
        ],
        [
          '/content/1/mimeType',
          'mimeType image/jpeg contradicts the bytes, which do not begin with its signature and look like text',
          false,
        ],
        [
          '/content/2/mimeType',
          'mimeType image/webp contradicts the bytes, which do not begin with its signature and look like text',
          false,
        ],
        // A RIFF file of another form type is what the sniffer says it is.
        [
          '/content/3/mimeType',
          'mimeType audio/wav contradicts the bytes, which look like video/vnd.avi',
          true,
        ],
        ['/content/4/mimeType', 'mimeType image/gif contradicts the payload, which is empty', false],
      ]);
    }
  });

  it('reports SVG markup declared as PNG', async () => {
    const [f] = await ruleFindings(
      'block-mime-type-mismatch',
      resultOf([{ type: 'image', data: SVG, mimeType: 'image/png' }]),
    );
    expect(f?.data.sniffed).toBe('image/svg+xml');
  });

  it('sets the sniffed type', async () => {
    const { document } = await repairOnce(
      'block-mime-type-mismatch',
      resultOf([{ type: 'image', data: PNG, mimeType: 'image/jpeg' }]),
    );
    expect(blockOf(document).mimeType).toBe('image/png');
    expect(await check(document)).toEqual([]);
  });
});

describe('base64 rules', () => {
  it('block-base64-data-uri: strips the prefix and takes the media type when missing', async () => {
    const [f] = await ruleFindings(
      'block-base64-data-uri',
      resultOf([{ type: 'image', data: `data:image/png;base64,${PNG}` }]),
    );
    expect(f).toMatchObject({ severity: 'error', pointer: '/content/0/data' });
    const { document } = await repairOnce(
      'block-base64-data-uri',
      resultOf([{ type: 'image', data: `data:image/png;base64,${PNG}` }]),
    );
    expect(blockOf(document)).toEqual({ type: 'image', data: PNG, mimeType: 'image/png' });
    expect(await check(document)).toEqual([]);
  });

  it('block-base64-data-uri: re-encodes a percent-encoded data URI and applies to resource blobs', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    const block = {
      type: 'resource',
      resource: { uri: 'file:///a.svg', blob: `data:image/svg+xml,${encodeURIComponent(svg)}` },
    };
    const { document } = await repairOnce('block-base64-data-uri', resultOf([block]));
    expect(blockOf(document)).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a.svg', blob: btoa(svg), mimeType: 'image/svg+xml' },
    });
  });

  it('block-base64-invalid: reports what atob rejects and has no repair', async () => {
    const [f] = await ruleFindings(
      'block-base64-invalid',
      resultOf([{ type: 'image', data: 'not base64!', mimeType: 'image/png' }]),
    );
    expect(f).toMatchObject({ severity: 'error', pointer: '/content/0/data', fix: { automatic: false } });
    const blob = await ruleFindings(
      'block-base64-invalid',
      resultOf([{ type: 'resource', resource: { uri: 'file:///a', blob: 'A' } }]),
    );
    expect(blob[0]?.pointer).toBe('/content/0/resource/blob');
  });

  it('block-base64-url-alphabet: translates to the standard alphabet', async () => {
    const url = PNG.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const input = resultOf([{ type: 'image', data: url, mimeType: 'image/png' }]);
    expect(await ruleFindings('block-base64-url-alphabet', input)).toHaveLength(1);
    const { document } = await repairOnce('block-base64-url-alphabet', input);
    expect(blockOf(document).data).toBe(PNG);
  });

  it('block-base64-non-canonical: warns on whitespace and missing padding, and normalizes', async () => {
    const wrapped = `${PNG.slice(0, 40)}\n${PNG.slice(40)}`;
    const unpadded = PNG.replace(/=+$/, '');
    for (const data of [wrapped, unpadded]) {
      const input = resultOf([{ type: 'image', data, mimeType: 'image/png' }]);
      const findings = await check(input);
      expect(findings.map((f) => `${f.rule}:${f.severity}`)).toEqual(['block-base64-non-canonical:warning']);
      const { document } = await repairOnce('block-base64-non-canonical', input);
      expect(blockOf(document).data).toBe(PNG);
    }
  });

  it('a clean payload has no base64 finding', async () => {
    expect(errorsOf(await check(resultOf([{ type: 'audio', data: WAV, mimeType: 'audio/wav' }])))).toEqual(
      [],
    );
  });
});

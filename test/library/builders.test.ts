import { describe, expect, it } from 'vitest';
import {
  annotations,
  audio,
  embeddedResource,
  errorResult,
  errorText,
  image,
  resourceLink,
  text,
} from '../../src/library/builders.js';
import { validateToolResultSync } from '../../src/validate/index.js';
import { JPEG_HEADER, PDF, PNG_1X1, WAV, wavBytes } from './support/shapes.js';

const pngBytes = Uint8Array.from(Buffer.from(PNG_1X1, 'base64'));

describe('builders', () => {
  it('text()', () => {
    expect(text('hi')).toEqual({ type: 'text', text: 'hi' });
    expect(text('hi', { annotations: { priority: 0.5 } })).toEqual({
      type: 'text',
      text: 'hi',
      annotations: { priority: 0.5 },
    });
  });

  it('image() with a mimeType is synchronous and encodes bytes', () => {
    expect(image(pngBytes, 'image/png')).toEqual({ type: 'image', data: PNG_1X1, mimeType: 'image/png' });
    expect(image(Buffer.from(pngBytes), 'image/png').data).toBe(PNG_1X1);
  });

  it('image() without a mimeType sniffs it (async)', async () => {
    await expect(image(pngBytes)).resolves.toEqual({ type: 'image', data: PNG_1X1, mimeType: 'image/png' });
    await expect(image(JPEG_HEADER)).resolves.toMatchObject({ mimeType: 'image/jpeg' });
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    await expect(image(svg)).resolves.toMatchObject({ mimeType: 'image/svg+xml' });
  });

  it('image() takes a data: URI, strips the prefix and keeps its type', () => {
    expect(image(`data:image/png;base64,${PNG_1X1}`)).toEqual({
      type: 'image',
      data: PNG_1X1,
      mimeType: 'image/png',
    });
  });

  it('image() rejects bytes that are not an image, and non-base64 strings', async () => {
    await expect(image(Buffer.from(PDF, 'base64'))).rejects.toThrow(/application\/pdf is not an image type/);
    await expect(image(new TextEncoder().encode('hello there'))).rejects.toThrow(
      /not a recognised image format/,
    );
    expect(() => image('not base64!', 'image/png')).toThrow(/not base64/);
    expect(() => image(pngBytes, 'audio/wav')).toThrow(/not an image type/);
  });

  it('audio() sniffs audio and rejects images', async () => {
    await expect(audio(wavBytes())).resolves.toEqual({ type: 'audio', data: WAV, mimeType: 'audio/wav' });
    await expect(audio(pngBytes)).rejects.toThrow(/image\/png is not an audio type/);
  });

  it('resourceLink() derives a name and checks the URI', () => {
    expect(resourceLink('https://example.com/files/report%20q3.pdf')).toEqual({
      type: 'resource_link',
      uri: 'https://example.com/files/report%20q3.pdf',
      name: 'report q3.pdf',
    });
    expect(resourceLink({ uri: 'file:///a.txt', name: 'a', mimeType: 'text/plain', size: 3 })).toEqual({
      type: 'resource_link',
      uri: 'file:///a.txt',
      name: 'a',
      mimeType: 'text/plain',
      size: 3,
    });
    expect(() => resourceLink('no scheme')).toThrow(/absolute URI/);
  });

  it('embeddedResource() holds text or a blob', () => {
    expect(embeddedResource({ uri: 'file:///n.txt', text: 'n', mimeType: 'text/plain' })).toEqual({
      type: 'resource',
      resource: { uri: 'file:///n.txt', text: 'n', mimeType: 'text/plain' },
    });
    expect(embeddedResource({ uri: 'file:///r.pdf', blob: `data:application/pdf;base64,${PDF}` })).toEqual({
      type: 'resource',
      resource: { uri: 'file:///r.pdf', blob: PDF, mimeType: 'application/pdf' },
    });
  });

  it('annotations() checks ranges and formats dates', () => {
    expect(
      annotations({ audience: 'user', priority: 1, lastModified: new Date(Date.UTC(2025, 0, 12)) }),
    ).toEqual({
      audience: ['user'],
      priority: 1,
      lastModified: '2025-01-12T00:00:00.000Z',
    });
    expect(() => annotations({ priority: 2 })).toThrow(RangeError);
    expect(() => annotations({ priority: Number.NaN })).toThrow(RangeError);
    expect(() => annotations({ lastModified: 'yesterday' })).toThrow(RangeError);
    expect(() => annotations({ audience: ['system' as 'user'] })).toThrow(RangeError);
  });

  it('errorResult() from a message or an Error, with resultType only in 2026-07-28', () => {
    expect(errorResult('nope', { protocolVersion: '2025-06-18' })).toEqual({
      content: [{ type: 'text', text: 'nope' }],
      isError: true,
    });
    expect(errorResult(new TypeError('bad input'), { protocolVersion: '2026-07-28' })).toEqual({
      content: [{ type: 'text', text: 'TypeError: bad input' }],
      isError: true,
      resultType: 'complete',
    });
    // Without a version: DEFAULT_PROTOCOL_VERSION (2025-11-25), which has no resultType.
    expect(errorResult('nope')).toEqual({ content: [{ type: 'text', text: 'nope' }], isError: true });
    // Without a message, the name once (it read "TypeError: TypeError").
    expect(errorResult(new TypeError()).content).toEqual([{ type: 'text', text: 'TypeError' }]);
    expect(errorResult(new Error()).content).toEqual([{ type: 'text', text: 'Error' }]);
  });

  it('text() takes only a string, and every block takes annotations and _meta', () => {
    expect(() => text(5 as unknown as string)).toThrow(
      new TypeError('text(): expected a string, got number'),
    );
    const options = { annotations: { audience: ['user' as const] }, _meta: { 'com.example/id': 1 } };
    expect(text('hi', options)).toEqual({ type: 'text', text: 'hi', ...options });
    expect(image(pngBytes, 'image/png', { _meta: { a: 1 } })).toEqual({
      type: 'image',
      data: PNG_1X1,
      mimeType: 'image/png',
      _meta: { a: 1 },
    });
    expect(resourceLink({ uri: 'file:///a', ...options })).toEqual({
      type: 'resource_link',
      uri: 'file:///a',
      name: 'a',
      ...options,
    });
    expect(embeddedResource({ uri: 'file:///a', text: 'x', ...options })).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a', text: 'x' },
      ...options,
    });
  });

  it('image() and audio() take an ArrayBuffer, base64url and non-canonical base64, and say what is wrong', async () => {
    const buffer = pngBytes.buffer.slice(pngBytes.byteOffset, pngBytes.byteOffset + pngBytes.byteLength);
    expect(image(buffer, 'image/png').data).toBe(PNG_1X1);
    await expect(image(buffer)).resolves.toMatchObject({ mimeType: 'image/png' });
    // The URL alphabet and unpadded or non-canonical base64 come out canonical. (AVIF has no signature
    // of its own at the start, so these few bytes do not contradict it.)
    const url = Buffer.from([0xfb, 0xff, 0xbf]).toString('base64url');
    expect(url).toBe('-_-_');
    expect(image(url, 'image/avif').data).toBe('+/+/');
    expect(image(PNG_1X1.replace(/=+$/, ''), 'image/png').data).toBe(PNG_1X1);
    expect(image('QQ', 'image/avif').data).toBe('QQ==');
    expect(() => image(7 as unknown as string, 'image/png')).toThrow(
      new TypeError('image(): expected a Uint8Array, an ArrayBuffer, base64 or a data: URI, got number'),
    );
    expect(() => audio('not base64!', 'audio/wav')).toThrow(/^audio\(\): the string is not base64 \(/);
    expect(() => audio(wavBytes(), 'image/png')).toThrow(
      new TypeError('audio(): image/png is not an audio type; use embeddedResource() for other binary data'),
    );
    // The family is read from the canonical type: case and parameters do not matter.
    expect(image(pngBytes, 'IMAGE/PNG; q=1').mimeType).toBe('IMAGE/PNG; q=1');
    await expect(audio(new Uint8Array(0))).rejects.toThrow(
      new TypeError('audio(): the bytes are not a recognised audio format; pass a mimeType'),
    );
  });

  it('data: URIs: base64 or percent-encoded, with or without a type; an explicit mimeType wins', () => {
    expect(embeddedResource({ uri: 'file:///a.txt', blob: 'data:text/plain,h%C3%A9%20y' })).toEqual({
      type: 'resource',
      resource: {
        uri: 'file:///a.txt',
        blob: Buffer.from('hé y').toString('base64'),
        mimeType: 'text/plain',
      },
    });
    expect(embeddedResource({ uri: 'file:///a', blob: `data:;base64,${PDF}` })).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a', blob: PDF },
    });
    expect(
      embeddedResource({
        uri: 'file:///a',
        blob: `data:application/octet-stream;base64,${PDF}`,
        mimeType: 'application/pdf',
      }),
    ).toEqual({ type: 'resource', resource: { uri: 'file:///a', blob: PDF, mimeType: 'application/pdf' } });
    expect(image(`data:image/gif;base64,${PNG_1X1}`, 'image/png').mimeType).toBe('image/png');
  });

  it('resourceLink() names a link by its last path segment, without query or fragment, else by its URI', () => {
    const name = (uri: string) => resourceLink(uri).name;
    expect(name('https://example.com/a/b.csv?x=1#top')).toBe('b.csv');
    expect(name('https://example.com/a/dir///')).toBe('dir');
    expect(name('https://example.com/a%2Fb')).toBe('a/b');
    expect(name('urn:isbn:0451450523')).toBe('urn:isbn:0451450523');
    expect(name('https://example.com/')).toBe('example.com');
    expect(resourceLink({ uri: 'file:///a', name: '', title: 'A', description: 'the a', size: 0 })).toEqual({
      type: 'resource_link',
      uri: 'file:///a',
      name: '',
      title: 'A',
      description: 'the a',
      size: 0,
    });
    for (const uri of [5, '', '1a:b', '/abs', ':x']) {
      expect(() => resourceLink({ uri } as unknown as { uri: string })).toThrow(
        new TypeError(
          `resourceLink(): uri must be an absolute URI with a scheme, got ${JSON.stringify(uri)}`,
        ),
      );
    }
    expect(resourceLink('a+b.c-d:x').uri).toBe('a+b.c-d:x');
  });

  it('embeddedResource() takes exactly one of text and blob, and its contents _meta apart from the block _meta', () => {
    expect(() => embeddedResource({ uri: 'file:///a' } as unknown as { uri: string; text: string })).toThrow(
      new TypeError('embeddedResource(): give exactly one of text or blob'),
    );
    expect(() => embeddedResource({ uri: 'nope', text: 'x' })).toThrow(/^embeddedResource\(\): uri must/);
    // Both, from a caller TypeScript does not check: the blob was dropped without a word.
    const both = { uri: 'file:///a', text: 'x', blob: new Uint8Array([1]) } as unknown as {
      uri: string;
      text: string;
    };
    expect(() => embeddedResource(both)).toThrow(
      new TypeError('embeddedResource(): give exactly one of text or blob, not both'),
    );
    expect(embeddedResource({ uri: 'file:///a', text: '', contentsMeta: { c: 1 }, _meta: { b: 1 } })).toEqual(
      {
        type: 'resource',
        resource: { uri: 'file:///a', text: '', _meta: { c: 1 } },
        _meta: { b: 1 },
      },
    );
    expect(embeddedResource({ uri: 'file:///a', blob: pngBytes })).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a', blob: PNG_1X1 },
    });
  });

  it('annotations(): both roles once each, priority 0 to 1 inclusive, dates as ISO strings', () => {
    expect(annotations({})).toEqual({});
    expect(annotations({ audience: ['assistant', 'user', 'assistant'], priority: 0 })).toEqual({
      audience: ['assistant', 'user'],
      priority: 0,
    });
    expect(annotations({ lastModified: '2025-01-12T10:00:00+02:00' })).toEqual({
      lastModified: '2025-01-12T08:00:00.000Z',
    });
    expect(() => annotations({ priority: -0.01 })).toThrow(
      new RangeError('annotations(): priority must be a number from 0 to 1, got -0.01'),
    );
    expect(() => annotations({ priority: 1.01 })).toThrow(RangeError);
    expect(() => annotations({ priority: '0.5' as unknown as number })).toThrow(RangeError);
    expect(() => annotations({ audience: 'model' as 'user' })).toThrow(
      new RangeError('annotations(): audience must be "user" or "assistant", got "model"'),
    );
    expect(() => annotations({ lastModified: 'yesterday' })).toThrow(
      new RangeError('annotations(): lastModified is not a date: yesterday'),
    );
    expect(() => annotations({ lastModified: new Date(Number.NaN) })).toThrow(RangeError);
  });

  it('errorResult() says what any thrown value was, and never sends an empty text', () => {
    const said = (error: unknown) => errorResult(error).content[0];
    expect(said(new Error('plain'))).toEqual({ type: 'text', text: 'plain' });
    expect(said(new RangeError(''))).toEqual({ type: 'text', text: 'RangeError' });
    const nameless = new Error('no name');
    nameless.name = '';
    expect(said(nameless)).toEqual({ type: 'text', text: 'no name' });
    expect(said({ code: 4, why: 'x' })).toEqual({ type: 'text', text: '{"code":4,"why":"x"}' });
    expect(said(undefined)).toEqual({ type: 'text', text: 'undefined' });
    expect(said(10n)).toEqual({ type: 'text', text: '10' });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(said(cyclic)).toEqual({ type: 'text', text: '[object Object]' });
    expect(said('')).toEqual({ type: 'text', text: 'The tool failed.' });
  });

  it('sets no member it was not given (not even to undefined)', () => {
    expect(Object.keys(resourceLink('file:///a'))).toEqual(['type', 'uri', 'name']);
    expect(Object.keys(embeddedResource({ uri: 'file:///a', blob: PDF }).resource)).toEqual(['uri', 'blob']);
    expect(Object.keys(embeddedResource({ uri: 'file:///a', text: 'x' }).resource)).toEqual(['uri', 'text']);
    expect(() => resourceLink({ uri: ['file:///a'] } as unknown as { uri: string })).toThrow(/absolute URI/);
    expect(() => embeddedResource({ uri: 'file:///a', blob: 'not base64!' })).toThrow(
      /^embeddedResource\(\): the string is not base64/,
    );
  });

  it('builds no block the validator rejects: bytes that contradict the declared type throw, naming what they are', () => {
    // Each was built before, and the validator then reported block-mime-type-mismatch on it.
    const mismatches: readonly [string, () => unknown, string][] = [
      [
        'PNG as JPEG',
        () => image(pngBytes, 'image/jpeg'),
        'image(): the bytes are image/png, not image/jpeg',
      ],
      [
        'a data URI that lies',
        () => image(`data:image/gif;base64,${PNG_1X1}`),
        'the bytes are image/png, not image/gif',
      ],
      ['WAV as Ogg', () => audio(wavBytes(), 'audio/ogg'), 'audio(): the bytes are audio/wav, not audio/ogg'],
      ['PNG as WAV', () => audio(pngBytes, 'audio/wav'), 'audio(): the bytes are image/png, not audio/wav'],
      [
        'text as PNG',
        () => image(new TextEncoder().encode('<html>502 Bad Gateway</html>'), 'image/png'),
        'the bytes are no image/png: they do not begin with its signature',
      ],
      ['no bytes as PNG', () => image(new Uint8Array(0), 'image/png'), 'the bytes are empty, no image/png'],
      [
        'a PNG blob as PDF',
        () => embeddedResource({ uri: 'file:///a.pdf', blob: pngBytes, mimeType: 'application/pdf' }),
        'embeddedResource(): the bytes are image/png, not application/pdf',
      ],
      ['a malformed type', () => image(pngBytes, 'image/png x'), 'image(): mimeType must be a media type'],
      [
        'a malformed blob type',
        () => embeddedResource({ uri: 'file:///a', blob: pngBytes, mimeType: 'png' }),
        'mimeType must be a media type such as image/png, got "png"',
      ],
      [
        'a malformed link type',
        () => resourceLink({ uri: 'file:///a', mimeType: 'text' }),
        'resourceLink(): mimeType must be a media type',
      ],
    ];
    for (const [, build, message] of mismatches) {
      expect(build).toThrow(TypeError);
      expect(build).toThrow(message);
    }
    // What agrees is built, and the validator has nothing to say of it.
    const built = [
      image(pngBytes, 'IMAGE/PNG; q=1'),
      image(JPEG_HEADER, 'image/jpeg'),
      audio(wavBytes(), 'audio/x-wav'),
      embeddedResource({ uri: 'file:///a.pdf', blob: PDF, mimeType: 'application/pdf' }),
    ];
    expect(validateToolResultSync({ content: built })).toEqual([]);
  });

  it('resourceLink() refuses script URLs and URIs the validator rejects, and names a link with broken escapes', () => {
    for (const uri of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,%3Cb%3E',
    ]) {
      expect(() => resourceLink(uri)).toThrow(
        new TypeError(
          `resourceLink(): ${JSON.stringify(uri)} runs script where a client renders the link; a resource link must name a resource`,
        ),
      );
    }
    // block-uri-invalid reported each of these as an error.
    for (const uri of [
      'https://example.com/a b.txt',
      'data:text/html,<script>alert(1)</script>',
      'https://x.y/%E0%A4%A',
    ]) {
      expect(() => resourceLink(uri)).toThrow(
        /is not a valid URI; characters such as spaces must be percent-encoded/,
      );
      expect(() => embeddedResource({ uri, text: 'x' })).toThrow(
        /^embeddedResource\(\): uri .* is not a valid URI/,
      );
    }
    // A last segment whose escapes do not decode threw decodeURIComponent's URIError ("URI malformed").
    expect(resourceLink('https://example.com/%E0%A4').name).toBe('%E0%A4');
    const links = ['file:///etc/hosts', 'data:text/plain,hi', 'urn:isbn:0451450523', 'ui://widget/1'].map(
      (uri) => resourceLink(uri),
    );
    expect(validateToolResultSync({ content: links })).toEqual([]);
  });

  it('text(), embeddedResource() and resourceLink() refuse text with a lone surrogate, as result-lone-surrogate reports it', () => {
    const cut = 'Launch day \ud83d';
    const message =
      'the text holds a lone surrogate at index 11 (half of a character, as cutting through an emoji leaves); cut text at whole characters or call text.toWellFormed()';
    expect(() => text(cut)).toThrow(new TypeError(`text(): ${message}`));
    expect(() => embeddedResource({ uri: 'file:///a.txt', text: cut })).toThrow(
      new TypeError(`embeddedResource(): ${message}`),
    );
    expect(() => resourceLink({ uri: 'file:///a.txt', name: cut })).toThrow(
      /result-lone-surrogate at \/name/,
    );
    expect(text('Launch day \ud83d\ude80').text).toBe('Launch day \ud83d\ude80');
  });

  it('embeddedResource() refuses script URLs as block-uri-script reports them, and resourceLink() agrees with the rule', () => {
    for (const [uri, kind] of [
      ['javascript:alert(1)', 'javascript:'],
      ['JavaScript:alert(1)', 'javascript:'],
      ['vbscript:msgbox(1)', 'vbscript:'],
      ['data:text/html,%3Cb%3E', 'data:text/html'],
    ] as const) {
      // Built before: the rule (a warning) reported it on the block, and repair() replaced it.
      expect(() => embeddedResource({ uri, text: 'x' })).toThrow(
        new TypeError(
          `embeddedResource(): resource.uri ${JSON.stringify(uri)} is a ${kind} URL, which runs script where a client renders it (block-uri-script at /resource/uri)`,
        ),
      );
    }
    for (const uri of [
      'javascript:alert(1)',
      'data:text/html,x',
      'data:text/plain,x',
      'https://javascript.example/',
    ]) {
      const ruleReports = validateToolResultSync({
        content: [{ type: 'resource_link', uri, name: 'x' }],
      }).some((f) => f.rule === 'block-uri-script');
      let built = true;
      try {
        resourceLink(uri);
      } catch {
        built = false;
      }
      expect(built, uri).toBe(!ruleReports);
    }
  });

  it('a caller outside TypeScript gets a TypeError saying what is wrong, never a block the validator rejects or an internal error', () => {
    const bad: readonly [() => unknown, string][] = [
      // Built before, and then reported by the validator as an error.
      [
        () => text('x', { annotations: { priority: 7 } }),
        'text(): annotations.priority must be a number from 0 to 1, got 7',
      ],
      [
        () => text('x', { _meta: [1] as never }),
        'text(): _meta must be an object, got array (block-meta-not-object at /_meta)',
      ],
      [
        () => image(pngBytes, 'image/png', { _meta: { n: 1n } }),
        'image(): the result cannot be serialized: it holds a BigInt',
      ],
      [
        () => resourceLink({ uri: 'file:///a', size: 1.5 }),
        'resourceLink(): resource_link "size" must be an integer',
      ],
      [
        () => resourceLink({ uri: 'file:///a', size: Number.NaN }),
        'resourceLink(): resource_link "size" must be an integer',
      ],
      [
        () => resourceLink({ uri: 'file:///a', name: 5 as never }),
        'resourceLink(): resource_link "name" must be a string',
      ],
      [
        () => resourceLink({ uri: 'file:///a', title: {} as never }),
        'resourceLink(): resource_link "title" must be a string',
      ],
      [
        () => embeddedResource({ uri: 'file:///a', text: 'x', contentsMeta: 'm' as never }),
        'embeddedResource(): resource._meta must be an object, got string',
      ],
      // Each threw V8's own TypeError or RangeError.
      [() => resourceLink(null as never), 'resourceLink(): expected an object, got null'],
      [() => embeddedResource(null as never), 'embeddedResource(): expected an object, got null'],
      [() => annotations(null as never), 'annotations(): expected an object, got null'],
      [
        () => annotations({ lastModified: Symbol('d') as never }),
        'annotations(): lastModified must be a Date or an ISO 8601 string, got symbol',
      ],
      [() => annotations({ lastModified: 5n as never }), 'got bigint'],
      [
        () => annotations({ priority: Symbol('p') as never }),
        'annotations(): priority must be a number from 0 to 1, got Symbol(p)',
      ],
      [() => errorResult('x', '2025-06-18' as never), 'errorResult(): options must be an object'],
      [
        () => image(new Uint16Array(4) as never, 'image/png'),
        'image(): expected a Uint8Array, an ArrayBuffer, base64 or a data: URI, got a Uint16Array',
      ],
      [
        () => {
          const bytes = new Uint8Array(pngBytes);
          structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
          return image(bytes, 'image/png');
        },
        "image(): the bytes' ArrayBuffer is detached (transferred), so they cannot be read",
      ],
    ];
    for (const [build, message] of bad) {
      expect(build).toThrow(message);
      // A TypeError, or the RangeError annotations() throws for a value out of its range.
      const thrown = (() => {
        try {
          build();
        } catch (error) {
          return error;
        }
      })();
      expect([TypeError, RangeError]).toContain((thrown as Error).constructor);
    }
    // What is within the rules is built as given; a URI past client limits is the caller's call, as a long text is.
    const link = resourceLink({
      uri: `https://example.com/${'a'.repeat(2_000_000)}`,
      size: 0,
      _meta: { d: 1 },
    });
    expect(link.size).toBe(0);
    expect(text('x', { annotations: { priority: 1, audience: ['user'] }, _meta: {} })).toEqual({
      type: 'text',
      text: 'x',
      annotations: { priority: 1, audience: ['user'] },
      _meta: {},
    });
  });

  it('errorText() and errorResult() take anything a handler may throw, and never throw themselves', () => {
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const protoThrows = new Proxy(
      {},
      {
        getPrototypeOf: () => {
          throw new Error('no prototype');
        },
      },
    );
    const messageThrows = Object.defineProperty(new Error('x'), 'message', {
      get() {
        throw new Error('no message');
      },
    });
    const bareWithBigInt = Object.assign(Object.create(null), { n: 1n });
    // Each threw: instanceof on a revoked proxy or one whose prototype throws, the message getter, String().
    for (const thrown of [revoked, protoThrows, messageThrows, bareWithBigInt]) {
      const result = errorResult(thrown);
      expect(result.isError).toBe(true);
      expect(validateToolResultSync(result)).toEqual([]);
    }
    expect(errorText(bareWithBigInt)).toBe('{"n":"1"}');
    expect(errorText(protoThrows)).toBe('{}');
    expect(errorResult(messageThrows).content).toEqual([{ type: 'text', text: 'The tool failed.' }]);
  });
});

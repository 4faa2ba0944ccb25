import { describe, expect, it } from 'vitest';
import {
  annotations,
  audio,
  embeddedResource,
  errorResult,
  image,
  resourceLink,
  text,
} from '../../src/library/builders.js';
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
  });
});

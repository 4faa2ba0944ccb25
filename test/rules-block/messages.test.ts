/**
 * What each block rule says, whole: rule, message id, pointer and the words a user reads, for every
 * message a block rule has (block-type-unknown's are in types.test.ts, with its repairs).
 */

import { describe, expect, it } from 'vitest';
import type { ProtocolVersion } from '../../src/spec/versions.js';
import { check, LATEST, PDF, PNG, repairOnce, resultOf, WAV } from './support.js';

async function said(block: unknown, version: ProtocolVersion = LATEST): Promise<string[][]> {
  return (await check(resultOf([block], version), version)).map((f) => [
    f.rule,
    f.messageId,
    f.pointer,
    f.message,
  ]);
}

const CASES: [string, unknown, string[][], ProtocolVersion?][] = [
  [
    'annotations that are no object',
    { type: 'text', text: 'x', annotations: 'hi' },
    [
      [
        'block-annotations-invalid',
        'default',
        '/content/0/annotations',
        'annotations must be an object, got string',
      ],
    ],
  ],
  [
    'each wrong annotation',
    { type: 'text', text: 'x', annotations: { audience: 'user', priority: 2, lastModified: 'yesterday' } },
    [
      [
        'block-annotations-invalid',
        'audienceNotArray',
        '/content/0/annotations/audience',
        'annotations.audience must be an array of "user" / "assistant", got string',
      ],
      [
        'block-annotations-invalid',
        'priority',
        '/content/0/annotations/priority',
        'annotations.priority must be a number from 0 to 1, got 2',
      ],
      [
        'block-annotations-invalid',
        'lastModified',
        '/content/0/annotations/lastModified',
        'annotations.lastModified "yesterday" is not an ISO 8601 date-time with a time zone (e.g. 2025-01-12T15:00:58Z)',
      ],
    ],
  ],
  [
    'each unknown audience role',
    { type: 'text', text: 'x', annotations: { audience: ['user', 'bot', 3], priority: '1' } },
    [
      [
        'block-annotations-invalid',
        'audience',
        '/content/0/annotations/audience/1',
        'annotations.audience contains "bot"; only "user" and "assistant" are roles',
      ],
      [
        'block-annotations-invalid',
        'audience',
        '/content/0/annotations/audience/2',
        'annotations.audience contains 3; only "user" and "assistant" are roles',
      ],
      [
        'block-annotations-invalid',
        'priority',
        '/content/0/annotations/priority',
        'annotations.priority must be a number from 0 to 1, got "1"',
      ],
    ],
  ],
  [
    'annotations inside resource contents',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', annotations: { priority: 1 } } },
    [
      [
        'block-annotations-in-resource',
        'default',
        '/content/0/resource/annotations',
        'annotations inside resource contents are ignored; move them to the resource block',
      ],
    ],
  ],
  [
    'a data: URI prefix',
    { type: 'image', data: `data:image/png;base64,${PNG}`, mimeType: 'image/png' },
    [
      [
        'block-base64-data-uri',
        'default',
        '/content/0/data',
        'data starts with a data: URI prefix (data:image/png;base64,); it must be raw base64',
      ],
    ],
  ],
  [
    'bytes that are no base64',
    { type: 'image', data: 'not base64!!', mimeType: 'image/png' },
    [['block-base64-invalid', 'default', '/content/0/data', 'data is not valid base64 ("not base64!!")']],
  ],
  [
    'base64 without its padding',
    { type: 'image', data: 'iVBORw0KGgo', mimeType: 'image/png' },
    [
      [
        'block-base64-non-canonical',
        'default',
        '/content/0/data',
        'data is not canonical base64 (the = padding is missing); strict decoders reject it',
      ],
    ],
  ],
  [
    'the base64url alphabet',
    { type: 'image', data: 'iVBO-w0_Ggo=', mimeType: 'image/png' },
    [
      [
        'block-base64-url-alphabet',
        'default',
        '/content/0/data',
        'data uses the base64url alphabet (- and _); MCP requires standard base64 (+ and /)',
      ],
    ],
  ],
  [
    'no data',
    { type: 'image', mimeType: 'image/png' },
    [['block-data-invalid', 'default', '/content/0/data', 'image block has no "data"']],
  ],
  [
    'the bytes under another name',
    { type: 'image', base64: PNG, mimeType: 'image/png' },
    [
      [
        'block-data-invalid',
        'alias',
        '/content/0/data',
        'image block has no "data" but a "base64" member; the base64 bytes belong in "data"',
      ],
    ],
  ],
  [
    'data that is no string',
    { type: 'audio', data: 5, mimeType: 'audio/wav' },
    [
      [
        'block-data-invalid',
        'notString',
        '/content/0/data',
        'audio block "data" must be a base64 string, got integer',
      ],
    ],
  ],
  [
    'a block _meta that is no object',
    { type: 'text', text: 'x', _meta: 'm' },
    [['block-meta-not-object', 'default', '/content/0/_meta', '_meta must be an object, got string']],
  ],
  [
    'a resource _meta that is no object',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', _meta: [] } },
    [
      [
        'block-meta-not-object',
        'default',
        '/content/0/resource/_meta',
        'resource._meta must be an object, got array',
      ],
    ],
  ],
  [
    'a mimeType that is no media type',
    { type: 'image', data: PNG, mimeType: 'png' },
    [
      [
        'block-mime-type-malformed',
        'default',
        '/content/0/mimeType',
        'mimeType "png" is not a media type of the form type/subtype',
      ],
    ],
  ],
  [
    'a mimeType the bytes contradict',
    { type: 'image', data: PNG, mimeType: 'image/jpeg' },
    [
      [
        'block-mime-type-mismatch',
        'default',
        '/content/0/mimeType',
        'mimeType image/jpeg contradicts the bytes, which look like image/png',
      ],
    ],
  ],
  [
    'no mimeType, with what the bytes look like',
    { type: 'image', data: PNG },
    [
      [
        'block-mime-type-missing',
        'sniffed',
        '/content/0/mimeType',
        'image block has no mimeType; the bytes look like image/png',
      ],
    ],
  ],
  [
    'no mimeType, on unknown bytes',
    { type: 'image', data: 'AAAA' },
    [['block-mime-type-missing', 'default', '/content/0/mimeType', 'image block has no mimeType']],
  ],
  [
    'a mimeType that is no string',
    { type: 'image', data: PNG, mimeType: [] },
    [
      [
        'block-mime-type-missing',
        'notString',
        '/content/0/mimeType',
        'image block mimeType must be a string, got array',
      ],
    ],
  ],
  [
    'a mimeType of another family',
    { type: 'audio', data: WAV, mimeType: 'image/png' },
    [
      [
        'block-mime-type-wrong-family',
        'default',
        '/content/0/mimeType',
        'audio block declares mimeType image/png, which is not audio/*',
      ],
    ],
  ],
  [
    'a content item that is no object',
    null,
    [['block-not-object', 'default', '/content/0', 'content item is null, not a content block object']],
  ],
  [
    'an array where a block belongs',
    [1],
    [
      [
        'block-not-object',
        'default',
        '/content/0',
        'content item is a JSON array, not a content block object',
      ],
    ],
  ],
  [
    'an embedded resource without its resource',
    { type: 'resource' },
    [
      [
        'block-resource-invalid',
        'default',
        '/content/0/resource',
        'embedded resource has no "resource" object',
      ],
    ],
  ],
  [
    'a resource that is no object',
    { type: 'resource', resource: 'x' },
    [
      [
        'block-resource-invalid',
        'notObject',
        '/content/0/resource',
        'embedded resource "resource" must be an object, got string',
      ],
    ],
  ],
  [
    'resource contents without a uri',
    { type: 'resource', resource: { text: 'x' } },
    [
      [
        'block-resource-invalid',
        'missingUri',
        '/content/0/resource/uri',
        'embedded resource contents have no "uri"',
      ],
    ],
  ],
  [
    'a resource uri that is no string',
    { type: 'resource', resource: { uri: 5, text: 'x' } },
    [
      [
        'block-resource-invalid',
        'uriNotString',
        '/content/0/resource/uri',
        'embedded resource "uri" must be a string, got integer',
      ],
    ],
  ],
  [
    'resource contents with neither text nor blob',
    { type: 'resource', resource: { uri: 'file:///a' } },
    [
      [
        'block-resource-invalid',
        'noContent',
        '/content/0/resource/text',
        'embedded resource contents have neither "text" nor "blob"',
      ],
    ],
  ],
  [
    'a resource mimeType that is no string',
    { type: 'resource', resource: { uri: 'file:///a', blob: PDF, mimeType: 5 } },
    [
      [
        'block-resource-invalid',
        'notString',
        '/content/0/resource/mimeType',
        'embedded resource "mimeType" must be a string, got integer',
      ],
    ],
  ],
  [
    'resource contents with both text and blob',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', blob: PDF } },
    [
      [
        'block-resource-text-and-blob',
        'default',
        '/content/0/resource/blob',
        'embedded resource contents have both "text" and "blob"; clients keep only one of them',
      ],
    ],
  ],
  [
    'a relative resource uri',
    { type: 'resource', resource: { uri: 'relative/a', text: 'x' } },
    [
      [
        'block-uri-invalid',
        'default',
        '/content/0/resource/uri',
        'resource.uri "relative/a" is not an absolute URI with a scheme',
      ],
    ],
  ],
  [
    'a resource_link without a name',
    { type: 'resource_link', uri: 'file:///a' },
    [['block-resource-link-invalid', 'default', '/content/0/name', 'resource_link has no "name"']],
  ],
  [
    'a resource_link name that is no string',
    { type: 'resource_link', uri: 'file:///a', name: 5 },
    [
      [
        'block-resource-link-invalid',
        'nameNotString',
        '/content/0/name',
        'resource_link "name" must be a string, got integer',
      ],
    ],
  ],
  [
    'a resource_link without a uri',
    { type: 'resource_link', name: 'a' },
    [['block-resource-link-invalid', 'missingUri', '/content/0/uri', 'resource_link has no "uri"']],
  ],
  [
    'a resource_link uri that is no string',
    { type: 'resource_link', name: 'a', uri: 5 },
    [
      [
        'block-resource-link-invalid',
        'uriNotString',
        '/content/0/uri',
        'resource_link "uri" must be a string, got integer',
      ],
    ],
  ],
  [
    'resource_link fields that are no strings',
    { type: 'resource_link', name: 'a', uri: 'file:///a', title: 5, description: 6, mimeType: 7 },
    [
      [
        'block-resource-link-invalid',
        'notString',
        '/content/0/title',
        'resource_link "title" must be a string, got integer',
      ],
      [
        'block-resource-link-invalid',
        'notString',
        '/content/0/description',
        'resource_link "description" must be a string, got integer',
      ],
      [
        'block-resource-link-invalid',
        'notString',
        '/content/0/mimeType',
        'resource_link "mimeType" must be a string, got integer',
      ],
    ],
  ],
  [
    'a fractional size',
    { type: 'resource_link', name: 'a', uri: 'file:///a', size: 1.5 },
    [
      [
        'block-resource-link-invalid',
        'size',
        '/content/0/size',
        'resource_link "size" must be an integer number of bytes, got 1.5',
      ],
    ],
  ],
  [
    'icons that are no array',
    { type: 'resource_link', name: 'a', uri: 'file:///a', icons: 'x' },
    [
      [
        'block-resource-link-invalid',
        'icons',
        '/content/0/icons',
        'resource_link "icons" must be an array of icons, got string',
      ],
    ],
  ],
  [
    'each broken icon',
    {
      type: 'resource_link',
      name: 'a',
      uri: 'file:///a',
      icons: [
        'x',
        { src: 5 },
        { src: 'https://x.test/i.png', sizes: 'a' },
        { src: 'https://x.test/i.png', mimeType: 5 },
        { src: 'https://x.test/i.png', sizes: ['48x48', 48] },
        { src: 'https://x.test/i.png', theme: 'blue' },
        // Every optional member as the schema has it: nothing to say.
        { src: 'https://x.test/i.png', mimeType: 'image/png', sizes: ['48x48', 'any'], theme: 'dark' },
      ],
    },
    [
      [
        'block-resource-link-invalid',
        'icon',
        '/content/0/icons/0',
        'resource_link icon 0 is a JSON string, not an object',
      ],
      [
        'block-resource-link-invalid',
        'icon',
        '/content/0/icons/1',
        'resource_link icon 1 "src" is not a string',
      ],
      [
        'block-resource-link-invalid',
        'icon',
        '/content/0/icons/2',
        'resource_link icon 2 "sizes" is not an array of strings',
      ],
      [
        'block-resource-link-invalid',
        'icon',
        '/content/0/icons/3',
        'resource_link icon 3 "mimeType" is not a string',
      ],
      [
        'block-resource-link-invalid',
        'icon',
        '/content/0/icons/4',
        'resource_link icon 4 "sizes" is not an array of strings',
      ],
      [
        'block-resource-link-invalid',
        'icon',
        '/content/0/icons/5',
        'resource_link icon 5 "theme" is not "light" or "dark"',
      ],
    ],
  ],
  [
    'a resource_link uri without a scheme',
    { type: 'resource_link', name: 'a', uri: 'no scheme' },
    [
      [
        'block-uri-invalid',
        'default',
        '/content/0/uri',
        'uri "no scheme" is not an absolute URI with a scheme',
      ],
    ],
  ],
  [
    'an image as a data: URL in text',
    { type: 'text', text: `data:image/png;base64,${PNG}` },
    [
      [
        'block-text-base64-image',
        'default',
        '/content/0/text',
        'text block carries an image as a data: URL; send it as an image block',
      ],
    ],
  ],
  [
    'a text block without text',
    { type: 'text' },
    [['block-text-invalid', 'default', '/content/0/text', 'text block has no "text"']],
  ],
  [
    'the text under another name',
    { type: 'text', content: 'x' },
    [
      [
        'block-text-invalid',
        'alias',
        '/content/0/text',
        'text block has no "text" but a "content" member; the text belongs in "text"',
      ],
    ],
  ],
  [
    'text that is no string',
    { type: 'text', text: 5 },
    [
      [
        'block-text-invalid',
        'notString',
        '/content/0/text',
        'text block "text" must be a string, got integer',
      ],
    ],
  ],
  [
    'a resource_link before 2025-06-18',
    { type: 'resource_link', name: 'a', uri: 'file:///a' },
    [
      [
        'block-type-unsupported-in-version',
        'default',
        '/content/0/type',
        '"resource_link" blocks do not exist in protocol version 2025-03-26 (added in 2025-06-18)',
      ],
    ],
    '2025-03-26',
  ],
  [
    'audio in 2024-11-05',
    { type: 'audio', data: WAV, mimeType: 'audio/wav' },
    [
      [
        'block-type-unsupported-in-version',
        'default',
        '/content/0/type',
        '"audio" blocks do not exist in protocol version 2024-11-05 (added in 2025-03-26)',
      ],
    ],
    '2024-11-05',
  ],
];

describe('what the block rules say', () => {
  it.each(CASES)('on %s', async (_name, block, findings, version) => {
    expect(await said(block, version)).toEqual(findings);
  });
});

/** [rule, block, the block after its repair (undefined: it declines), the outcome, the version if not the latest]. */
const REPAIRS: [string, unknown, unknown, { description: string; lossy?: boolean }?, ProtocolVersion?][] = [
  [
    'block-annotations-in-resource',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', annotations: { priority: 1 } } },
    { type: 'resource', resource: { uri: 'file:///a', text: 'x' }, annotations: { priority: 1 } },
    { description: 'moved resource.annotations to the block' },
  ],
  [
    'block-annotations-in-resource',
    {
      type: 'resource',
      resource: { uri: 'file:///a', text: 'x', annotations: { priority: 1, audience: ['user'] } },
      annotations: { priority: 0 },
    },
    {
      type: 'resource',
      resource: { uri: 'file:///a', text: 'x' },
      annotations: { priority: 0, audience: ['user'] },
    },
    { description: 'merged resource.annotations into the block annotations' },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: 'hi' },
    { type: 'text', text: 'x' },
    { description: 'removed annotations that were not an object', lossy: true },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { audience: 'user' } },
    { type: 'text', text: 'x', annotations: { audience: ['user'] } },
    { description: 'set annotations.audience to ["user"]', lossy: false },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { audience: 'bot' } },
    { type: 'text', text: 'x', annotations: {} },
    { description: 'removed annotations.audience "bot" (no valid role)', lossy: true },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { audience: ['User', 'bot'] } },
    { type: 'text', text: 'x', annotations: { audience: ['user'] } },
    { description: 'set annotations.audience to ["user"]', lossy: true },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { priority: 2 } },
    { type: 'text', text: 'x', annotations: { priority: 1 } },
    { description: 'clamped annotations.priority 2 to 1', lossy: true },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { priority: -1 } },
    { type: 'text', text: 'x', annotations: { priority: 0 } },
    { description: 'clamped annotations.priority -1 to 0', lossy: true },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { priority: '0.5' } },
    { type: 'text', text: 'x', annotations: { priority: 0.5 } },
    { description: 'converted annotations.priority "0.5" to 0.5', lossy: false },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { lastModified: 'yesterday' } },
    { type: 'text', text: 'x', annotations: {} },
    { description: 'removed annotations.lastModified "yesterday"', lossy: true },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { lastModified: 1736694058000 } },
    { type: 'text', text: 'x', annotations: { lastModified: '2025-01-12T15:00:58.000Z' } },
    { description: 'rewrote annotations.lastModified 1736694058000 as 2025-01-12T15:00:58.000Z' },
  ],
  [
    'block-base64-data-uri',
    { type: 'image', data: `data:image/png;base64,${PNG}` },
    { type: 'image', data: PNG, mimeType: 'image/png' },
    { description: 'removed the data: URI prefix from data and took mimeType image/png from it' },
  ],
  [
    'block-base64-data-uri',
    { type: 'image', data: `data:image/jpeg;base64,${PNG}`, mimeType: 'image/png' },
    { type: 'image', data: PNG, mimeType: 'image/png' },
    { description: 'removed the data: URI prefix from data' },
  ],
  [
    'block-base64-non-canonical',
    { type: 'image', data: 'iVBO\nRw0KGgo', mimeType: 'image/png' },
    { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    { description: 'normalized to canonical base64: data' },
  ],
  [
    'block-base64-url-alphabet',
    { type: 'image', data: 'iVBO-w0_Ggo=', mimeType: 'image/png' },
    { type: 'image', data: 'iVBO+w0/Ggo=', mimeType: 'image/png' },
    { description: 'translated from base64url to standard base64: data' },
  ],
  [
    'block-data-invalid',
    { type: 'image', base64: PNG, mimeType: 'image/png' },
    { type: 'image', mimeType: 'image/png', data: PNG },
    { description: 'moved "base64" to "data"' },
  ],
  ['block-data-invalid', { type: 'image', mimeType: 'image/png' }, undefined],
  ['block-data-invalid', { type: 'audio', data: 5, mimeType: 'audio/wav' }, undefined],
  [
    'block-meta-not-object',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', _meta: [] } },
    { type: 'resource', resource: { uri: 'file:///a', text: 'x' } },
    { description: 'removed resource._meta (array)', lossy: true },
  ],
  [
    'block-mime-type-malformed',
    { type: 'image', data: 'AAAA', mimeType: 'png' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { description: 'replaced mimeType "png" with image/png' },
  ],
  [
    'block-mime-type-malformed',
    { type: 'image', data: PNG, mimeType: 'png' },
    { type: 'image', data: PNG, mimeType: 'image/png' },
    { description: 'set mimeType to image/png, sniffed from the bytes' },
  ],
  [
    'block-mime-type-missing',
    { type: 'audio', data: WAV },
    { type: 'audio', data: WAV, mimeType: 'audio/wav' },
    { description: 'set mimeType to audio/wav, sniffed from the bytes' },
  ],
  ['block-mime-type-missing', { type: 'image', data: 'AAAA' }, undefined],
  [
    'block-mime-type-wrong-family',
    { type: 'image', data: PDF, mimeType: 'application/pdf' },
    { type: 'resource', resource: { uri: 'urn:mcp-shape:blob:0', blob: PDF, mimeType: 'application/pdf' } },
    {
      description:
        'replaced the image block with an embedded resource of type application/pdf, sniffed from the bytes',
    },
  ],
  [
    'block-mime-type-wrong-family',
    { type: 'image', data: WAV, mimeType: 'audio/wav' },
    { type: 'audio', data: WAV, mimeType: 'audio/wav' },
    { description: 'replaced the image block with an audio block of type audio/wav, sniffed from the bytes' },
  ],
  [
    'block-not-object',
    'hello',
    { type: 'text', text: 'hello' },
    { description: 'wrapped the string in a text block' },
  ],
  [
    'block-not-object',
    null,
    { type: 'text', text: 'null' },
    { description: 'replaced the null with a text block holding its JSON' },
  ],
  ['block-resource-invalid', { type: 'resource', resource: 'x' }, undefined],
  ['block-resource-invalid', { type: 'resource', resource: { uri: 'file:///a' } }, undefined],
  [
    'block-resource-invalid',
    { type: 'resource', resource: { text: 'x' } },
    { type: 'resource', resource: { text: 'x', uri: 'urn:mcp-shape:resource:0' } },
    { description: 'set the missing uri to urn:mcp-shape:resource:0', lossy: false },
  ],
  [
    'block-resource-invalid',
    { type: 'resource', resource: { uri: 5, text: 'x' } },
    { type: 'resource', resource: { uri: 'urn:mcp-shape:resource:0', text: 'x' } },
    { description: 'replaced the uri 5 with urn:mcp-shape:resource:0', lossy: true },
  ],
  [
    'block-resource-invalid',
    { type: 'resource', resource: { uri: 'file:///a', text: 5 } },
    { type: 'resource', resource: { uri: 'file:///a', text: '5' } },
    { description: 'serialized resource.text to a string' },
  ],
  [
    'block-resource-link-invalid',
    { type: 'resource_link', uri: 'file:///dir/a.txt' },
    { type: 'resource_link', uri: 'file:///dir/a.txt', name: 'a.txt' },
    { description: 'set name to "a.txt", taken from the uri', lossy: false },
  ],
  [
    'block-resource-link-invalid',
    { type: 'resource_link', uri: 'file:///a', name: 5 },
    { type: 'resource_link', uri: 'file:///a', name: '5' },
    { description: 'converted name to the string "5"' },
  ],
  ['block-resource-link-invalid', { type: 'resource_link', name: 'a' }, undefined],
  [
    'block-resource-link-invalid',
    { type: 'resource_link', name: 'a', uri: 'file:///a', size: 1.5 },
    { type: 'resource_link', name: 'a', uri: 'file:///a', size: 2 },
    { description: 'rounded size 1.5 to 2' },
  ],
  [
    'block-resource-link-invalid',
    { type: 'resource_link', name: 'a', uri: 'file:///a', size: '12' },
    { type: 'resource_link', name: 'a', uri: 'file:///a' },
    { description: 'removed the invalid optional "size"', lossy: true },
  ],
  [
    'block-resource-link-invalid',
    { type: 'resource_link', name: 'a', uri: 'file:///a', icons: ['x', { src: 'https://x.test/i.png' }] },
    { type: 'resource_link', name: 'a', uri: 'file:///a', icons: [{ src: 'https://x.test/i.png' }] },
    { description: 'removed 1 invalid icon(s)', lossy: true },
  ],
  [
    'block-resource-text-and-blob',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', blob: PDF } },
    { type: 'resource', resource: { uri: 'file:///a', text: 'x' } },
    { description: 'removed resource.blob and kept the text', lossy: true },
  ],
  [
    'block-text-base64-image',
    { type: 'text', text: `data:image/png;base64,${PNG}` },
    { type: 'image', data: PNG, mimeType: 'image/png' },
    { description: 'replaced the text block with an image/png image block' },
  ],
  ['block-text-invalid', { type: 'text' }, undefined],
  [
    'block-text-invalid',
    { type: 'text', content: 'x' },
    { type: 'text', text: 'x' },
    { description: 'moved "content" to "text"' },
  ],
  [
    'block-text-invalid',
    { type: 'text', text: { a: 1 } },
    { type: 'text', text: '{"a":1}' },
    { description: 'serialized the object in "text" to a string' },
  ],
  [
    'block-text-invalid',
    { type: 'text', text: null },
    { type: 'text', text: 'null' },
    { description: 'serialized the null in "text" to a string' },
  ],
  ['block-uri-invalid', { type: 'resource_link', name: 'a', uri: 'no scheme' }, undefined],
  [
    'block-uri-invalid',
    { type: 'resource_link', name: 'a', uri: '/tmp/a b.txt' },
    { type: 'resource_link', name: 'a', uri: 'file:///tmp/a%20b.txt' },
    { description: 'rewrote "/tmp/a b.txt" as the URI "file:///tmp/a%20b.txt"' },
  ],
  [
    'block-not-object',
    'hi',
    { type: 'text', text: 'hi' },
    { description: 'wrapped the string in a text block' },
  ],
  [
    'block-not-object',
    5,
    { type: 'text', text: '5' },
    { description: 'replaced the integer with a text block holding its JSON' },
  ],
  [
    'block-not-object',
    [1],
    { type: 'text', text: '[1]' },
    { description: 'replaced the array with a text block holding its JSON' },
  ],
  ['block-text-invalid', { type: 'text', value: 3 }, undefined],
  [
    'block-resource-invalid',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', mimeType: 3 } },
    { type: 'resource', resource: { uri: 'file:///a', text: 'x' } },
    { description: 'removed the invalid optional mimeType', lossy: true },
  ],
  ['block-resource-invalid', { type: 'resource', resource: { uri: 'file:///a', text: null } }, undefined],
  ['block-resource-invalid', { type: 'resource', resource: { uri: 'file:///a', blob: 5 } }, undefined],
  ['block-resource-invalid', { type: 'resource' }, undefined],
  [
    'block-resource-text-and-blob',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', blob: PNG, mimeType: 'image/png' } },
    { type: 'resource', resource: { uri: 'file:///a', blob: PNG, mimeType: 'image/png' } },
    { description: 'removed resource.text and kept the binary blob', lossy: true },
  ],
  [
    'block-resource-text-and-blob',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', blob: '!!', mimeType: 'image/png' } },
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', mimeType: 'image/png' } },
    { description: 'removed resource.blob and kept the text', lossy: true },
  ],
  [
    'block-resource-text-and-blob',
    {
      type: 'resource',
      resource: { uri: 'file:///a', text: 'x', blob: PDF, mimeType: 'application/octet-stream' },
    },
    { type: 'resource', resource: { uri: 'file:///a', blob: PDF, mimeType: 'application/octet-stream' } },
    { description: 'removed resource.text and kept the binary blob', lossy: true },
  ],
  [
    'block-resource-text-and-blob',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', blob: PDF, mimeType: 'application/pdf' } },
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', mimeType: 'application/pdf' } },
    { description: 'removed resource.blob and kept the text', lossy: true },
  ],
  [
    'block-resource-text-and-blob',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', blob: 5 } },
    { type: 'resource', resource: { uri: 'file:///a', text: 'x' } },
    { description: 'removed the non-string resource.blob', lossy: true },
  ],
  [
    'block-resource-text-and-blob',
    { type: 'resource', resource: { uri: 'file:///a', text: 5, blob: PDF } },
    { type: 'resource', resource: { uri: 'file:///a', blob: PDF } },
    { description: 'removed the non-string resource.text', lossy: true },
  ],
  [
    'block-resource-text-and-blob',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', blob: PNG, mimeType: 'audio/wav' } },
    { type: 'resource', resource: { uri: 'file:///a', blob: PNG, mimeType: 'audio/wav' } },
    { description: 'removed resource.text and kept the binary blob', lossy: true },
  ],
  [
    'block-mime-type-malformed',
    { type: 'image', data: 'AAAA', mimeType: ' Image/PNG ' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { description: 'replaced mimeType " Image/PNG " with image/png' },
  ],
  [
    'block-mime-type-malformed',
    { type: 'audio', data: 'AAAA', mimeType: 'mp3' },
    { type: 'audio', data: 'AAAA', mimeType: 'audio/mpeg' },
    { description: 'replaced mimeType "mp3" with audio/mpeg' },
  ],
  [
    'block-mime-type-malformed',
    { type: 'image', data: 'AAAA', mimeType: '.svg' },
    { type: 'image', data: 'AAAA', mimeType: 'image/svg+xml' },
    { description: 'replaced mimeType ".svg" with image/svg+xml' },
  ],
  ['block-mime-type-malformed', { type: 'image', data: 'AAAA', mimeType: 'image' }, undefined],
  ['block-mime-type-malformed', { type: 'image', data: 'AAAA', mimeType: '??' }, undefined],
  [
    'block-mime-type-malformed',
    { type: 'resource_link', uri: 'file:///a', name: 'a', mimeType: '??' },
    { type: 'resource_link', uri: 'file:///a', name: 'a' },
    { description: 'removed the malformed optional mimeType "??"', lossy: true },
  ],
  [
    'block-mime-type-malformed',
    { type: 'resource_link', uri: 'file:///a', name: 'a', mimeType: 'png' },
    { type: 'resource_link', uri: 'file:///a', name: 'a' },
    { description: 'removed the malformed optional mimeType "png"', lossy: true },
  ],
  [
    'block-mime-type-malformed',
    { type: 'resource', resource: { uri: 'file:///a', blob: PNG, mimeType: 'picture' } },
    { type: 'resource', resource: { uri: 'file:///a', blob: PNG, mimeType: 'image/png' } },
    { description: 'set resource.mimeType to image/png, sniffed from the bytes' },
  ],
  [
    'block-mime-type-malformed',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', mimeType: 'Text / Plain' } },
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', mimeType: 'text/plain' } },
    { description: 'replaced mimeType "Text / Plain" with text/plain' },
  ],
  [
    'block-mime-type-wrong-family',
    { type: 'image', data: 'AAAA', mimeType: 'application/pdf' },
    {
      type: 'resource',
      resource: { uri: 'urn:mcp-shape:blob:0', blob: 'AAAA', mimeType: 'application/pdf' },
    },
    { description: 'replaced the image block with an embedded resource for application/pdf' },
  ],
  [
    'block-mime-type-wrong-family',
    { type: 'audio', data: 'AAAA', mimeType: 'image/png' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { description: 'replaced the audio block with an image block for image/png' },
  ],
  [
    'block-mime-type-wrong-family',
    { type: 'image', data: WAV, mimeType: 'audio/wav', annotations: { priority: 1 } },
    { type: 'audio', data: WAV, mimeType: 'audio/wav', annotations: { priority: 1 } },
    { description: 'replaced the image block with an audio block of type audio/wav, sniffed from the bytes' },
  ],
  [
    'block-mime-type-missing',
    { type: 'image', data: PNG },
    { type: 'image', data: PNG, mimeType: 'image/png' },
    { description: 'set mimeType to image/png, sniffed from the bytes' },
  ],
  [
    'block-mime-type-missing',
    { type: 'image', data: PDF },
    { type: 'resource', resource: { uri: 'urn:mcp-shape:blob:0', blob: PDF, mimeType: 'application/pdf' } },
    {
      description:
        'replaced the image block with an embedded resource of type application/pdf, sniffed from the bytes',
    },
  ],
  [
    'block-mime-type-missing',
    { type: 'audio', data: PNG },
    { type: 'image', data: PNG, mimeType: 'image/png' },
    { description: 'replaced the audio block with an image block of type image/png, sniffed from the bytes' },
  ],
  [
    'block-mime-type-missing',
    { type: 'image', data: PNG, mimeType: 5 },
    { type: 'image', data: PNG, mimeType: 'image/png' },
    { description: 'set mimeType to image/png, sniffed from the bytes' },
  ],
  [
    'block-mime-type-mismatch',
    { type: 'image', data: PNG, mimeType: 'image/jpeg' },
    { type: 'image', data: PNG, mimeType: 'image/png' },
    { description: 'set mimeType to image/png, sniffed from the bytes' },
  ],
  [
    'block-mime-type-mismatch',
    { type: 'resource', resource: { uri: 'file:///a', blob: PNG, mimeType: 'image/jpeg' } },
    { type: 'resource', resource: { uri: 'file:///a', blob: PNG, mimeType: 'image/png' } },
    { description: 'set resource.mimeType to image/png, sniffed from the bytes' },
  ],
  [
    'block-mime-type-mismatch',
    { type: 'audio', data: PNG, mimeType: 'audio/wav' },
    { type: 'image', data: PNG, mimeType: 'image/png' },
    { description: 'replaced the audio block with an image block of type image/png, sniffed from the bytes' },
  ],
  [
    'block-mime-type-mismatch',
    { type: 'resource', resource: { uri: 'file:///a', blob: PDF, mimeType: 'text/plain' } },
    { type: 'resource', resource: { uri: 'file:///a', blob: PDF, mimeType: 'application/pdf' } },
    { description: 'set resource.mimeType to application/pdf, sniffed from the bytes' },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { audience: ' User ' } },
    { type: 'text', text: 'x', annotations: { audience: ['user'] } },
    { description: 'set annotations.audience to ["user"]', lossy: false },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { audience: ['user', 'bot', 'Assistant', 'user'] } },
    { type: 'text', text: 'x', annotations: { audience: ['user', 'assistant'] } },
    { description: 'set annotations.audience to ["user","assistant"]', lossy: true },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { audience: ['bot'] } },
    { type: 'text', text: 'x', annotations: {} },
    { description: 'removed annotations.audience ["bot"] (no valid role)', lossy: true },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { priority: ' ' } },
    { type: 'text', text: 'x', annotations: {} },
    { description: 'removed annotations.priority " "', lossy: true },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { priority: 'high' } },
    { type: 'text', text: 'x', annotations: {} },
    { description: 'removed annotations.priority "high"', lossy: true },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { priority: null } },
    { type: 'text', text: 'x', annotations: {} },
    { description: 'removed annotations.priority null', lossy: true },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { lastModified: '2025-01-12' } },
    { type: 'text', text: 'x', annotations: { lastModified: '2025-01-12T00:00:00.000Z' } },
    { description: 'rewrote annotations.lastModified "2025-01-12" as 2025-01-12T00:00:00.000Z' },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { lastModified: 9000000000000000 } },
    { type: 'text', text: 'x', annotations: {} },
    { description: 'removed annotations.lastModified 9000000000000000', lossy: true },
  ],
  [
    'block-annotations-invalid',
    { type: 'text', text: 'x', annotations: { lastModified: true } },
    { type: 'text', text: 'x', annotations: {} },
    { description: 'removed annotations.lastModified true', lossy: true },
  ],
  [
    'block-annotations-in-resource',
    { type: 'resource', resource: { uri: 'file:///a', text: 'x', annotations: 'hi' } },
    { type: 'resource', resource: { uri: 'file:///a', text: 'x' } },
    { description: 'removed resource.annotations, which was not an object', lossy: true },
  ],
  [
    'block-annotations-in-resource',
    {
      type: 'resource',
      annotations: { priority: 0 },
      resource: { uri: 'file:///a', text: 'x', annotations: { priority: 1 } },
    },
    { type: 'resource', annotations: { priority: 0 }, resource: { uri: 'file:///a', text: 'x' } },
    { description: 'merged resource.annotations into the block annotations' },
  ],
  [
    'block-base64-data-uri',
    { type: 'image', data: 'data:image/svg+xml,%3Csvg%3E%3C/svg%3E' },
    { type: 'image', data: 'PHN2Zz48L3N2Zz4=', mimeType: 'image/svg+xml' },
    { description: 'removed the data: URI prefix from data and took mimeType image/svg+xml from it' },
  ],
  ['block-base64-data-uri', { type: 'image', data: 'data:image/svg+xml,%E0%A4%A' }, undefined],
  [
    'block-base64-data-uri',
    { type: 'resource', resource: { uri: 'file:///a', blob: 'data:application/pdf;base64,JVBERi0=' } },
    { type: 'resource', resource: { uri: 'file:///a', blob: 'JVBERi0=', mimeType: 'application/pdf' } },
    {
      description:
        'removed the data: URI prefix from resource.blob and took mimeType application/pdf from it',
    },
  ],
  [
    'block-base64-data-uri',
    { type: 'image', data: `data:;base64,${PNG}` },
    { type: 'image', data: PNG },
    { description: 'removed the data: URI prefix from data' },
  ],
  [
    'block-base64-non-canonical',
    { type: 'image', data: PNG.replace(/=+$/, ''), mimeType: 'image/png' },
    { type: 'image', data: PNG, mimeType: 'image/png' },
    { description: 'normalized to canonical base64: data' },
  ],
  [
    'block-meta-not-object',
    { type: 'text', text: 'x', _meta: 'm' },
    { type: 'text', text: 'x' },
    { description: 'removed _meta (string)', lossy: true },
  ],
  [
    'block-resource-link-invalid',
    { type: 'resource_link', uri: 'https://x.test/', title: 'T' },
    { type: 'resource_link', uri: 'https://x.test/', title: 'T', name: 'T' },
    { description: 'set name to "T", taken from the title', lossy: false },
  ],
  [
    'block-resource-link-invalid',
    { type: 'resource_link', uri: 'file:///a', name: 'a', description: 5 },
    { type: 'resource_link', uri: 'file:///a', name: 'a' },
    { description: 'removed the invalid optional "description"', lossy: true },
  ],
  [
    'block-resource-link-invalid',
    { type: 'resource_link', uri: 'file:///a', name: 'a', icons: [{ src: 5 }] },
    { type: 'resource_link', uri: 'file:///a', name: 'a' },
    { description: 'removed 1 invalid icon(s)', lossy: true },
  ],
  [
    'block-resource-link-invalid',
    { type: 'resource_link', uri: 'file:///a', name: 'a', icons: 'x' },
    { type: 'resource_link', uri: 'file:///a', name: 'a' },
    { description: 'removed the invalid optional "icons"', lossy: true },
  ],
  [
    'block-uri-invalid',
    { type: 'resource_link', uri: 'C:\\dir\\a.txt', name: 'a' },
    { type: 'resource_link', uri: 'file:///C:/dir/a.txt', name: 'a' },
    { description: 'rewrote "C:\\\\dir\\\\a.txt" as the URI "file:///C:/dir/a.txt"' },
  ],
  [
    'block-uri-invalid',
    { type: 'resource_link', uri: 'https://x.test/a b', name: 'a' },
    { type: 'resource_link', uri: 'https://x.test/a%20b', name: 'a' },
    { description: 'rewrote "https://x.test/a b" as the URI "https://x.test/a%20b"' },
  ],
  ['block-uri-invalid', { type: 'resource_link', uri: 'https://x.test/%E0%A4%A b', name: 'a' }, undefined],
  [
    'block-uri-invalid',
    { type: 'resource', resource: { uri: '/tmp/x', text: 'x' } },
    { type: 'resource', resource: { uri: 'file:///tmp/x', text: 'x' } },
    { description: 'rewrote "/tmp/x" as the URI "file:///tmp/x"' },
  ],
  [
    'block-text-base64-image',
    { type: 'text', text: `data:image/png;base64,${PNG}`, annotations: { priority: 1 } },
    { type: 'image', data: PNG, mimeType: 'image/png', annotations: { priority: 1 } },
    { description: 'replaced the text block with an image/png image block' },
  ],
  [
    'block-type-unsupported-in-version',
    { type: 'resource_link', uri: 'https://x.test/a.txt', name: 'A', description: 'd' },
    { type: 'text', text: 'Link: A <https://x.test/a.txt> — d' },
    {
      description: 'replaced the resource_link with a text block naming it (2025-03-26 has no resource_link)',
    },
    '2025-03-26',
  ],
  [
    'block-type-unsupported-in-version',
    { type: 'resource_link', uri: 'https://x.test/a.txt' },
    { type: 'text', text: 'Link: a.txt <https://x.test/a.txt>' },
    {
      description: 'replaced the resource_link with a text block naming it (2025-03-26 has no resource_link)',
    },
    '2025-03-26',
  ],
  [
    'block-type-unsupported-in-version',
    { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
    { type: 'resource', resource: { uri: 'urn:mcp-shape:audio:0', blob: 'UklGRg==', mimeType: 'audio/wav' } },
    { description: 'replaced the audio block with an embedded blob resource (2024-11-05 has no audio)' },
    '2024-11-05',
  ],
  [
    'block-type-unsupported-in-version',
    { type: 'audio', data: 'UklGRg==' },
    { type: 'resource', resource: { uri: 'urn:mcp-shape:audio:0', blob: 'UklGRg==' } },
    { description: 'replaced the audio block with an embedded blob resource (2024-11-05 has no audio)' },
    '2024-11-05',
  ],
  [
    'block-type-unsupported-in-version',
    { type: 'audio', mimeType: 'audio/wav' },
    undefined,
    undefined,
    '2024-11-05',
  ],
];

describe('what the block repairs do and say', () => {
  it.each(
    REPAIRS.map(
      ([rule, block, after, outcome, version]) =>
        [rule, JSON.stringify(block), block, after, outcome, version] as const,
    ),
  )('%s on %s', async (rule, _shown, block, after, outcome, version = LATEST) => {
    const step = await repairOnce(rule, resultOf([block], version), version);
    expect(step.outcome).toEqual(outcome);
    expect(step.document.content).toEqual([after ?? block]);
  });
});

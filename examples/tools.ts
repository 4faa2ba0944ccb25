/**
 * The tools of the example servers. Half return what a handler naturally returns (an object, an
 * array, bytes, a thrown error); the other half return the broken shapes real servers sent, from
 * shared/reference/client-compat.md §4 (the issue number is in each description). Through shaped(),
 * every one of them reaches the client as a conformant result.
 */

import { z } from 'zod';

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The forecast tools' outputSchema; SDK servers list it, and SDK v1 clients check results against it. */
export const FORECAST_SCHEMA = z.object({ temperature: z.number() });

export interface ExampleTool {
  readonly name: string;
  readonly description: string;
  readonly handler: () => unknown;
  readonly outputSchema?: typeof FORECAST_SCHEMA;
}

export const EXAMPLE_TOOLS: readonly ExampleTool[] = [
  { name: 'weather', description: 'A plain object', handler: () => ({ city: 'Lyon', celsius: 21 }) },
  { name: 'primes', description: 'An array', handler: () => [2, 3, 5, 7] },
  { name: 'answer', description: 'A number', handler: () => 42 },
  { name: 'nothing', description: 'undefined', handler: () => undefined },
  { name: 'greeting', description: 'A string', handler: () => 'Hello!' },
  {
    name: 'pixel',
    description: 'Image bytes',
    handler: () => Uint8Array.from(atob(PNG_1X1), (c) => c.charCodeAt(0)),
  },
  {
    name: 'fails',
    description: 'Throws',
    handler: () => {
      throw new Error('the upstream API is down');
    },
  },
  {
    name: 'json-block',
    description: '#13, #15: a "json" block',
    handler: () => ({ content: [{ type: 'json', json: { a: 1 } }] }),
  },
  {
    name: 'error-block',
    description: '#14: an "error" block',
    handler: () => ({ content: [{ type: 'error', error: 'disk full' }] }),
  },
  {
    name: 'mime-as-type',
    description: '#16: the MIME type in "type"',
    handler: () => ({ content: [{ type: 'application/json', text: '{"a":1}' }] }),
  },
  {
    name: 'blob-block',
    description: '#17: a "blob" block',
    handler: () => ({ content: [{ type: 'blob', data: PNG_1X1, mimeType: 'image/png' }] }),
  },
  { name: 'string-content', description: '#18: content is a string', handler: () => ({ content: 'hello' }) },
  {
    name: 'legacy-envelope',
    description: '#19: a toolResult envelope',
    handler: () => ({ toolResult: { ok: true } }),
  },
  {
    name: 'array-structured',
    description: '#20-22: array structuredContent',
    handler: () => ({ content: [{ type: 'text', text: '[1,2]' }], structuredContent: [1, 2] }),
  },
  {
    name: 'null-structured',
    description: '#23: null structuredContent',
    handler: () => ({ content: [], structuredContent: null }),
  },
  {
    name: 'link-without-name',
    description: '#12: resource_link without name',
    handler: () => ({ content: [{ type: 'resource_link', uri: 'https://example.com/report.pdf' }] }),
  },
  {
    name: 'fractional-priority',
    description: '#4: priority 0.6 (valid), next to an out-of-range one',
    handler: () => ({
      content: [
        { type: 'text', text: 'a', annotations: { priority: 0.6 } },
        { type: 'text', text: 'b', annotations: { priority: 2 } },
      ],
    }),
  },
  {
    name: 'image-without-mime',
    description: '#8: image without mimeType',
    handler: () => ({ content: [{ type: 'image', data: PNG_1X1 }] }),
  },
  {
    name: 'data-uri-image',
    description: 'image data as a data: URI',
    handler: () => ({
      content: [{ type: 'image', data: `data:image/png;base64,${PNG_1X1}`, mimeType: 'image/png' }],
    }),
  },
  {
    name: 'bad-base64',
    description: 'undecodable base64',
    handler: () => ({ content: [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }] }),
  },
  {
    name: 'structured-only',
    description: '#29: structuredContent and empty content',
    handler: () => ({ content: [], structuredContent: { rows: 3 } }),
  },
  {
    name: 'resource-without-uri',
    description: '#34: embedded resource without uri',
    handler: () => ({ content: [{ type: 'resource', resource: { text: 'contents' } }] }),
  },
  {
    name: 'text-uses-data',
    description: '#39: text block with "data" instead of "text"',
    handler: () => ({ content: [{ type: 'text', data: 'hello' }] }),
  },
  {
    name: 'error-payload',
    description: '#14: {error} payload without isError',
    handler: () => ({ error: { message: 'not found', code: 404 } }),
  },
  {
    name: 'is-error-string',
    description: 'isError as a string',
    handler: () => ({ content: [{ type: 'text', text: 'boom' }], isError: 'true' }),
  },
  {
    name: 'audio-clip',
    description: 'an audio block (2025-03-26 on)',
    handler: () => ({
      content: [
        {
          type: 'audio',
          data: 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=',
          mimeType: 'audio/wav',
        },
      ],
    }),
  },
  {
    name: 'resource-link',
    description: '#1, #6: a valid resource_link with every optional field (text for 2025-03-26 and older)',
    handler: () => ({
      content: [
        {
          type: 'resource_link',
          uri: 'ui://widget/app.html',
          name: 'app',
          title: 'App',
          description: 'MCP Apps widget',
          mimeType: 'text/html',
          size: 120,
          annotations: { audience: ['user'], priority: 0.6 },
        },
      ],
    }),
  },
  {
    name: 'text-mismatch',
    description: '#28: a text block that disagrees with structuredContent',
    handler: () => ({
      content: [
        { type: 'text', text: 'summary only' },
        { type: 'text', text: '{"rows":2}' },
      ],
      structuredContent: { rows: 3 },
    }),
  },
  {
    name: 'structured-in-block',
    description: '#38: structuredContent inside a content block',
    handler: () => ({ content: [{ type: 'text', text: '{"a":1}', structuredContent: { a: 1 } }] }),
  },
  {
    name: 'forecast',
    description: '#25 done right: an object that matches the outputSchema',
    handler: () => ({ temperature: 21 }),
    outputSchema: FORECAST_SCHEMA,
  },
  {
    name: 'forecast-wrong-type',
    description: '#25: structuredContent that breaks the outputSchema (an error result, saying why)',
    handler: () => ({ temperature: 'warm' }),
    outputSchema: FORECAST_SCHEMA,
  },
  {
    name: 'forecast-missing',
    description: '#26: an outputSchema but no structured value (an error result, saying why)',
    handler: () => 'sunny',
    outputSchema: FORECAST_SCHEMA,
  },
  {
    name: 'forecast-error-partial',
    description: '#24: an error result whose structuredContent breaks the outputSchema',
    handler: () => ({
      content: [{ type: 'text', text: 'the sensor is offline' }],
      structuredContent: { partial: true },
      isError: true,
    }),
    outputSchema: FORECAST_SCHEMA,
  },
];

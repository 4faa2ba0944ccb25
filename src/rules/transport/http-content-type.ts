import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';

/** The media types a Streamable HTTP response to a POST may have (the spec names exactly these two). */
const ALLOWED = new Set(['application/json', 'text/event-stream']);

function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

export default defineRule({
  id: 'http-content-type',
  subject: 'frame',
  severity: 'error',
  title: 'Streamable HTTP responses must be application/json or text/event-stream',
  rationale: [
    'Streamable HTTP: when the POST carries a request, "the server MUST either return',
    '`Content-Type: text/event-stream`, to initiate an SSE stream, or `Content-Type: application/json`,',
    'to return one JSON object." The official TypeScript SDK client dispatches on that header and throws',
    '`Unexpected content type` for anything else (for example `text/plain` or `text/html` from a gateway),',
    'so the call fails even when the body is a valid message.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'rejects-call',
      detail: '`StreamableHTTPClientTransport.send` throws "Unexpected content type: …"',
      source: '@modelcontextprotocol/sdk 1.32.2 dist/esm/client/streamableHttp.js',
    },
    {
      client: 'ts-sdk-v2',
      effect: 'rejects-call',
      detail: 'the client transport dispatches on Content-Type the same way',
      source: '@modelcontextprotocol/client 2.4.0',
    },
  ],
  messages: {
    default:
      'HTTP response has Content-Type "{{contentType}}"; expected application/json or text/event-stream',
    missing: 'HTTP response with a body has no Content-Type; expected application/json or text/event-stream',
  },
  fix: 'Send JSON-RPC responses with `Content-Type: application/json` (or stream them as text/event-stream).',
  examples: {
    wrong: {
      value: null,
      frame: { transport: 'http', text: '{"jsonrpc":"2.0","id":1,"result":{}}', contentType: 'text/plain' },
    },
    right: {
      value: null,
      frame: {
        transport: 'http',
        text: '{"jsonrpc":"2.0","id":1,"result":{}}',
        contentType: 'application/json; charset=utf-8',
      },
    },
  },
  check(node, ctx) {
    const frame = node as { transport: string; contentType?: string };
    if (frame.transport !== 'http') return;
    if (frame.contentType === undefined || frame.contentType.trim() === '') {
      ctx.report({ messageId: 'missing', data: { contentType: '' } });
      return;
    }
    if (!ALLOWED.has(mediaType(frame.contentType))) ctx.report({ data: { contentType: frame.contentType } });
  },
});

/**
 * JSON.stringify sends what an object's toJSON() returns in its place. The scan judged a class
 * instance by its fields, so a block class whose toJSON() writes a valid block was an error
 * ("content block has no type"), a false error on correct code.
 */

import { describe, expect, it } from 'vitest';
import { judged } from './judged.js';

const server = (classBody: string) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
class Block {
  constructor(private readonly t: string) {}
  ${classBody}
}
server.registerTool('t', {}, async () => ({ content: [new Block('x') as any] }));
`;

describe('toJSON', () => {
  it('an instance with toJSON() is what toJSON() returns: not judged by its fields', async () => {
    expect(await judged('server.ts', server("toJSON() { return { type: 'text', text: this.t }; }"))).toEqual([
      'unresolved',
    ]);
  });

  it('an instance without toJSON() is its fields: an error', async () => {
    expect(await judged('server.ts', server("get type() { return 'text'; }"))).toEqual([
      'invalid',
      'block-type-unknown',
    ]);
  });
});

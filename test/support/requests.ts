/** Requests the tests answer. */

/**
 * A 2026-07-28 tools/call request declaring `capabilities` for that call, the only place that version's
 * clients declare them (params._meta).
 */
export function toolsCall2026(capabilities: Record<string, unknown>, name = 'slow') {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': capabilities,
      },
    },
  };
}

/**
 * A FastAPI JSON-RPC gateway whose route names a response model (`response_model=RpcResponse`, or
 * `-> RpcResponse`): FastAPI validates what the route returns into the model and sends the model's
 * fields (fastapi/routing.py, serialize_response: field.validate, then field.serialize with the
 * route's exclude_unset / exclude_none), so a returned dict is judged as sent, not as written.
 */

import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';

type Scanned = Awaited<ReturnType<typeof scanSource>>;
const defects = (file: Scanned) => file.findings.map((f) => `${f.rule}:${f.location?.line}`);
const statuses = (file: Scanned) => file.handlers.flatMap((h) => h.returns.map((r) => r.status));

const gateway = (route: string, result: string) => `from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel

app = FastAPI()


class RpcResponse(BaseModel):
    jsonrpc: str = "2.0"
    id: int | str | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


${route}
async def mcp(body: dict):
    return ${result}
`;
const unset = '@app.post("/mcp", response_model=RpcResponse, response_model_exclude_unset=True)';
/** The route annotated `-> RpcResponse`. */
const annotated = (source: string) =>
  source.replace('async def mcp(body: dict):', 'async def mcp(body: dict) -> RpcResponse:');
const answer =
  '{"jsonrpc": "2.0", "id": body.get("id"), "result": {"content": [{"type": "text", "text": "hi"}]}}';

describe('a FastAPI route returning a dict under a response model', () => {
  it('sends the defaults the dict did not set: "error": null beside the result', async () => {
    const file = await scanSource('app.py', gateway('@app.post("/mcp", response_model=RpcResponse)', answer));
    expect(defects(file)).toEqual(['envelope-result-and-error:18']);
    expect(statuses(file)).toEqual(['invalid']);
  });

  it('takes the return annotation for the response model when the decorator names none', async () => {
    const file = await scanSource('app.py', annotated(gateway('@app.post("/mcp")', answer)));
    expect(defects(file)).toEqual(['envelope-result-and-error:18']);
  });

  it('sends only the keys the dict set under response_model_exclude_unset: a typed answer', async () => {
    const file = await scanSource('app.py', gateway(unset, answer));
    expect(file.findings).toEqual([]);
    expect(statuses(file)).toEqual(['typed']);
  });

  it('judges a dict without jsonrpc under exclude_unset as sent: no jsonrpc, no longer a SKIP', async () => {
    const file = await scanSource('app.py', gateway(unset, answer.replace('"jsonrpc": "2.0", ', '')));
    expect(defects(file)).toEqual(['envelope-jsonrpc-version:18']);
    expect(statuses(file)).toEqual(['invalid']);
  });

  it('judges a model instance without jsonrpc under exclude_unset as sent', async () => {
    const file = await scanSource(
      'app.py',
      gateway(
        '@app.post("/mcp", response_model_exclude_unset=True)',
        'RpcResponse(id=body.get("id"), result={"content": []})',
      ),
    );
    expect(defects(file)).toEqual(['envelope-jsonrpc-version:18']);
  });

  it('leaves a dict alone under response_model=None', async () => {
    const file = await scanSource(
      'app.py',
      annotated(gateway('@app.post("/mcp", response_model=None)', answer)),
    );
    expect(file.findings).toEqual([]);
    expect(statuses(file)).toEqual(['typed']);
  });
});

/**
 * The SDK's FastMCP validates a tool's return value against its return annotation in pydantic's lax
 * mode (src/scan/pydantic-lax.ts). The table below holds pydantic v2's documented conversions
 * (docs.pydantic.dev, "Conversion Table"): what is surely accepted, surely rejected, and what the
 * scan leaves to run time.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { getIn } from '../../src/core/pointer.js';
import { scanPaths } from '../../src/scan/index.js';
import {
  isWrapped,
  judgeLax,
  type LaxType,
  parseAnnotation,
  schemaAtPath,
  strictSchema,
} from '../../src/scan/pydantic-lax.js';
import { UnknownValue } from '../../src/scan/values.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-shape-lax-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SITE = { file: { path: 'x.py' }, start: 0, end: 1 } as never;
const unknownOf = (kind?: 'string' | 'number' | 'boolean' | 'array' | 'object') =>
  new UnknownValue('x', 'x is known only at run time', SITE, kind);

describe('parseAnnotation', () => {
  it('reads primitives, lists, str-keyed dicts and optionals, and nothing else', () => {
    expect(parseAnnotation('int')).toEqual({ kind: 'int' });
    expect(parseAnnotation('list[ str ]')).toEqual({ kind: 'list', item: { kind: 'str' } });
    expect(parseAnnotation('typing.List[List[float]]')).toEqual({
      kind: 'list',
      item: { kind: 'list', item: { kind: 'float' } },
    });
    expect(parseAnnotation('Dict[str, bool]')).toEqual({ kind: 'dict', value: { kind: 'bool' } });
    expect(parseAnnotation('Optional[int]')).toEqual({ kind: 'optional', of: { kind: 'int' } });
    expect(parseAnnotation('None | list[int]')).toEqual({
      kind: 'optional',
      of: { kind: 'list', item: { kind: 'int' } },
    });
    expect(parseAnnotation('dict[str, list[int] | None]')).toEqual({
      kind: 'dict',
      value: { kind: 'optional', of: { kind: 'list', item: { kind: 'int' } } },
    });
    for (const other of [
      'Any',
      'dict[int, str]',
      'dict[str, Any]',
      'list',
      'tuple[int]',
      'int | str',
      'Weather',
      'list[TextContent]',
      'CallToolResult',
      'list[int',
      '',
    ]) {
      expect(parseAnnotation(other), other).toBeUndefined();
    }
  });

  it('wraps everything but a dict as {"result": …}, as FastMCP does', () => {
    expect(isWrapped({ kind: 'int' })).toBe(true);
    expect(isWrapped({ kind: 'list', item: { kind: 'int' } })).toBe(true);
    expect(isWrapped({ kind: 'dict', value: { kind: 'int' } })).toBe(false);
  });
});

type Verdict = 'accepted' | 'rejected' | 'unknown';

function verdictOf(type: LaxType, value: unknown): Verdict {
  const { rejected, unknown } = judgeLax(type, value);
  return rejected.length > 0 ? 'rejected' : unknown ? 'unknown' : 'accepted';
}

describe('judgeLax: the conversion table', () => {
  const int = { kind: 'int' } as const;
  const float = { kind: 'float' } as const;
  const bool = { kind: 'bool' } as const;
  const str = { kind: 'str' } as const;
  const cases: [LaxType, unknown, Verdict][] = [
    [int, 3, 'accepted'],
    [int, 2.0, 'accepted'],
    [int, 2.5, 'rejected'],
    [int, '7', 'accepted'],
    [int, '-7', 'accepted'],
    [int, ' 7 ', 'unknown'],
    [int, '1_000', 'unknown'],
    [int, 'abc', 'rejected'],
    [int, '2.5', 'rejected'],
    [int, null, 'rejected'],
    [int, [], 'rejected'],
    [int, {}, 'rejected'],
    [int, true, 'unknown'],
    // An unknown number may have a fraction; one the analysis knows is integral (`len(x)`) is an int.
    [int, unknownOf('number'), 'unknown'],
    [
      int,
      new UnknownValue('n', 'n is known only at run time', SITE, 'number', { integral: true }),
      'accepted',
    ],
    [int, unknownOf('string'), 'unknown'],
    [int, unknownOf('object'), 'rejected'],
    [float, 1.5, 'accepted'],
    [float, '1e5', 'accepted'],
    [float, '.5', 'accepted'],
    [float, 'inf', 'unknown'],
    [float, '1e5x', 'rejected'],
    [float, 'nothing', 'rejected'],
    [float, null, 'rejected'],
    [bool, false, 'accepted'],
    [bool, 0, 'accepted'],
    [bool, 1, 'accepted'],
    [bool, 7, 'rejected'],
    [bool, 'yes', 'accepted'],
    [bool, 'OFF', 'accepted'],
    [bool, ' yes', 'unknown'],
    [bool, 'maybe', 'rejected'],
    [bool, unknownOf('number'), 'unknown'],
    [str, 'x', 'accepted'],
    [str, 5, 'rejected'],
    [str, false, 'rejected'],
    [str, null, 'rejected'],
    [str, unknownOf('string'), 'accepted'],
    [str, unknownOf('number'), 'rejected'],
    [str, unknownOf(), 'unknown'],
    [{ kind: 'optional', of: int }, null, 'accepted'],
    [{ kind: 'optional', of: int }, 'abc', 'rejected'],
    [{ kind: 'list', item: str }, ['a', 'b'], 'accepted'],
    [{ kind: 'list', item: str }, 'ab', 'rejected'],
    [{ kind: 'list', item: str }, unknownOf('array'), 'unknown'],
    [{ kind: 'dict', value: int }, { a: 1, b: '2' }, 'accepted'],
    [{ kind: 'dict', value: int }, [1], 'rejected'],
  ];
  it.each(cases)('%j, %j: %s', (type, value, verdict) => {
    expect(verdictOf(type, value)).toBe(verdict);
  });

  it('names every rejected member, and a container that holds more than it lists is not accepted', () => {
    expect(judgeLax({ kind: 'list', item: { kind: 'str' } }, ['a', 1, 'b', null])).toEqual({
      rejected: [[1], [3]],
    });
    expect(judgeLax({ kind: 'dict', value: { kind: 'int' } }, { a: 1, 'b/c': 'x' })).toEqual({
      rejected: [['b/c']],
    });
    const open = Object.assign(['a'], { [Symbol.for('x')]: 1 });
    expect(verdictOf({ kind: 'list', item: { kind: 'str' } }, open)).toBe('accepted');
  });
});

/** Types and JSON values drawn together, for the properties below. */
const laxType: fc.Arbitrary<LaxType> = fc.letrec<{ type: LaxType }>((tie) => ({
  type: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<LaxType>({ kind: 'str' }, { kind: 'int' }, { kind: 'float' }, { kind: 'bool' }),
    tie('type').map((item) => ({ kind: 'list', item }) as LaxType),
    tie('type').map((value) => ({ kind: 'dict', value }) as LaxType),
    tie('type').map((of) => ({ kind: 'optional', of }) as LaxType),
  ),
})).type;

const value = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);

describe('judgeLax and the strict schema agree (property)', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  it('a value of the strict form is accepted; each rejected path fails its own path schema', () => {
    fc.assert(
      fc.property(laxType, value, (type, v) => {
        const { rejected, unknown } = judgeLax(type, v);
        if (ajv.validate(strictSchema(type), v)) {
          expect(rejected).toEqual([]);
          expect(unknown).toBeUndefined();
        }
        for (const path of rejected) {
          expect(getIn(v, path) !== undefined || path.length === 0).toBe(true);
          // Ajv skips a `properties` entry named __proto__ (as the SDK client's Ajv does), so no schema
          // words that rejection; the scan leaves such a return unproven (tested below).
          if (path.includes('__proto__')) continue;
          const instance = isWrapped(type) ? { result: v } : v;
          expect(ajv.validate(schemaAtPath(type, path), instance)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('scan: FastMCP tools whose return pydantic rejects', () => {
  async function scanPy(source: string) {
    const dir = mkdtempSync(join(scratch, 'py-'));
    writeFileSync(
      join(dir, 'server.py'),
      `from mcp.server.fastmcp import FastMCP\nmcp = FastMCP("s")\n${source}`,
    );
    const { verdict, report } = await scanPaths([dir], { cwd: dir });
    return {
      verdict,
      findings: report.findings.map((f) => `${f.rule} ${f.pointer} ${f.location?.line}`),
      messages: report.findings.map((f) => f.message),
    };
  }
  const tool = (annotation: string, body: string, params = '') =>
    `\n@mcp.tool()\ndef t(${params}) -> ${annotation}:\n    return ${body}\n`;

  it('a value pydantic never converts is an error at the return (line 6), and the tool fails', async () => {
    for (const [annotation, body, pointer] of [
      ['int', '"abc"', '/structuredContent/result'],
      ['int', '2.5', '/structuredContent/result'],
      ['bool', '7', '/structuredContent/result'],
      ['float', '"1e5x"', '/structuredContent/result'],
      ['str', 'None', '/structuredContent/result'],
      ['list[str]', '["a", 1]', '/structuredContent/result/1'],
      ['dict[str, int]', '{"a": 1, "b": "x"}', '/structuredContent/b'],
      ['Optional[int]', '"abc"', '/structuredContent/result'],
      // NaN and the infinities pass pydantic's float check, and are written to JSON as null.
      ['float', 'float("nan")', '/structuredContent/result'],
      ['float', 'float("-Infinity")', '/structuredContent/result'],
    ]) {
      const { verdict, findings, messages } = await scanPy(tool(annotation as string, body as string));
      expect(findings, `${annotation} ${body}`).toEqual([`structured-content-schema-mismatch ${pointer} 6`]);
      expect(messages[0]).toContain(`FastMCP validates the return value against \`-> ${annotation}\``);
      expect(messages[0]).not.toContain('prefixItems');
      expect(verdict).toMatchObject({ status: 'fail', invalid: 1 });
    }
  });

  it('a return annotation the scan does not read (Literal, Annotated constraints, unions) is not proven, never typed', async () => {
    for (const annotation of [
      'Literal["low", "high"]',
      'Annotated[int, Field(ge=0)]',
      'Union[int, str]',
      'tuple[int, int]',
    ]) {
      const { verdict, findings } = await scanPy(tool(annotation, '"medium"'));
      expect(findings, annotation).toEqual([]);
      expect(verdict, annotation).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
      expect(verdict.unproven, annotation).toEqual([
        `t (server.py:6:5): FastMCP checks the return against \`${annotation}\`, a type the scan does not read`,
      ]);
    }
  });

  it("an annotation of the SDK's content models FastMCP validates against: only instances are proven", async () => {
    // FastMCP builds an output model from `-> list[TextContent]` and validates every return against it:
    // a dict of another type fails there, and the client gets an error result. That was typed.
    const header = 'from mcp.types import TextContent, ImageContent\n';
    for (const [annotation, body] of [
      ['list[TextContent]', '[{"type": "row", "text": "x"}]'],
      ['TextContent', '{"type": "row", "text": "x"}'],
      ['list[ImageContent]', '[TextContent(type="text", text="x")]'],
    ]) {
      const { verdict } = await scanPy(header + tool(annotation as string, body as string));
      expect(verdict, annotation).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
    }
    for (const [annotation, body] of [
      ['list[TextContent]', '[TextContent(type="text", text="x"), TextContent(type="text", text="y")]'],
      ['TextContent', 'TextContent(type="text", text="x")'],
      ['list[TextContent]', '[]'],
    ]) {
      const { verdict } = await scanPy(header + tool(annotation as string, body as string));
      expect(verdict, annotation).toMatchObject({ status: 'pass', typed: 1 });
    }
  });

  it('an argument of the wrong type for the annotation is an error too', async () => {
    const { findings } = await scanPy(tool('str', 'n', 'n: int'));
    expect(findings).toEqual(['structured-content-schema-mismatch /structuredContent/result 6']);
  });

  it('a parameter is its default when the caller leaves it out, which nothing validates', async () => {
    // `s: str = None` is None for a call without `s`: `-> str` then fails (this was "typed").
    for (const [annotation, params] of [
      ['str', 's: str = None'],
      ['int', 's: int = None'],
    ]) {
      const { findings, verdict } = await scanPy(tool(annotation as string, 's', params));
      expect(findings, params).toEqual(['structured-content-schema-mismatch /structuredContent/result 6']);
      expect(verdict).toMatchObject({ status: 'fail', invalid: 1 });
    }
    // A default of the annotated type is fine.
    for (const [annotation, params] of [
      ['str', 's: str = "all"'],
      ['int', 's: int = 10'],
    ]) {
      const { findings, verdict } = await scanPy(tool(annotation as string, 's', params));
      expect(findings, params).toEqual([]);
      expect(verdict).toMatchObject({ status: 'pass', typed: 1 });
    }
    // An Optional parameter is its type or None, however it is written.
    for (const [annotation, body, params] of [
      ['Optional[str]', 's', 's: Optional[str] = None'],
      ['str', 's or "all"', 's: Optional[str] = None'],
      ['str', 's or "all"', 's: str | None = None'],
      ['int', 'n if n is not None else 0', 'n: Union[int, None]'],
      ['int', 'sum(xs or [])', 'xs: None | list[int] = None'],
    ]) {
      const { findings, verdict } = await scanPy(tool(annotation as string, body as string, params));
      expect(findings, `${params} ${body}`).toEqual([]);
      expect(verdict, `${params} ${body}`).toMatchObject({ status: 'pass', typed: 1 });
    }
    for (const params of ['s: Optional[str]', 's: str | None = None', 's: typing.Optional[str] = "x"']) {
      const { findings } = await scanPy(tool('str', 's', params));
      expect(findings, params).toEqual(['structured-content-schema-mismatch /structuredContent/result 6']);
    }
  });

  it('in a protocol version without structuredContent too: FastMCP validates whatever was negotiated', async () => {
    for (const protocolVersion of ['2024-11-05', '2025-03-26'] as const) {
      const dir = mkdtempSync(join(scratch, 'py-'));
      writeFileSync(
        join(dir, 'server.py'),
        `from mcp.server.fastmcp import FastMCP\nmcp = FastMCP("s")\n${tool('int', '"abc"')}`,
      );
      const { verdict, report } = await scanPaths([dir], { cwd: dir, protocolVersion });
      expect(report.findings.map((f) => `${f.rule} ${f.location?.line}`)).toEqual([
        'structured-content-schema-mismatch 6',
      ]);
      expect(verdict, protocolVersion).toMatchObject({ status: 'fail', invalid: 1 });
    }
  });

  it('what pydantic converts passes; what it may reject is left to run time', async () => {
    for (const [annotation, body, params] of [
      ['int', '"7"', ''],
      ['int', 'a + b', 'a: int, b: int'],
      // Integers stay integers: len(), int(), round() to no digits, str.count(), and + - * // % of them.
      ['int', 'len(s)', 's: str'],
      ['int', 'int(x) + round(x)', 'x: float'],
      ['int', '-a * 2 // 3 % 5 - s.count("x")', 'a: int, s: str'],
      ['int', 'n', 'n: Annotated[int, "how many"]'],
      // sum() of a validated list[int], min()/max() of integers, and range()'s items.
      ['int', 'sum(xs) + min(xs)', 'xs: list[int]'],
      ['int', 'max(a, b)', 'a: int, b: int'],
      ['int', 'max(range(n))', 'n: int'],
      ['bool', '"yes"', ''],
      ['float', '3', ''],
      ['list[int] | None', '[1, 2.0, "3"]', ''],
      ['Optional[str]', 'None', ''],
      ['str', 'city', 'city: str'],
    ]) {
      const { verdict, findings } = await scanPy(tool(annotation as string, body as string, params));
      expect({ annotation, body, findings, verdict }).toMatchObject({
        findings: [],
        verdict: { status: 'pass', typed: 1 },
      });
    }
    for (const [annotation, body, params] of [
      ['str', 'payload', 'payload'],
      ['int', 's', 's: str'],
      ['bool', '" yes"', ''],
      // A number that may have a fraction: lax mode takes 2.0 as an int and refuses 2.5.
      ['int', 'a / b', 'a: int, b: int'],
      ['int', 'x', 'x: float'],
      ['int', 'a ** b', 'a: int, b: int'],
      ['int', 'round(x, 2)', 'x: float'],
      ['int', 'a + x', 'a: int, x: float'],
      ['int', 'sum(xs)', 'xs: list'],
      // min() of a list answers an item, never the list (it was a false error here).
      ['int', 'min(xs)', 'xs: list'],
      ['int', 'next(iter(xs), 0)', 'xs: list'],
      ['int', 'max(a, x)', 'a: int, x: float'],
    ]) {
      const { verdict, findings } = await scanPy(tool(annotation as string, body as string, params));
      expect(findings).toEqual([]);
      expect(verdict).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
      expect(verdict.unproven[0]).toContain(`checked against \`-> ${annotation}\``);
    }
  });

  it('a number an int on one pass of a loop and a float on the next is not proven an int', async () => {
    // `y = x * 2` is an integer on the first pass and not once `x = x / 3` ran: the two values of one
    // expression stay apart when the loop's passes are joined.
    const loop =
      '\n@mcp.tool()\ndef t(items: list) -> int:\n    x = 1\n    y = 0\n    for item in items:\n        y = x * 2\n        x = x / 3\n    return y\n';
    const { verdict, findings } = await scanPy(loop);
    expect(findings).toEqual([]);
    expect(verdict).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
    // Integers throughout stay an int: a counter, an index from range() or enumerate().
    const integral = await scanPy(loop.replace('x = x / 3', 'x = x // 3'));
    expect(integral.verdict).toMatchObject({ status: 'pass', typed: 1 });
    const indexes = await scanPy(
      '\n@mcp.tool()\ndef t(items: list) -> int:\n    n = 0\n    for item in items:\n        n += 1\n    for i in range(len(items)):\n        if items[i]:\n            return i\n    for j, item in enumerate(items):\n        if item:\n            return j\n    return n\n',
    );
    expect(indexes.verdict).toMatchObject({ status: 'pass', returns: 3, typed: 3 });
  });

  it('structured_output=False checks nothing', async () => {
    const unchecked = await scanPy(
      '\n@mcp.tool(structured_output=False)\ndef t() -> int:\n    return "abc"\n',
    );
    expect(unchecked.findings).toEqual([]);
  });

  it('the standalone fastmcp checks nothing, but clients check its structuredContent, converting nothing', async () => {
    // jlowin/fastmcp: ParsedFunction.from_function derives the outputSchema from the annotation
    // (wrapped as {"result": …} unless an object) and Tool.convert_result sends the value, unchecked,
    // as structuredContent; the SDK clients validate it against that schema. These were typed.
    const dir = mkdtempSync(join(scratch, 'pkg-'));
    writeFileSync(join(dir, '__init__.py'), '');
    writeFileSync(
      join(dir, 'models.py'),
      'from pydantic import BaseModel\n\nclass Item(BaseModel):\n    name: str\n    price: float\n',
    );
    writeFileSync(
      join(dir, 'server.py'),
      `from fastmcp import FastMCP
from .models import Item
mcp = FastMCP("s")

@mcp.tool
def items() -> list[Item]:
    return [{"name": "a", "price": "cheap"}]

@mcp.tool
def count() -> int:
    return "7"

@mcp.tool
def flag() -> bool:
    return 1

@mcp.tool
def good(n: int) -> list[Item]:
    return [Item(name="a", price=n), {"name": "b", "price": 2.5}]

@mcp.tool
def total(n: int) -> int:
    return n + 1

@mcp.tool
def level() -> Literal["low", "high"]:
    return "low"
`,
    );
    const { verdict, report } = await scanPaths([dir], { cwd: dir });
    expect(report.findings.map((f) => `${f.rule} ${f.pointer} ${f.location?.line}`)).toEqual([
      'structured-content-schema-mismatch /structuredContent/result/0/price 7',
      'structured-content-schema-mismatch /structuredContent/result 11',
      'structured-content-schema-mismatch /structuredContent/result 15',
    ]);
    expect(report.findings[0]?.message).toContain(
      'the standalone fastmcp sends the return value as structuredContent, which clients check against the outputSchema it derives from `-> list[Item]`',
    );
    expect(verdict).toMatchObject({ status: 'fail', returns: 6, typed: 2, invalid: 3, unresolved: 1 });
    expect(verdict.unproven).toEqual([
      expect.stringContaining(
        'clients check the return against the outputSchema fastmcp derives from `Literal["low", "high"]`',
      ),
    ]);
    // Clients of a version without structuredContent check nothing.
    const old = await scanPaths([dir], { cwd: dir, protocolVersion: '2025-03-26' });
    expect(old.report.findings).toEqual([]);
  });
});

describe('scan: FastMCP return annotations naming a model of the module', () => {
  // python-sdk func_metadata.py: a BaseModel, a TypedDict or a dataclass return annotation is the
  // output model itself (not wrapped), and the value is validated against it like any other.
  const MODELS = `from dataclasses import dataclass
from typing import ClassVar, NotRequired, TypedDict
from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel, Field, field_validator
mcp = FastMCP("s")

class Weather(BaseModel):
    """Weather at one place."""
    temp: float
    city: str
    note: str = "none"
    unit: ClassVar[str]

class Partial(TypedDict, total=False):
    a: int

class Reading(TypedDict):
    temp: float
    station: NotRequired[str]

@dataclass
class Point:
    x: int

class Checked(BaseModel):
    n: int

    @field_validator("n")
    def positive(cls, v):
        return v

class Bounded(BaseModel):
    n: int = Field(gt=0)

class Derived(Weather):
    wind: float

class Plain:
    x: int

class Private(BaseModel):
    n: int
    _cache: dict
`;
  async function scanModels(tools: string) {
    const dir = mkdtempSync(join(scratch, 'py-'));
    writeFileSync(join(dir, 'server.py'), `${MODELS}${tools}`);
    const { verdict, report } = await scanPaths([dir], { cwd: dir });
    return { verdict, findings: report.findings.map((f) => `${f.rule} ${f.pointer} ${f.location?.line}`) };
  }
  const TOOLS_AT = MODELS.split('\n').length;
  const tool = (annotation: string, body: string) =>
    `\n@mcp.tool()\ndef t() -> ${annotation}:\n    return ${body}\n`;

  it('a dict missing a required field, or with a field pydantic rejects, is an error at the return', async () => {
    for (const [annotation, body, pointers] of [
      ['Weather', '{"temp": "hot"}', ['/structuredContent/temp', '/structuredContent']],
      ['Reading', '{"temp": None}', ['/structuredContent/temp']],
      ['list[Point]', '[{"x": 1}, {"x": "a"}]', ['/structuredContent/result/1/x']],
      ['Weather', '"sunny"', ['/structuredContent']],
      ['Partial', '{"a": "x"}', ['/structuredContent/a']],
    ] as const) {
      const { verdict, findings } = await scanModels(tool(annotation, body));
      expect(findings, `${annotation} ${body}`).toEqual(
        pointers.map((p) => `structured-content-schema-mismatch ${p} ${TOOLS_AT + 3}`),
      );
      expect(verdict).toMatchObject({ status: 'fail', invalid: 1 });
    }
  });

  it('an instance of the class, or a dict pydantic takes (extra members ignored), passes', async () => {
    for (const [annotation, body] of [
      ['Weather', 'Weather(temp=1.0, city="x")'],
      ['Weather', '{"temp": "3.5", "city": "x", "other": [1]}'],
      ['Reading', '{"temp": 3}'],
      ['Partial', '{}'],
      ['Point', '{"x": "7"}'],
      ['Checked', 'Checked(n=1)'],
      ['Plain', '{"y": 1}'],
    ] as const) {
      const { verdict, findings } = await scanModels(tool(annotation, body));
      expect({ annotation, body, findings, verdict }).toMatchObject({
        findings: [],
        verdict: { status: 'pass', typed: 1 },
      });
    }
  });

  it('a dict key named __proto__ is a member like any other: a value pydantic refuses there is not typed', async () => {
    // It once set the prototype of the value the scan judged, and vanished: the return passed as typed.
    const { verdict } = await scanModels(tool('dict[str, str]', '{"__proto__": 1}'));
    expect(verdict).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
    const { verdict: taken } = await scanModels(tool('dict[str, str]', '{"__proto__": "x"}'));
    expect(taken).toMatchObject({ status: 'pass', typed: 1 });
  });

  it('a model built with a literal pydantic refuses, or without a required field, is an error at the argument', async () => {
    // The constructor raises ValidationError on every call; FastMCP answers with an error result.
    for (const [body, pointers, column] of [
      ['Weather(temp="hot", city="x")', ['/structuredContent/temp'], 'return Weather(temp='.length + 5],
      // At the call, which leaves the field out.
      ['Weather(temp=1.5)', ['/structuredContent'], '    return '.length + 1],
      [
        'Weather(temp=True, city=None)',
        ['/structuredContent/city'],
        'return Weather(temp=True, city='.length + 5,
      ],
    ] as const) {
      const dir = mkdtempSync(join(scratch, 'built-'));
      writeFileSync(join(dir, 'server.py'), `${MODELS}${tool('Weather', body)}`);
      const { verdict, report } = await scanPaths([dir], { cwd: dir });
      expect(
        report.findings.map((f) => `${f.rule} ${f.pointer} ${f.location?.line}:${f.location?.column}`),
        body,
      ).toEqual(pointers.map((p) => `structured-content-schema-mismatch ${p} ${TOOLS_AT + 3}:${column}`));
      expect(report.findings[0]?.message).toContain('a model already when it is built');
      expect(verdict).toMatchObject({ status: 'fail', invalid: 1 });
    }
  });

  it('a model built with what pydantic takes, or may take, or cannot be listed, stays the model', async () => {
    for (const [annotation, body] of [
      ['Weather', 'Weather(temp="20.5", city="x", other=1)'],
      ['Weather', 'Weather(temp=3, city="x", note="n")'],
      ['Weather', 'Weather(**{"temp": 1.0})'],
      ['Weather', 'Weather(1.0, "x")'],
      // A name with a leading underscore is a private attribute: not a field, so not required.
      ['Private', 'Private(n=1)'],
      ['Private', '{"n": 1}'],
      // Not validated when built: a dataclass, a class with a validator, a TypedDict call (a dict).
      ['Point', 'Point(x="a")'],
      ['Checked', 'Checked(n="x")'],
    ] as const) {
      const { verdict, findings } = await scanModels(tool(annotation, body));
      expect({ body, findings, verdict }).toMatchObject({
        findings: [],
        verdict: { status: 'pass', typed: 1 },
      });
    }
    const { findings } = await scanModels(
      `
@mcp.tool()
def t(t: str) -> Weather:
    return Weather(temp=t, city="x")
`,
    );
    expect(findings).toEqual([]);
  });

  it('a refused construction is an error however it reaches the return: bare, dumped, read or nested', async () => {
    // Without an annotation naming the model nothing checked these: each counted as typed, though the
    // constructor raises on every call and the client gets an error result.
    const cases = [
      ['def t():\n    return Weather(temp="hot", city="x")', 'bare'],
      ['def t() -> dict:\n    return Weather(temp="hot", city="x").model_dump()', 'dumped'],
      ['def t():\n    w = Weather(city="x")\n    return w.model_dump()', 'missing field'],
      ['def t():\n    return Weather(temp="hot", city="x").city', 'attribute'],
      ['def t():\n    return {"items": [Weather(city="x")]}', 'nested'],
    ] as const;
    for (const [body, label] of cases) {
      const dir = mkdtempSync(join(scratch, 'refused-'));
      writeFileSync(join(dir, 'server.py'), `${MODELS}\n@mcp.tool()\n${body}\n`);
      const { verdict, report } = await scanPaths([dir], { cwd: dir });
      expect(
        report.findings.map((f) => `${f.rule} ${f.pointer}`),
        label,
      ).toEqual(['structured-content-schema-mismatch ']);
      const [finding] = report.findings;
      expect(finding?.message, label).toMatch(/^Weather\(…\)/);
      expect(finding?.message, label).toContain('raises ValidationError where it is built');
      expect(finding?.location?.line, label).toBe(TOOLS_AT + 3);
      expect(verdict, label).toMatchObject({ status: 'fail', typed: 0, invalid: 1 });
    }
  });

  it('a refused construction through a helper is reported; one inside a try, here or in a caller, is not', async () => {
    const dir = mkdtempSync(join(scratch, 'refused-try-'));
    writeFileSync(
      join(dir, 'server.py'),
      `${MODELS}
def build():
    return Weather(temp="hot", city="x")

@mcp.tool()
def direct():
    return build()

@mcp.tool()
def guarded():
    try:
        return build()
    except ValueError:
        return "bad"

@mcp.tool()
def caught():
    try:
        w = Weather(temp="hot", city="x")
    except Exception:
        return "bad"
    return w.model_dump()
`,
    );
    const { report } = await scanPaths([dir], { cwd: dir });
    expect(report.findings.map((f) => `${f.rule} ${f.location?.line}`)).toEqual([
      `structured-content-schema-mismatch ${TOOLS_AT + 2}`,
    ]);
    expect(report.findings[0]?.message).toContain('FastMCP sends an error result');
  });

  it('a class validated in ways the scan does not read leaves a dict to run time', async () => {
    for (const [annotation, body] of [
      ['Checked', '{"n": "x"}'],
      ['Bounded', '{"n": -5}'],
      ['Derived', '{"temp": 1, "city": "x"}'],
    ] as const) {
      const { verdict, findings } = await scanModels(tool(annotation, body));
      expect(findings).toEqual([]);
      expect(verdict, annotation).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
    }
  });
});

describe('scan: a model imported from another file of the project', () => {
  it('is read where it is defined, under any name it is imported as', async () => {
    const dir = mkdtempSync(join(scratch, 'pkg-'));
    writeFileSync(join(dir, '__init__.py'), '');
    writeFileSync(
      join(dir, 'models.py'),
      'from pydantic import BaseModel\n\nclass Weather(BaseModel):\n    temp: float\n    city: str\n',
    );
    writeFileSync(
      join(dir, 'server.py'),
      `from mcp.server.fastmcp import FastMCP
from .models import Weather
from .models import Weather as W
mcp = FastMCP("s")

@mcp.tool()
def bad() -> Weather:
    return {"temp": "hot", "city": "x"}

@mcp.tool()
def good() -> W:
    return W(temp=1.0, city="x")
`,
    );
    const { verdict, report } = await scanPaths([dir], { cwd: dir });
    expect(
      report.findings.map((f) => `${f.rule} ${f.pointer} ${f.location?.file}:${f.location?.line}`),
    ).toEqual(['structured-content-schema-mismatch /structuredContent/temp server.py:8']);
    expect(verdict).toMatchObject({ status: 'fail', returns: 2, typed: 1, invalid: 1 });
  });

  it('is read when the annotation reaches it through a module or names it in quotes', async () => {
    // These were typed: an annotation the scan could not read left the return to FastMCP's conversion.
    const dir = mkdtempSync(join(scratch, 'pkg-'));
    mkdirSync(join(dir, 'app', 'schemas'), { recursive: true });
    writeFileSync(join(dir, 'app', '__init__.py'), '');
    writeFileSync(join(dir, 'app', 'schemas', '__init__.py'), 'from .item import Item\n');
    writeFileSync(
      join(dir, 'app', 'schemas', 'item.py'),
      'from pydantic import BaseModel\n\nclass Item(BaseModel):\n    name: str\n    price: float\n',
    );
    writeFileSync(
      join(dir, 'app', 'server.py'),
      `from typing import Optional
from mcp.server.fastmcp import FastMCP
from app import schemas
from app.schemas import Item
import app.schemas.item as item_mod
mcp = FastMCP("s")

@mcp.tool()
def a() -> list[schemas.Item]:
    return [{"name": "a", "price": "cheap"}]

@mcp.tool()
def b() -> Optional[list[item_mod.Item]]:
    return [{"name": "a", "price": "cheap"}]

@mcp.tool()
def c() -> list["Item"]:
    return [{"name": "a", "price": "cheap"}]

@mcp.tool()
def d() -> list[schemas.Item]:
    return [schemas.Item(name="a", price=1.5), {"name": "b", "price": 2}]
`,
    );
    const { verdict, report } = await scanPaths([dir], { cwd: dir });
    expect(
      report.findings.map((f) => `${f.rule} ${f.pointer} ${f.location?.file}:${f.location?.line}`),
    ).toEqual(
      [10, 14, 18].map(
        (line) =>
          `structured-content-schema-mismatch /structuredContent/result/0/price app/server.py:${line}`,
      ),
    );
    expect(verdict).toMatchObject({ status: 'fail', returns: 4, typed: 1, invalid: 3 });
  });
});

describe('scan: hostile annotations', () => {
  // The test's own timeout is the bound: the annotation once held the scan for 30 s.
  it('a 200 KB parameter annotation is read in one pass (it held the scan for 30 s)', {
    timeout: 20_000,
  }, async () => {
    const dir = mkdtempSync(join(scratch, 'hostile-'));
    const long = `Annotated[${'a'.repeat(200_000)}] | None`;
    writeFileSync(
      join(dir, 'server.py'),
      `from mcp.server.fastmcp import FastMCP\nmcp = FastMCP("s")\n\n@mcp.tool()\ndef t(x: ${long} = None) -> str:\n    return "ok"\n`,
    );
    const { verdict, report } = await scanPaths([dir], { cwd: dir });
    expect(report.findings).toEqual([]);
    expect(verdict).toMatchObject({ status: 'pass', typed: 1 });
  });

  it('an annotation nested 30,000 deep, and a chain of 60 models, are scanned quickly and in one line', {
    timeout: 20_000,
  }, async () => {
    const dir = mkdtempSync(join(scratch, 'hostile-'));
    const deep = `${'list['.repeat(30_000)}int${']'.repeat(30_000)}`;
    const chain = Array.from(
      { length: 60 },
      (_, i) => `class M${i}(BaseModel):\n    next: M${i + 1}\n    n: int\n`,
    ).join('\n');
    writeFileSync(
      join(dir, 'server.py'),
      `from mcp.server.fastmcp import FastMCP
from pydantic import BaseModel
mcp = FastMCP("s")
${chain}
class M60(BaseModel):
    n: int

@mcp.tool()
def deep() -> ${deep}:
    return "abc"

@mcp.tool()
def wide() -> ${'list['.repeat(30)}int${']'.repeat(30)}:
    return "abc"

@mcp.tool()
def models() -> M0:
    return {"n": "x"}
`,
    );
    const { unscanned, report } = await scanPaths([dir], { cwd: dir });
    expect(unscanned).toEqual([]);
    // Too deep to read is not checked; 30 levels is, and so is the head of a long chain of models
    // (its missing `next`).
    expect(report.findings.map((f) => `${f.rule} ${f.pointer}`)).toEqual([
      'structured-content-schema-mismatch /structuredContent/result',
      'structured-content-schema-mismatch /structuredContent',
    ]);
    for (const f of report.findings) expect(f.message.length).toBeLessThan(400);
  });
});

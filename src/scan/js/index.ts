/** The TS/JS front end: parse with oxc-parser (ESTree, as ESLint sees it), find handlers, interpret them. */

import type { Node, Program } from 'oxc-parser';
import { type ParseResult, type ParserOptions, parseSync, rawTransferSupported } from 'oxc-parser';
import type { SourceFile } from '../abstract/value.js';
import type { Extracted } from '../analyze.js';
import type { Project } from '../project.js';
import { SyntaxErrorInSource } from '../source.js';
import { candidates, JsExtractor } from './extract.js';
import { JsInterpreter, type JsModule } from './interpret.js';
import { registersRoute } from './routes.js';

/**
 * Parses TS/JS source; the dialect follows the file extension (`.ts`, `.tsx`, `.mts`, `.js`, …).
 * oxc recovers from some errors and keeps the program; when it cannot, the body is empty and the file
 * is reported as unparsable rather than scanned as if it had no handlers.
 */
export function parseJs(path: string, source: string): Program {
  const deep = nestingBeyond(source, MAX_NESTING);
  if (deep !== undefined) {
    throw new SyntaxErrorInSource(`nested more than ${MAX_NESTING} levels deep; not parsed`, deep);
  }
  const parsed = parseOxc(path, source);
  const fatal = parsed.errors.find((e) => e.severity === 'Error');
  if (fatal && parsed.program.body.length === 0) {
    throw new SyntaxErrorInSource(fatal.message, fatal.labels[0]?.start ?? 0);
  }
  return parsed.program;
}

/**
 * How oxc hands its AST to JavaScript. `raw`: oxc writes it into a buffer shared with JavaScript, which
 * reads it back (Node 22 and later: Node 20 cannot make an ArrayBuffer that large); `json`: as a JSON
 * string, parsed here. Both give the same ESTree (test/scan/js-parser.test.ts compares them on every
 * fixture and the SDKs' own code) but for one member nothing here reads: a literal's `raw` text, where
 * the source holds a lone surrogate, is the source's with raw transfer and has U+FFFD in its place with
 * JSON. On the bench's corpus `raw` parsed in 0.37 to 0.57 s of CPU
 * where `json` took 1.35 to 1.41 s (Node 22 and 24), about a fifth of a whole scan. A raw parse that
 * throws (its 6 GiB of address space refused, say) turns raw transfer off for the rest of the process.
 */
export let jsParseTransfer: 'raw' | 'json' = rawTransferSupported() ? 'raw' : 'json';

/**
 * `experimentalRawTransfer` is read by oxc-parser's parseSync (src-js/index.js) but missing from its
 * types; the version is pinned exactly. Were the option ignored, oxc would answer by JSON: the same
 * AST, only slower (the scan bench's Node 22 figure would show it; no test can).
 */
const RAW_TRANSFER: ParserOptions = { preserveParens: false, experimentalRawTransfer: true } as ParserOptions;

function parseOxc(path: string, source: string): ParseResult {
  if (jsParseTransfer === 'raw') {
    try {
      return parseSync(path, source, RAW_TRANSFER);
    } catch {
      jsParseTransfer = 'json';
    }
  }
  return parseSync(path, source, { preserveParens: false });
}

/**
 * Brackets nested deeper than this are not parsed: oxc's native parser recurses on them and, some
 * ten thousand levels down, overflows the native stack, which kills the process (no exception to
 * catch). Hand-written code nests a few dozen levels.
 */
export const MAX_NESTING = 1000;

/**
 * Where brackets first nest deeper than `limit`, skipping strings and comments (roughly: a
 * template's `${…}` counts as text, regular expressions as code); undefined when they never do.
 */
export function nestingBeyond(source: string, limit: number): number | undefined {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x28 || c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i;
    } else if (c === 0x29 || c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--;
    } else if (c === 0x22 || c === 0x27 || c === 0x60) {
      // A string: to its closing quote (an unclosed one ends the line, except for templates).
      for (i++; i < source.length; i++) {
        const d = source.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === c || (d === 0x0a && c !== 0x60)) break;
      }
    } else if (c === 0x2f && source.charCodeAt(i + 1) === 0x2f) {
      const end = source.indexOf('\n', i);
      i = end === -1 ? source.length : end;
    } else if (c === 0x2f && source.charCodeAt(i + 1) === 0x2a) {
      const end = source.indexOf('*/', i + 2);
      i = end === -1 ? source.length : end + 1;
    }
  }
  return undefined;
}

/** An imported file is followed only if it parses; otherwise its values stay unknown. */
function parseImported(file: SourceFile): Program | undefined {
  try {
    return parseJs(file.absolute ?? file.path, file.text);
  } catch {
    return undefined;
  }
}

export class JsFrontEnd {
  private readonly calls = new Set<Node>();
  private readonly objects = new Set<Node>();
  readonly interpreter: JsInterpreter;
  private readonly extractor: JsExtractor;

  constructor(project: Project) {
    this.interpreter = new JsInterpreter(project, parseImported, this.calls, this.objects);
    this.extractor = new JsExtractor(project, this.interpreter);
  }

  /**
   * Registers a scanned file (parsing it unless the program is given, as ESLint does). Every scanned
   * file is added before any is extracted, so registrations made through another file are watched.
   */
  add(file: SourceFile, program?: Program): JsModule {
    const mod = this.interpreter.module(file, program ?? parseJs(file.absolute ?? file.path, file.text));
    if (!mod) throw new Error(`cannot index ${file.path}`);
    for (const c of candidates(mod)) this.calls.add(c.call);
    for (const e of mod.index.envelopes) this.objects.add(e.node);
    // Route registrations are recorded too: their callbacks run as the framework calls them.
    for (const { call } of mod.index.calls) if (registersRoute(call)) this.calls.add(call);
    this.extractor.addRoutes(mod);
    return mod;
  }

  extract(mod: JsModule): Extracted {
    return this.extractor.extract(mod, candidates(mod), mod.index.envelopes);
  }
}

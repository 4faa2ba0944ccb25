/** The Python front end: parse with tree-sitter, find handlers and payloads, interpret them. */

import type { SourceFile } from '../abstract/value.js';
import type { Extracted } from '../analyze.js';
import type { Project } from '../project.js';
import { type Discovery, discover, PyExtractor } from './extract.js';
import { PyInterpreter, type PyModule } from './interpret.js';
import type { PyNode } from './parser.js';
import { type PythonParser, parsePython, pythonParser } from './parser.js';

export type { PyModule };

export class PyFrontEnd {
  private readonly calls = new Set<PyNode>();
  private readonly objects = new Set<PyNode>();
  private readonly found = new Map<PyModule, Discovery>();
  readonly interpreter: PyInterpreter;
  private readonly extractor: PyExtractor;

  private constructor(
    project: Project,
    private readonly parser: PythonParser,
  ) {
    this.interpreter = new PyInterpreter(
      project,
      (file) => {
        try {
          return parsePython(parser, file.text);
        } catch {
          // An imported file that does not parse is not followed; its values stay unknown.
          return undefined;
        }
      },
      this.calls,
      this.objects,
    );
    this.extractor = new PyExtractor(project, this.interpreter);
  }

  static async create(project: Project): Promise<PyFrontEnd> {
    return new PyFrontEnd(project, await pythonParser());
  }

  /** Registers a scanned file; throws `SyntaxErrorInSource` when it does not parse. */
  add(file: SourceFile): PyModule {
    const mod = this.interpreter.module(file, parsePython(this.parser, file.text));
    if (!mod) throw new Error(`cannot index ${file.path}`);
    const found = discover(mod);
    this.found.set(mod, found);
    for (const r of found.registrations) if (r.call) this.calls.add(r.call);
    for (const p of found.payloads) this.objects.add(p);
    return mod;
  }

  extract(mod: PyModule): Extracted {
    return this.extractor.extract(mod, this.found.get(mod) ?? discover(mod));
  }
}

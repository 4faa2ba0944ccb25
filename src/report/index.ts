/** Turns a Report into the requested output format. */

import { renderJson } from './json.js';
import { renderText } from './text.js';
import type { Report, ReportFormat } from './types.js';

export type { Report, ReportFormat } from './types.js';

export const REPORT_FORMATS: readonly ReportFormat[] = ['text', 'json', 'sarif', 'junit', 'markdown', 'html'];

type Renderer = (report: Report, options: RenderOptions) => string;

export interface RenderOptions {
  readonly color?: boolean;
}

const RENDERERS: Partial<Record<ReportFormat, Renderer>> = {
  text: (report, options) => renderText(report, options),
  json: (report) => renderJson(report),
};

export function supportedFormats(): ReportFormat[] {
  return REPORT_FORMATS.filter((f) => RENDERERS[f] !== undefined);
}

export function renderReport(report: Report, format: ReportFormat, options: RenderOptions = {}): string {
  const renderer = RENDERERS[format];
  if (!renderer) throw new Error(`no renderer for format ${format}`);
  return renderer(report, options);
}

/**
 * A report's `details` as the document reporters (Markdown, HTML) show them under "Details": an
 * audit's raw responses can run to megabytes (64 KiB per call) and a pull-request comment or job
 * summary has a size limit, so calls are shown with their size but without their text; the JSON
 * report keeps it.
 */

import { isObject } from '../core/json.js';

export function detailsForPeople(details: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { calls, ...rest } = details;
  if (!Array.isArray(calls)) return { ...details };
  return {
    ...rest,
    calls: calls.map((call: unknown) => {
      if (!isObject(call) || !isObject(call.response)) return call;
      const { text: _text, ...response } = call.response;
      return { ...call, response };
    }),
  };
}

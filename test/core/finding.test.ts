/** Counting findings by severity (src/core/finding.ts), which decides exit codes and summaries. */

import { describe, expect, it } from 'vitest';
import { countBySeverity, type Finding, hasErrors, SEVERITIES } from '../../src/core/finding.js';

const finding = (severity: Finding['severity']): Finding => ({
  rule: 'r',
  severity,
  message: 'm',
  pointer: '',
});

describe('findings by severity', () => {
  it('counts each severity', () => {
    expect(countBySeverity([])).toEqual({ error: 0, warning: 0, info: 0 });
    expect(
      countBySeverity([finding('warning'), finding('error'), finding('warning'), finding('info')]),
    ).toEqual({ error: 1, warning: 2, info: 1 });
    expect(SEVERITIES).toEqual(['error', 'warning', 'info']);
  });

  it('has errors only where an error is among them', () => {
    expect(hasErrors([finding('warning'), finding('info')])).toBe(false);
    expect(hasErrors([finding('info'), finding('error')])).toBe(true);
    expect(hasErrors([])).toBe(false);
  });
});

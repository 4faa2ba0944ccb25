/**
 * RFC 3339 date-time with seconds and a `Z` or `±hh:mm` offset: what the official TypeScript SDK accepts
 * for `annotations.lastModified` (`z.iso.datetime({ offset: true })`). Written out here because the core
 * may not depend on zod; test/spec/sdk-agreement.test.ts holds the two to the same verdicts.
 */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

export function isIsoDateTimeWithOffset(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

/** Runs `fn` with globalThis.atob counting its calls: how many times payloads were decoded. */
export function countingAtob<T>(fn: () => T): { readonly value: T; readonly count: number } {
  const calls = { count: 0 };
  const original = globalThis.atob;
  globalThis.atob = (value: string) => {
    calls.count++;
    return original(value);
  };
  try {
    const value = fn();
    return { value, count: calls.count };
  } finally {
    globalThis.atob = original;
  }
}

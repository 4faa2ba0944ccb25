/**
 * System errors (Node's errno codes, and the causes fetch() wraps) in words, for one-line messages:
 * `no such file: x.json`, `connection refused: http://…`. A code nobody would understand is a bug in
 * the message, not the user's problem to look up.
 */

const WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EEXIST: 'already exists',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  ENAMETOOLONG: 'name too long',
  ELOOP: 'too many symbolic links',
  EPIPE: 'broken pipe',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EADDRINUSE: 'address in use',
  EADDRNOTAVAIL: 'address not available',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed TLS certificate in chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not name this host',
};

interface SystemErrorLike {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
}

/** The errno-style code of an error, or of the cause fetch() wraps it in. */
export function systemErrorCode(error: unknown): string | undefined {
  // A truthy value that is no object reads as one without a code or a cause.
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const { code, cause } = e as SystemErrorLike;
    if (typeof code === 'string') return code;
    e = cause;
  }
  return undefined;
}

/**
 * What went wrong, in words: the code's words (`overrides` first, for what a code means in context:
 * ENOENT from spawn is a missing command), else the innermost message (fetch's "bad port" is a port
 * the Fetch standard forbids, said so).
 */
export function systemErrorWords(error: unknown, overrides: Readonly<Record<string, string>> = {}): string {
  const code = systemErrorCode(error);
  if (code !== undefined) return overrides[code] ?? WORDS[code] ?? code;
  let message: string | undefined;
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const m = (e as SystemErrorLike).message;
    if (typeof m === 'string' && m !== '') message = m;
    e = (e as SystemErrorLike).cause;
  }
  if (message === 'bad port') return 'port blocked by fetch (a "bad port" of the Fetch standard)';
  return message ?? String(error);
}

/** Raw stdio servers for `node -e`, a few lines each, for tests that need a server to get one thing wrong. */

/** A server script that runs `answer` for each request `m` it reads (notifications skipped), a line each. */
export function answeringServer(answer: string): string {
  return `
    let rest = '';
    process.stdin.setEncoding('utf8').on('data', (chunk) => {
      const lines = (rest + chunk).split('\\n');
      rest = lines.pop();
      for (const line of lines) {
        const m = JSON.parse(line);
        if (m.id === undefined) continue;
        ${answer}
      }
    });`;
}

import { describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';

/** `--protocol latest` and `--protocol draft` name the newest version; every command's help says so. */
describe('--protocol latest|draft', () => {
  it(
    'is named in the help of every command that takes --protocol',
    async () => {
      for (const command of ['check', 'audit', 'scan', 'repair', 'proxy']) {
        const help = (await runCli([command, '--help'])).stdout.replace(/\s+/g, ' ');
        expect(help, command).toContain('("latest" or "draft": 2026-07-28)');
      }
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'checks under 2026-07-28',
    async () => {
      const input = JSON.stringify({ content: [{ type: 'text', text: 'hi' }] });
      for (const name of ['latest', 'draft']) {
        const run = await runCli(['check', '-', '--protocol', name, '--format', 'json'], { input });
        expect(JSON.parse(run.stdout).summary.protocolVersions, name).toEqual(['2026-07-28']);
      }
    },
    CLI_TEST_TIMEOUT,
  );
});

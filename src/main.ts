import { readFileSync } from 'node:fs';
import { runCli } from './cli.ts';

// The `tms` command on this process: an error, the help or the version ends it at once.
const code = await runCli(process.argv, {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: () => readFileSync(0, 'utf8'),
});
if (code !== undefined) process.exit(code);

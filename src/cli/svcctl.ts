#!/usr/bin/env node
/** `svcctl`: the administration tool; see src/cli/svcctl/ for the commands. */
import { runSvcctl } from './svcctl/index.js';

const code = await runSvcctl(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
process.exitCode = code;

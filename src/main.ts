#!/usr/bin/env node
/** Process entry: `node dist/src/main.js serve [--host] [--port] [--data-dir]`. */
import { svcProgram } from './cli/svc.js';

svcProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    process.stderr.write(`svc: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });

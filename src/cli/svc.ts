#!/usr/bin/env node
/**
 * `svc serve`: runs every role of the service in this process with the embedded defaults
 * (127.0.0.1:9200, data in ./data), or only the roles given by `--roles`; each flag also
 * settable by its SVC_* variable.
 */
import { Command, InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig } from '../config/index.js';
import { startNode } from '../node/index.js';
import { markBuildInUse } from './build-in-use.js';

function portNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('must be an integer from 0 to 65535');
  return n;
}

export function svcProgram(): Command {
  const program = new Command('svc').description('self-hosted log search service with an Elasticsearch-compatible API');
  program
    .command('serve')
    .description('run the service: every role in this process, or those given by --roles')
    .option('--host <host>', 'address to listen on (SVC_HOST, default 127.0.0.1)')
    .option('--port <port>', 'port to listen on (SVC_PORT, default 9200)', portNumber)
    .option('--data-dir <dir>', 'data directory (SVC_DATA_DIR, default ./data)')
    .option('--roles <roles>', 'roles to run, comma separated: api, cache, storage, coordinator (SVC_ROLES, default all four)')
    .action(async (options: { host?: string; port?: number; dataDir?: string; roles?: string }) => {
      let config;
      try {
        config = loadConfig(process.env, options);
      } catch (err) {
        if (err instanceof ConfigError) {
          process.stderr.write(`svc: invalid configuration: ${err.message}\n`);
          process.exit(2);
        }
        throw err;
      }
      markBuildInUse();
      const node = await startNode(config);
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        node.logger.info({ signal }, 'shutting down');
        node.close().then(
          () => process.exit(0),
          (err: unknown) => {
            node.logger.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
    });
  return program;
}

/** The svcctl command line (commander): `svcctl rbac <command>`. */
import { Command, CommanderError } from 'commander';
import { CliError, EXIT_FAILURE, EXIT_USAGE } from './cli-error.js';
import { RbacClient } from './client.js';
import { readSvcctlEnv } from './env.js';
import { createAdmin, createRoleMapping, createScopedKey, type Io } from './rbac-commands.js';

/** Runs svcctl with `args` (without the node and script paths) and returns the exit code. */
export async function runSvcctl(args: string[], env: Record<string, string | undefined>, io: Io): Promise<number> {
  const program = buildProgram(env, io);
  try {
    await program.parseAsync(args, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // asked-for help is not a failure; help shown for a missing command is. Commander already
      // printed its message
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : EXIT_USAGE;
    }
    if (err instanceof CliError) {
      io.err(`svcctl: ${err.message}`);
      return err.exitCode;
    }
    io.err(`svcctl: ${err instanceof Error ? err.message : String(err)}`);
    return EXIT_FAILURE;
  }
}

function buildProgram(env: Record<string, string | undefined>, io: Io): Command {
  const program = new Command('svcctl')
    .description('administer svc; reads SVC_URL (default http://127.0.0.1:9200) and SVC_API_KEY from the environment')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.replace(/\n$/, '')), writeErr: (s) => io.err(s.replace(/\n$/, '')) });
  const client = () => new RbacClient(readSvcctlEnv(env));

  const rbac = program.command('rbac').description('roles, api keys and role mappings').exitOverride();
  rbac
    .command('create-admin')
    .description('create the role `admin` and an api key for it; run with the bootstrap key as SVC_API_KEY')
    .option('--prefix <prefix>', 'key file name prefix', 'svc-admin')
    .option('--dir <dir>', 'directory for the key file', '.')
    .option('--name <name>', 'name of the api key', 'admin')
    .exitOverride()
    .action(async (opts: { prefix: string; dir: string; name: string }) => {
      const settings = readSvcctlEnv(env);
      await createAdmin(new RbacClient(settings), io, { prefix: opts.prefix, dir: opts.dir, keyName: opts.name, url: settings.url });
    });
  rbac
    .command('create-role-mapping')
    .description('map a role name of the identity provider to a service role')
    .argument('<external_role_name>', 'role name as the identity provider writes it')
    .argument('<role_name>', 'service role')
    .exitOverride()
    .action(async (external: string, role: string) => createRoleMapping(client(), io, external, role));
  rbac
    .command('create-read')
    .description('create a role that may read the given index patterns, and an api key for it')
    .argument('<name>', 'name of the role and of its key')
    .argument('<index_pattern...>', 'index names or patterns (`*`, `prefix*`)')
    .exitOverride()
    .action(async (name: string, patterns: string[]) => createScopedKey(client(), io, 'read', name, patterns));
  rbac
    .command('create-write')
    .description('create a role that may write the given index patterns, and an api key for it')
    .argument('<name>', 'name of the role and of its key')
    .argument('<index_pattern...>', 'index names or patterns (`*`, `prefix*`)')
    .exitOverride()
    .action(async (name: string, patterns: string[]) => createScopedKey(client(), io, 'write', name, patterns));
  return program;
}

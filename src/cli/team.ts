/**
 * `sightline team grant|revoke|list`: the callers of a team's servers and
 * their grants, in the team database (`--store` or SIGHTLINE_DATABASE_URL).
 * `serve --store` without --tokens authenticates by them and re-reads them
 * every 2 s, so a revoke takes effect without a restart. Only a token's
 * SHA-256 is stored: a new caller's token is printed once, by `grant`.
 * Exit codes: 0 ok, 2 usage (no store, a bad name), 1 anything else
 * (the database unreachable).
 */
import { Option, type Command } from 'commander';
import type { z } from 'zod';
import { usageError } from '../errors/index.js';
import type { Access, TeamCaller } from '../team/index.js';
import { emit, examples, fail } from './verb.js';

/** What the verbs run, loaded when one runs (the CLI's start path stays light: cli/verb.ts). */
const team = () => import('../team/index.js');
const grants = () => import('../mcp/index.js');

const DATABASE_ENV = 'SIGHTLINE_DATABASE_URL';

interface TeamFlags {
  store?: string;
  json?: boolean;
  caller?: string;
  repo?: string;
  access?: Access;
}

function teamOptions(cmd: Command): Command {
  return cmd
    .option('--store <url>', `the team database, e.g. postgres://user@db:5432/sightline (env ${DATABASE_ENV})`)
    .option('--json', 'one JSON object on stdout');
}

async function databaseOf(o: TeamFlags): Promise<string> {
  const url = o.store ?? process.env[DATABASE_ENV];
  if (!url) throw usageError(`the team verbs need the team database: pass --store postgres://… or set ${DATABASE_ENV}`);
  return (await team()).checkDatabaseUrl(url);
}

function checked(schema: z.ZodString, value: unknown, flag: string): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw usageError(`${flag}: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

async function run(o: TeamFlags, body: (url: string) => Promise<void>): Promise<void> {
  const { closeTeamPools } = await team();
  try {
    await body(await databaseOf(o));
    await closeTeamPools();
  } catch (err) {
    await closeTeamPools().catch(() => {});
    fail(err, o.json);
  }
}

function renderList(answer: { callers: Omit<TeamCaller, 'tokenSha256'>[] }): string {
  if (answer.callers.length === 0) return 'no caller holds a grant yet; add one with `sightline team grant --caller NAME --repo ID --access read`';
  const rows = answer.callers.flatMap((c) => Object.entries(c.grants).map(([repo, access]) => [c.name, repo, access]));
  const table = [['caller', 'repo', 'access'], ...rows];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

export function registerTeam(program: Command): void {
  const verb = program
    .command('team')
    .description('callers of a team\'s servers and their grants, in the team database (serve --store without --tokens reads them)')
    .addHelpText(
      'after',
      examples(
        "sightline team grant --caller ci --repo '*' --access read --store postgres://sightline@db:5432/team",
        'sightline team revoke --caller ci',
        'sightline team list --json',
      ),
    );

  teamOptions(verb.command('grant').description('grant a caller read or write on a repository id or *; a new caller gets a fresh token, printed once'))
    .requiredOption('--caller <name>', 'the caller\'s name (1-64 letters, digits, ".", "_", "@" or "-")')
    .requiredOption('--repo <id>', "a repository id, or '*' for every repository")
    .addOption(new Option('--access <grant>', 'read: the read-only tools; write: the mutating tools too').choices(['read', 'write']).makeOptionMandatory())
    .addHelpText('after', examples("sightline team grant --caller alice --repo api --access write", "sightline team grant --caller ci --repo '*' --access read --json"))
    .action((o: TeamFlags) =>
      run(o, async (url) => {
        const { CallerName, fingerprint, GrantKey, mintToken } = await grants();
        const caller = checked(CallerName, o.caller, '--caller');
        const repo = checked(GrantKey, o.repo, '--repo');
        const token = mintToken();
        const { created } = await (await team()).grantAccess(url, caller, repo, o.access!, fingerprint(token));
        const answer = { status: 'ok' as const, caller, repo, access: o.access!, created, ...(created ? { token } : {}) };
        emit(o, answer, (a) =>
          a.created
            ? `granted ${a.access} on ${a.repo} to the new caller ${a.caller}; its token, shown this once (only its SHA-256 is kept):\n${a.token}`
            : `granted ${a.access} on ${a.repo} to ${a.caller} (its token is unchanged)`,
        );
      }),
    );

  teamOptions(verb.command('revoke').description('take back a caller\'s grant on one repository, or with no --repo the caller and its token'))
    .requiredOption('--caller <name>', 'the caller\'s name')
    .option('--repo <id>', "the repository id or '*' whose grant to take back (default: every grant, and the token)")
    .addHelpText('after', examples('sightline team revoke --caller ci', 'sightline team revoke --caller alice --repo api --json'))
    .action((o: TeamFlags) =>
      run(o, async (url) => {
        const { CallerName, GrantKey } = await grants();
        const caller = checked(CallerName, o.caller, '--caller');
        const repo = o.repo === undefined ? undefined : checked(GrantKey, o.repo, '--repo');
        const result = await (await team()).revokeAccess(url, caller, repo);
        emit(o, { status: 'ok' as const, caller, repo: repo ?? null, ...result }, (a) =>
          a.caller_removed ? `revoked ${a.caller}: its token opens nothing now (servers stop accepting it within seconds)` : `revoked ${a.caller}'s grant on ${a.repo} (${a.revoked} grant)`,
        );
      }),
    );

  teamOptions(verb.command('list').description('every caller and its grants (never a token)'))
    .addHelpText('after', examples('sightline team list', 'sightline team list --json'))
    .action((o: TeamFlags) =>
      run(o, async (url) => {
        const callers = (await (await team()).listCallers(url)).map(({ name, grants }) => ({ name, grants }));
        emit(o, { status: 'ok' as const, count: callers.length, callers }, renderList);
      }),
    );
}

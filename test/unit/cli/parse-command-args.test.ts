// The operators' commands read their arguments one way (node:util parseArgs, checked in cli-context.ts): every form
// they accept, and every refusal, which names the option and never repeats a value (it may be a mistyped secret).
import { describe, expect, it } from 'vitest';
import { type ArgSpec, parseCommandArgs } from '../../../src/cli/cli-context.ts';

const SPEC: ArgSpec = { values: ['shop', 'access-token'], lists: ['credited'], flags: ['json'], positionals: 1 };
const USAGE = 'usage: test';
const SECRET = 'shpat_0123456789abcdef0123456789abcdef';
const parse = (...args: string[]) => parseCommandArgs(args, SPEC, USAGE);

/** The error's message, which must not contain the secret. */
function refusal(...args: string[]): string {
  try {
    parse(...args);
  } catch (error) {
    const message = (error as Error).message;
    expect(message).not.toContain(SECRET);
    return message;
  }
  throw new Error(`accepted: ${JSON.stringify(args)}`);
}

describe('parseCommandArgs', () => {
  it('reads --name value, --name=value, flags, repeated lists and positionals', () => {
    expect(parse('id-1', '--shop', 'a.myshopify.com', '--access-token=-', '--json', '--credited', 'a.json', '--credited=b.json')).toEqual({
      values: { shop: 'a.myshopify.com', 'access-token': '-' },
      lists: { credited: ['a.json', 'b.json'] },
      flags: new Set(['json']),
      positionals: ['id-1'],
    });
    // A value may start with a dash, and '-' alone is a positional (stdin).
    expect(parse('--shop', '-5').values).toEqual({ shop: '-5' });
    expect(parse('-').positionals).toEqual(['-']);
    expect(parse('--shop=--json').values).toEqual({ shop: '--json' });
    expect(parse()).toEqual({ values: {}, lists: {}, flags: new Set(), positionals: [] });
  });

  it('refuses, naming the option and never the value', () => {
    expect(refusal('--acces-token', SECRET)).toBe(`unknown option --acces-token (${USAGE})`);
    expect(refusal(`--acces-token=${SECRET}`)).toBe(`unknown option --acces-token (${USAGE})`);
    // Not an option's name: it may be the secret itself.
    expect(refusal(`--${SECRET}`)).toBe(`unknown option (${USAGE})`);
    expect(refusal(`-${SECRET}`)).toBe(`unknown option (${USAGE})`);
    expect(refusal('--Shop', 'x')).toBe(`unknown option (${USAGE})`);
    expect(refusal('--', SECRET)).toBe(`unknown option (${USAGE})`);
    expect(refusal('--shop')).toBe(`--shop needs a value (${USAGE})`);
    expect(refusal('--shop', '--json')).toBe(`--shop needs a value (${USAGE})`);
    expect(refusal('--access-token', SECRET, '--access-token', SECRET)).toBe('--access-token given twice');
    expect(refusal(`--json=${SECRET}`)).toBe(`--json takes no value (${USAGE})`);
    expect(refusal('id-1', SECRET)).toBe(`unexpected argument (${USAGE})`);
  });
});

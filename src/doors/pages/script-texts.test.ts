import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { proposalSchema } from '../../modules/approvals/index.ts';
import { EXCEPTION_KINDS, ROUTE_STATUSES, STOP_STATUSES } from '../../modules/dispatch/index.ts';
import { LANGUAGES } from '../../platform/i18n/index.ts';
import { SCRIPT_TEXTS } from './script-texts.ts';

// Every word a page script looks up with `text(key, ...)` is among the words its page sends it, in
// each of the six languages, read from the scripts themselves: a script that asks for a word its
// page does not have shows a gap instead of the page (the dispatch console once threw on every
// load once a stop was late).

const SCRIPTS = path.join(import.meta.dirname, 'browser');

/**
 * The lookups by a value of the data rather than by a literal key, by the expression the script
 * passes: the values that expression takes, from the schemas that answer them.
 */
const LOOKED_UP_BY_VALUE: Record<string, readonly string[]> = {
  'stop.state': STOP_STATUSES,
  'route.status': ROUTE_STATUSES,
  // The console lists the orders on no route apart, by their reference.
  'exception.kind': EXCEPTION_KINDS.filter((kind) => kind !== 'order_unplanned'),
  'proposed.status': proposalSchema.shape.status.options,
  'decided.status': proposalSchema.shape.status.options,
};

type Lookup = { key: string } | { expression: string };

/** The first argument of each `text(...)` call in a script: a literal key, or an expression. */
function lookupsOf(source: string): Lookup[] {
  return [...source.matchAll(/(?<![\w$.])text\(\s*([^,)]+)/g)].map((match) => {
    const argument = match[1]!.trim();
    const literal = /^(['"`])([^'"`]*)\1$/.exec(argument);
    return literal ? { key: literal[2]! } : { expression: argument };
  });
}

/** The keys a script's lookups can ask for; an expression of unknown values is named as a problem. */
function keysOf(lookups: Lookup[]): { keys: Set<string>; unknown: string[] } {
  const keys = new Set<string>();
  const unknown: string[] = [];
  for (const lookup of lookups) {
    if ('key' in lookup) keys.add(lookup.key);
    else if (lookup.expression in LOOKED_UP_BY_VALUE) {
      for (const value of LOOKED_UP_BY_VALUE[lookup.expression]!) keys.add(value);
    } else unknown.push(lookup.expression);
  }
  return { keys, unknown };
}

/** The words a script is sent, by language; undefined for a script SCRIPT_TEXTS does not name. */
const catalogOf = (script: string): Readonly<Record<string, Readonly<Record<string, string>>>> | undefined =>
  Object.hasOwn(SCRIPT_TEXTS, script) ? SCRIPT_TEXTS[script as keyof typeof SCRIPT_TEXTS] : undefined;

const placeholders = (words: string) => [...words.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

const scripts = readdirSync(SCRIPTS)
  .filter((file) => file.endsWith('.js'))
  .map((file) => ({
    name: path.basename(file, '.js'),
    source: readFileSync(path.join(SCRIPTS, file), 'utf8'),
  }));

describe("page scripts' words", () => {
  it('finds the lookups of a script, by key and by value', () => {
    assert.deepEqual(lookupsOf("element('li', text('noRoutes'), 'meta');\ntext(\n  'stops', { done: 1 });"), [
      { key: 'noRoutes' },
      { key: 'stops' },
    ]);
    assert.deepEqual(lookupsOf('text(stop.state); this.text(x); context(y); const text = (key) => key;'), [
      { expression: 'stop.state' },
    ]);
    assert.deepEqual(keysOf([{ expression: 'route.status' }, { expression: 'other.value' }]), {
      keys: new Set(ROUTE_STATUSES),
      unknown: ['other.value'],
    });
  });

  for (const { name, source } of scripts) {
    const lookups = lookupsOf(source);
    if (lookups.length === 0) continue;
    it(`browser/${name}.js finds every word it looks up, in all six languages`, () => {
      const catalog = catalogOf(name);
      assert.ok(
        catalog,
        `browser/${name}.js writes words: name them for it in SCRIPT_TEXTS (script-texts.ts)`,
      );
      const { keys, unknown } = keysOf(lookups);
      assert.deepEqual(unknown, [], 'lookups by a value: say in LOOKED_UP_BY_VALUE which values each takes');
      const missing = LANGUAGES.flatMap((lang) =>
        [...keys].filter((key) => typeof catalog[lang]?.[key] !== 'string').map((key) => `${lang} ${key}`),
      );
      assert.deepEqual(missing, [], `words browser/${name}.js asks for that its page does not send`);
    });
  }

  it('fills the same placeholders in every language of a script', () => {
    const differing: string[] = [];
    for (const script of Object.keys(SCRIPT_TEXTS)) {
      const catalog = catalogOf(script)!;
      for (const [key, english] of Object.entries(catalog.en!)) {
        for (const lang of LANGUAGES) {
          const words = catalog[lang]?.[key] ?? '';
          if (placeholders(words).join() !== placeholders(english).join()) {
            differing.push(`${script} ${lang} ${key}`);
          }
        }
      }
    }
    assert.deepEqual(differing, []);
  });
});

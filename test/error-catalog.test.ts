import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ERROR_CODES, ERROR_STATUS } from '../src/platform/errors.ts';
import { errorMessageCatalogs, LANGUAGES } from '../src/platform/i18n/index.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries
    .filter((entry) => entry.endsWith('.ts') && !entry.endsWith('.test.ts'))
    .map((e) => path.join(dir, e));
}

describe('the error catalog', () => {
  it('is documented in docs/errors.md with the same statuses, and nothing more', async () => {
    const doc = await readFile('docs/errors.md', 'utf8');
    const rows = [...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]);
    assert.deepEqual(
      Object.fromEntries(rows),
      Object.fromEntries(ERROR_CODES.map((code) => [code, ERROR_STATUS[code]])),
    );
  });

  it('is translated into every language, keeping each placeholder', () => {
    const catalogs = errorMessageCatalogs();
    for (const lang of LANGUAGES) {
      for (const code of ERROR_CODES) {
        const message = catalogs[lang][code];
        assert.ok(message && message.trim().length > 0, `${lang} ${code} is empty`);
        assert.deepEqual(
          placeholders(message),
          placeholders(catalogs.en[code]),
          `${lang} ${code} placeholders`,
        );
        if (lang !== 'en') assert.notEqual(message, catalogs.en[code], `${lang} ${code} is not translated`);
      }
    }
  });

  it('has no code that the code never raises', async () => {
    const files = (await sourceFiles('src')).filter(
      (file) =>
        !file.endsWith(path.join('platform', 'errors.ts')) && !file.includes(path.join('i18n', 'messages')),
    );
    const source = (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n');
    // Raised only through the helper beside its declaration (platform/errors.ts, featureDisabled),
    // which the accounts module's feature gate calls for order chat and the AI agent.
    const ready = ['FEATURE_DISABLED'];
    const unused = ERROR_CODES.filter((code) => !ready.includes(code) && !source.includes(`'${code}'`));
    assert.deepEqual(unused, []);
  });
});

// The web app's dictionaries (Public/assets/i18n): the base one per language (de.js, en.js) and the
// bundles a page loads with loadStrings(name) (name.de.js, name.en.js). German and English must
// say the same things: the same keys, the same plural forms, the same placeholders. A key lives in
// one file only (loadStrings merges bundles into the base dictionary, a repeated key would
// silently replace the other), and every key the code names literally exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PUBLIC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'Public');
const I18N = join(PUBLIC, 'assets', 'i18n');

async function dictionaries(lang) {
  const files = readdirSync(I18N).filter((name) => name === `${lang}.js` || name.endsWith(`.${lang}.js`));
  const loaded = await Promise.all(files.map(async (name) =>
    [name, (await import(pathToFileURL(join(I18N, name)))).default]));
  return new Map(loaded);
}

const placeholders = (value) => {
  const texts = typeof value === 'string' ? [value] : Object.values(value);
  return [...new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();
};
const shape = (value) => (typeof value === 'string' ? 'text' : Object.keys(value).sort().join(','));

test('every German file has an English twin with the same keys, plural forms and placeholders', async () => {
  const de = await dictionaries('de');
  const en = await dictionaries('en');
  assert.deepEqual([...en.keys()].map((n) => n.replace(/en\.js$/, '')).sort(),
    [...de.keys()].map((n) => n.replace(/de\.js$/, '')).sort());
  for (const [name, german] of de) {
    const english = en.get(name.replace(/de\.js$/, 'en.js'));
    assert.deepEqual(Object.keys(english).sort(), Object.keys(german).sort(), `${name}: keys`);
    for (const [key, value] of Object.entries(german)) {
      // A word the same in singular and plural ("Stapel") is a text in one language and plural
      // forms in the other; where both have forms, they are the same ones.
      if (typeof value !== 'string' && typeof english[key] !== 'string') {
        assert.equal(shape(english[key]), shape(value), `${name} ${key}: plural forms`);
      }
      assert.deepEqual(placeholders(english[key]), placeholders(value), `${name} ${key}: placeholders`);
    }
  }
});

test('a key lives in one file of a language', async () => {
  for (const lang of ['de', 'en']) {
    const seen = new Map();
    for (const [name, dict] of await dictionaries(lang)) {
      for (const key of Object.keys(dict)) {
        assert.ok(!seen.has(key), `${key} is in ${seen.get(key)} and ${name}`);
        seen.set(key, name);
      }
    }
  }
});

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.js') ? [path] : [];
  });
}

test('every key the code names literally, t(\'…\'), is in a German file', async () => {
  const known = new Set([...(await dictionaries('de')).values()].flatMap((dict) => Object.keys(dict)));
  const missing = [];
  for (const file of [...sources(join(PUBLIC, 'assets', 'js')), ...sources(join(PUBLIC, 'assets', 'components'))]) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bt\('([\w.-]+)'/g)) {
      if (!known.has(match[1])) missing.push(`${file.slice(PUBLIC.length)}: ${match[1]}`);
    }
  }
  assert.deepEqual(missing, []);
});

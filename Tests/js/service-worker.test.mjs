// sw.js keeps the app shell for offline use: every file under Public/ a page or module can load is
// in its SHELL list (or left out here, with the reason), and every listed file exists. The cache
// name is not kept by hand: the server names it after a hash of the listed files
// (ServiceWorkerScript, tested in Tests/FlashcardsServerTests/ServiceWorkerTests.swift).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { espree } from '../../scripts/js-lint.mjs';

const PUBLIC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'Public');
const source = readFileSync(join(PUBLIC, 'sw.js'), 'utf8');

/** Files the worker does not keep, and why. */
const LEFT_OUT = {
  '/sw.js': 'the worker itself',
  '/index.html': 'kept as "/"',
  '/openapi.json': 'the API description, no page loads it',
  '/assets/icons/icon-512.png': 'install icons: the browser fetches them when the app is installed',
  '/assets/icons/icon-maskable-192.png': 'install icon',
  '/assets/icons/icon-maskable-512.png': 'install icon',
};

function shellFromSyntax() {
  const ast = espree.parse(source, { ecmaVersion: 'latest', sourceType: 'script' });
  for (const node of ast.body) {
    if (node.type !== 'VariableDeclaration') continue;
    const declarator = node.declarations.find((d) => d.id.name === 'SHELL');
    if (declarator) return declarator.init.elements.map((e) => e.value);
  }
  throw new Error('no SHELL in sw.js');
}

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : ['/' + relative(PUBLIC, path).split(sep).join('/')];
  });
}

test('every served file is in the service worker\'s list, or left out for a reason', () => {
  const listed = new Set(shellFromSyntax().map((path) => (path === '/' ? '/index.html' : path)));
  const missing = files(PUBLIC).filter((path) => !listed.has(path) && !(path in LEFT_OUT));
  assert.deepEqual(missing, [], 'add these to SHELL in Public/sw.js (or to LEFT_OUT here, with the reason)');
});

test('every listed file exists, once', () => {
  const shell = shellFromSyntax();
  assert.deepEqual(shell.filter((path) => !existsSync(join(PUBLIC, path === '/' ? 'index.html' : path))), []);
  assert.deepEqual(shell.filter((path, i) => shell.indexOf(path) !== i), [], 'listed twice');
  for (const path of Object.keys(LEFT_OUT)) assert.ok(existsSync(join(PUBLIC, path)), `${path} is left out but gone`);
});

test('the server reads the same list (quoted paths between "const SHELL = [" and "];") and can name the cache', () => {
  const start = source.indexOf('const SHELL = [') + 'const SHELL = ['.length;
  const body = source.slice(start, source.indexOf('];', start));
  const asServerReads = body.split("'").filter((_, i) => i % 2 === 1);
  assert.deepEqual(asServerReads, shellFromSyntax());
  assert.match(source, /^const CACHE = '[^']*';$/m);
});

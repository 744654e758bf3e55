// The JS lint's own tests: fixture files that must pass or fail, under `node --test Tests/js/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lintSource, lintTree, checkLengths, shrinkAllowlist } from '../../scripts/js-lint.mjs';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'lint');
const lint = (name, options = {}) => lintSource(readFileSync(join(fixtures, name), 'utf8'), { file: name, ...options });
const messages = (result) => result.findings.map((f) => `${f.line}: ${f.rule}: ${f.message}`);

test('a clean module passes (parameters before a used one, "_" names, rest siblings, typeof checks)', () => {
  assert.deepEqual(messages(lint('clean.js')), []);
});

test('undeclared names fail, and so does a parameter nothing reads', () => {
  assert.deepEqual(messages(lint('undeclared.js')), [
    "3: undeclared: 'itmes' is not declared",
    "3: undeclared: 'process' is not declared",
    "2: unused: parameter 'items' is never used",
  ]);
});

test('unused imports, variables, functions, classes and trailing parameters fail', () => {
  assert.deepEqual(messages(lint('unused.js')), [
    "2: unused: import 'other' is never used",
    "4: unused: variable 'unusedConstant' is never used",
    "5: unused: variable 'writtenOnly' is never used",
    "8: unused: function 'neverCalled' is never used",
    "12: unused: class 'Lonely' is never used",
    "14: unused: parameter 'c' is never used",
  ]);
});

test('a classic script resolves its top-level names; a worker has worker globals and no document', () => {
  assert.deepEqual(messages(lint('classic.js', { script: true })), []);
  assert.deepEqual(messages(lint('worker.js', { script: true, worker: true })), ["4: undeclared: 'document' is not declared"]);
  assert.deepEqual(messages(lint('worker.js', { script: true })).length, 2, 'skipWaiting and clients are not window globals');
});

test('a syntax error is a finding', () => {
  assert.deepEqual(lintSource('let = ;', { file: 'x.js' }).findings.map((f) => f.rule), ['parse']);
});

test('functions are measured by their body lines, nested closures included', () => {
  const { functions } = lint('long.js');
  assert.deepEqual(functions.map((f) => [f.name, f.lines]), [['long', 81], ['short', 80]]);
  const files = [{ file: 'long.js', functions }];
  assert.deepEqual(checkLengths(files, {}).map((f) => f.message), ["function 'long' has 81 lines (at most 80)"]);
});

test('the allowlist can only shrink: a grown, shorter or gone function fails', () => {
  const files = [{ file: 'long.js', functions: [{ name: 'long', line: 2, lines: 81 }, { name: 'short', line: 84, lines: 80 }] }];
  assert.deepEqual(checkLengths(files, { 'long.js': { long: 81 } }), []);
  assert.match(checkLengths(files, { 'long.js': { long: 80 } })[0].message, /more than the 80 it is allowed/);
  assert.match(checkLengths(files, { 'long.js': { long: 90 } })[0].message, /lower its allowlist entry/);
  assert.match(checkLengths(files, { 'long.js': { long: 81, short: 85 } })[0].message, /'short' is 80 lines now: remove/);
  assert.match(checkLengths(files, { 'long.js': { long: 81 }, 'gone.js': { mount: 120 } })[0].message, /'mount' is gone/);
  assert.deepEqual(shrinkAllowlist(files, { 'long.js': { long: 90, short: 85 }, 'gone.js': { mount: 1 } }), { 'long.js': { long: 81 } });
});

test('the module graph: unused exports, missing modules and missing names', () => {
  const { findings } = lintTree(join(fixtures, 'graph'));
  assert.deepEqual(findings.map((f) => `${f.file}:${f.line}: ${f.rule}: ${f.message}`), [
    "main.js:1: missing-export: './sub/lib.js' does not export 'missing'",
    "main.js:2: missing-module: './nowhere.js' does not exist",
    "sub/lib.js:5: unused-export: export 'orphan' is imported nowhere",
  ]);
});

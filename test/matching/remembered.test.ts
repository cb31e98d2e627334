import { test } from 'node:test';
import assert from 'node:assert/strict';
import { remembering } from '../../src/matching/remembered.js';

test('a remembered function computes each text once, and starts again when its memory is full', () => {
  const computed: string[] = [];
  const upper = remembering((text) => {
    computed.push(text);
    return text.length > 1 ? text.toUpperCase() : null;
  }, 3);
  assert.equal(upper('ab'), 'AB');
  assert.equal(upper('ab'), 'AB');
  assert.equal(upper('x'), null);
  assert.equal(upper('x'), null, 'a null answer is remembered too');
  assert.deepEqual(computed, ['ab', 'x']);
  upper('cd');
  upper('ef'); // the fourth text: the memory held three, so it was cleared first
  assert.equal(upper('ab'), 'AB');
  assert.deepEqual(computed, ['ab', 'x', 'cd', 'ef', 'ab']);
  assert.equal(upper('ef'), 'EF');
  assert.deepEqual(computed, ['ab', 'x', 'cd', 'ef', 'ab'], 'texts since the clearing are remembered');
});

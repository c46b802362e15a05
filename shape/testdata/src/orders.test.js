// 2000 checks under node's own test runner; one fails on purpose.
'use strict';
const test = require('node:test');
const assert = require('node:assert');

function total(qty, price) {
  return qty * price;
}

for (let i = 0; i < 2000; i++) {
  test(`total of order ${i}`, () => {
    const want = i === 1999 - 613 ? i * 3 + 1 : i * 3;
    assert.strictEqual(total(i, 3), want);
  });
}

// A script that prints progress and then fails parsing a settings string
// inside Array.prototype.map.
'use strict';

function loadOrders(n) {
  const orders = [];
  for (let i = 0; i < n; i++) {
    orders.push({ id: i, total: i * 1.25 });
    console.log(`loaded order ${String(i).padStart(4)} total=${(i * 1.25).toFixed(2)}`);
  }
  return orders;
}

function parseSettings(texts) {
  return texts.map((t) => JSON.parse(t));
}

loadOrders(3000);
console.log(parseSettings(['{"retries": 3}', "{'retries': 3}"]));

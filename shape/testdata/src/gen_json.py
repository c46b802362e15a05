"""Writes a JSON document of several MB: an export of orders with nested
customers, lines and tags, made from a seeded generator."""
import json
import random
import sys

rng = random.Random(7)
orders = []
for i in range(9000):
    orders.append({
        "id": i + 1,
        "status": rng.choice(["paid", "shipped", "refunded", "pending"]),
        "customer": {"id": rng.randrange(1, 3000), "name": f"Customer {rng.randrange(1, 3000)}",
                     "email": None if i % 7 == 0 else f"c{i}@example.test"},
        "lines": [{"sku": f"SKU-{rng.randrange(1000, 9999)}", "qty": rng.randrange(1, 5),
                   "price": round(rng.random() * 100, 2)} for _ in range(rng.randrange(1, 5))],
        "tags": rng.sample(["gift", "express", "fragile", "bulk", "promo"], rng.randrange(0, 3)),
        "paid": i % 4 != 3,
    })
doc = {"export": {"shop": "demo", "version": "2.4.1", "generated": "2026-01-01T00:00:00Z"}, "orders": orders}
json.dump(doc, open(sys.argv[1], "w"), indent=2)

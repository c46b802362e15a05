"""A server simulation that logs 100,000 lines through the logging module:
requests served, a few warnings, and a few errors with their tracebacks.
Timestamps and durations come from a seeded generator, so every run
prints the same log."""
import logging
import random
import sys
import time

rng = random.Random(22)
clock = [1767225600.0]  # 2026-01-01 00:00:00 UTC


class Formatter(logging.Formatter):
    converter = time.gmtime

    def formatTime(self, record, datefmt=None):
        return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(clock[0])) + ",%03d" % (int(clock[0] * 1000) % 1000)


handler = logging.StreamHandler(sys.stderr)
handler.setFormatter(Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
log = logging.getLogger("shop.http")
log.addHandler(handler)
log.setLevel(logging.INFO)
db = logging.getLogger("shop.db")


def lookup(order_id):
    if order_id % 25013 == 0:
        raise KeyError(f"order {order_id} not found in cache")
    return order_id


paths = ["/orders", "/orders/{}", "/customers/{}", "/cart", "/checkout", "/health"]
for n in range(1, 100001):
    clock[0] += rng.random() * 0.05
    path = rng.choice(paths).format(rng.randrange(1, 10000))
    ms = rng.randrange(1, 120)
    if n % 9973 == 0:
        log.warning("slow request %s took %d ms (over 1000 ms budget)", path, ms * 40)
    elif n % 25013 == 0:
        try:
            lookup(n)
        except KeyError:
            log.exception("request %s failed", path)
    elif n % 33331 == 0:
        db.error("connection to db-2 refused; retrying in 5 s")
    else:
        log.info("GET %s 200 %d ms req=%06d", path, ms, n)

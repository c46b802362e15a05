"""2000 catalog checks under unittest; one fails and one errors on purpose."""
import unittest


def slug(name):
    return name.lower().replace(" ", "-")


class CatalogTest(unittest.TestCase):
    pass


def make(i):
    def test(self):
        if i == 1234:
            self.assertEqual(slug(f"Item {i}"), f"item_{i}")
        if i == 1500:
            {}["missing"]
        self.assertEqual(slug(f"Item {i}"), f"item-{i}")
    return test


for i in range(2000):
    setattr(CatalogTest, f"test_slug_{i:04d}", make(i))

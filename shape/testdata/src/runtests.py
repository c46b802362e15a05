#!/usr/bin/env python3
"""The project's test runner, in the style of Django's runtests.py."""
import sys
import unittest

if __name__ == "__main__":
    suite = unittest.defaultTestLoader.discover(".", pattern="test_catalog.py")
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(not result.wasSuccessful())

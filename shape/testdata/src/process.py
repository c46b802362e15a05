"""A script that processes records and then fails on bad input: the
traceback runs through the project's own modules and the standard
library's json."""
import json
import sys

from records import load_all


def main():
    records = load_all(3000)
    for r in records:
        print(f"processed record {r['id']:5d}: {r['name']} total={r['total']:.2f}")
    print("loading the settings file", file=sys.stderr)
    settings = parse_settings("{'retries': 3}")
    print(settings)


def parse_settings(text):
    return json.loads(text)


if __name__ == "__main__":
    main()

"""Records for process.py, made up here."""


def load_all(n):
    return [{"id": i, "name": f"item-{i % 97}", "total": i * 1.25} for i in range(n)]

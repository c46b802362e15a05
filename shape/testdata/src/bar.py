"""Draws download progress bars with carriage returns, as download tools
do on a terminal, for three files, then a summary."""
import sys

files = [("dataset-a.tar", 48_000_000), ("dataset-b.tar", 96_000_000), ("weights.bin", 24_000_000)]
for name, size in files:
    steps = 2000
    for i in range(steps + 1):
        done = size * i // steps
        pct = 100 * i // steps
        bar = "#" * (pct // 4) + "-" * (25 - pct // 4)
        sys.stdout.write(f"\r{name:14} [{bar}] {pct:3d}% {done / 1e6:7.1f}/{size / 1e6:.1f} MB")
    sys.stdout.write("\n")
print(f"downloaded {len(files)} files, {sum(s for _, s in files) / 1e6:.1f} MB")

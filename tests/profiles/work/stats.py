# The python profile's workload (tests/profiles/run.sh): statistics of the
# CSV in the input slot, written to the output slot as JSON and as a CSV
# summary per region. Standard library only, as a data-analysis script of
# the seeds would be: csv, statistics, json, plus a thread pool to sum the
# columns in parallel (the profile allows threads).
import csv
import json
import statistics
from concurrent.futures import ThreadPoolExecutor

with open("/input/data.csv", newline="") as f:
    rows = list(csv.DictReader(f))

units = [int(r["units"]) for r in rows]
cents = [round(float(r["price"]) * 100) for r in rows]


def describe(values):
    return {
        "sum": sum(values),
        "min": min(values),
        "max": max(values),
        "mean": statistics.mean(values),
        "median": statistics.median(values),
    }


with ThreadPoolExecutor(max_workers=2) as pool:
    d_units, d_cents = pool.map(describe, [units, cents])

regions = {}
for r in rows:
    g = regions.setdefault(r["region"], {"rows": 0, "units": 0})
    g["rows"] += 1
    g["units"] += int(r["units"])

with open("/output/stats.json", "w") as f:
    json.dump({"rows": len(rows), "units": d_units, "price_cents": d_cents,
               "by_region": regions}, f, sort_keys=True)

with open("/output/regions.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["region", "rows", "units"])
    for name in sorted(regions):
        w.writerow([name, regions[name]["rows"], regions[name]["units"]])

print("rows", len(rows))

# The python profile's second workload (tests/profiles/run.sh): the stack a
# code interpreter is asked to use, as Debian packages it (python3-numpy,
# -pandas, -scipy, -matplotlib). pandas groups the CSV of the first workload
# by region; numpy and scipy fit a line to a series and compute two numbers
# whose value the host knows; matplotlib draws both to a PNG of 800x450
# pixels in the output slot, which the caller exports with --export-dir.
# The host checks the numbers with awk and the PNG with its own reader.
import json
import math

import matplotlib

matplotlib.use("Agg")  # no display in a sandbox: draw to files only
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from scipy import integrate, optimize, stats  # noqa: E402

# pandas: rows, units and the mean price per region.
sales = pd.read_csv("/input/data.csv")
g = sales.groupby("region").agg(rows=("id", "count"), units=("units", "sum"),
                                price_mean=("price", "mean"))
by_region = {name: {"rows": int(r.rows), "units": int(r.units),
                    "price_mean": float(r.price_mean)}
             for name, r in g.iterrows()}

# numpy: the series' moments and a least-squares line (LAPACK).
xy = np.loadtxt("/input/series.csv", delimiter=",", skiprows=1)
x, y = xy[:, 0], xy[:, 1]
slope_np, intercept_np = np.polyfit(x, y, 1)

# scipy: the same line with its correlation; a quadrature and a root.
fit = stats.linregress(x, y)
gauss, _err = integrate.quad(lambda t: math.exp(-t * t), -np.inf, np.inf)
dottie = optimize.brentq(lambda t: math.cos(t) - t, 0.0, 1.0, xtol=1e-15)

result = {
    "by_region": by_region,
    "series": {
        "n": int(x.size),
        "mean_x": float(x.mean()), "mean_y": float(y.mean()),
        "std_y": float(y.std()),
        "polyfit": [float(slope_np), float(intercept_np)],
        "linregress": [float(fit.slope), float(fit.intercept),
                       float(fit.rvalue)],
    },
    "gauss": gauss,
    "dottie": dottie,
}
with open("/output/analysis.json", "w") as f:
    json.dump(result, f, sort_keys=True)

# matplotlib: the series with its fit, and units per region, 8x4.5 inches
# at 100 dpi (the size is exact: no tight bounding box).
fig, (left, right) = plt.subplots(1, 2, figsize=(8, 4.5), dpi=100)
left.scatter(x, y, s=4, color="tab:blue")
left.plot(x, fit.slope * x + fit.intercept, color="tab:red")
left.set_title("series")
right.bar(list(by_region), [v["units"] for v in by_region.values()],
          color="tab:green")
right.set_title("units by region")
fig.savefig("/output/chart.png", dpi=100)

print("charted", x.size, "points")

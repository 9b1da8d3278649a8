# SPDX-License-Identifier: MIT
"""ward_build: the PEP 517 build backend of the ward client, standard
library only, so that `pip install ./examples/python` needs no index.

It builds a pure-Python wheel of the packages next to pyproject.toml (the
directories that hold an __init__.py), with the metadata and console
scripts pyproject.toml's [project] table gives, and an sdist of the
project's files. It reads only what this project uses of [project]: name,
version, description, readme, requires-python, license.text, scripts.
"""

import base64
import hashlib
import io
import os
import tarfile
import tomllib
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WHEEL_TAG = "py3-none-any"


def _project():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _dist_name(project):
    return project["name"].replace("-", "_")


def _packages():
    return sorted(d for d in os.listdir(ROOT)
                  if os.path.isfile(os.path.join(ROOT, d, "__init__.py")))


def _package_files():
    """(path in the wheel, path on disk), sorted: reproducible wheels."""
    out = []
    for pkg in _packages():
        for base, dirs, files in os.walk(os.path.join(ROOT, pkg)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith((".pyc", ".pyo")):
                    continue
                disk = os.path.join(base, name)
                out.append((os.path.relpath(disk, ROOT).replace(os.sep, "/"),
                            disk))
    return out


def _metadata(project):
    lines = ["Metadata-Version: 2.1",
             "Name: " + project["name"],
             "Version: " + project["version"]]
    if project.get("description"):
        lines.append("Summary: " + project["description"])
    if project.get("requires-python"):
        lines.append("Requires-Python: " + project["requires-python"])
    if project.get("license", {}).get("text"):
        lines.append("License: " + project["license"]["text"])
    body = ""
    if project.get("readme"):
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(ROOT, project["readme"]),
                  encoding="utf-8") as f:
            body = "\n" + f.read()
    return "\n".join(lines) + "\n" + body


def _entry_points(project):
    scripts = project.get("scripts") or {}
    if not scripts:
        return None
    return "[console_scripts]\n" + "".join(
        "%s = %s\n" % (k, v) for k, v in sorted(scripts.items()))


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return "%s,sha256=%s,%d" % (path, digest.rstrip(b"=").decode(),
                               len(data))


def _write_wheel(wheel_directory, files):
    project = _project()
    name = "%s-%s" % (_dist_name(project), project["version"])
    info = name + ".dist-info"
    meta = {
        info + "/METADATA": _metadata(project).encode(),
        info + "/WHEEL": ("Wheel-Version: 1.0\nGenerator: ward_build\n"
                          "Root-Is-Purelib: true\nTag: %s\n"
                          % WHEEL_TAG).encode(),
        info + "/top_level.txt": "".join(
            p + "\n" for p in _packages()).encode(),
    }
    ep = _entry_points(project)
    if ep:
        meta[info + "/entry_points.txt"] = ep.encode()
    wheel = "%s-%s.whl" % (name, WHEEL_TAG)
    record = []
    path = os.path.join(wheel_directory, wheel)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for arc, data in list(files) + sorted(meta.items()):
            zi = zipfile.ZipInfo(arc, date_time=(1980, 1, 1, 0, 0, 0))
            zi.external_attr = 0o644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
            record.append(_record_line(arc, data))
        record.append(info + "/RECORD,,")
        zi = zipfile.ZipInfo(info + "/RECORD", date_time=(1980, 1, 1, 0, 0, 0))
        zi.external_attr = 0o644 << 16
        z.writestr(zi, "\n".join(record) + "\n")
    return wheel


# ------------------------------------------------------------ PEP 517

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    files = []
    for arc, disk in _package_files():
        with open(disk, "rb") as f:
            files.append((arc, f.read()))
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory, config_settings=None,
                   metadata_directory=None):
    """PEP 660: a .pth file that puts the tree on sys.path."""
    project = _project()
    pth = ("_%s.pth" % _dist_name(project), (ROOT + "\n").encode())
    return _write_wheel(wheel_directory, [pth])


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    name = "%s-%s" % (_dist_name(project), project["version"])
    path = os.path.join(sdist_directory, name + ".tar.gz")
    keep = ["pyproject.toml", "README.md", "_build/ward_build.py"]
    keep += [arc for arc, _ in _package_files()]
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as t:
        for rel in keep:
            disk = os.path.join(ROOT, rel)
            ti = t.gettarinfo(disk, arcname=name + "/" + rel)
            ti.uid = ti.gid = 0
            ti.uname = ti.gname = ""
            ti.mtime = 0
            with open(disk, "rb") as f:
                t.addfile(ti, f)
        pkg_info = _metadata(project).encode()
        ti = tarfile.TarInfo(name + "/PKG-INFO")
        ti.size = len(pkg_info)
        t.addfile(ti, io.BytesIO(pkg_info))
    return name + ".tar.gz"

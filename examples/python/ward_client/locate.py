# SPDX-License-Identifier: MIT
"""Where the client finds `wardc`, `ward` and profiles: as wardc does.

A program is taken from PATH, else from a build of the source tree the
client sits in (build/, then build/san), else it is the bare name (which
then fails to run, saying so). A profile given by name is found where
wardc finds `use NAME;`: the -I directories, then $WARD_PATH, then the
stdlib beside the wardc executable (<its dir>/../share/ward/stdlib once
installed, stdlib-policies/ of the tree it was built in).
"""

from __future__ import annotations

import os
import shutil
from typing import Iterable, List, Optional

# Where wardc looks for its stdlib, relative to the directory of its own
# executable (lang/load.c, add_stdlib): installed, then in a build tree
# (build/wardc, build-x/san/wardc, build/tests/test_x). The first that is
# a directory is the stdlib; the others are not searched.
STDLIB_BESIDE_WARDC = ("../share/ward/stdlib", "../stdlib-policies",
                       "../../stdlib-policies", "../../../stdlib-policies")

TREE_BUILDS = ("build", "build/san")


class ProfileNotFound(Exception):
    """A profile name that no directory of the search path holds."""


def source_tree() -> Optional[str]:
    """The ward source tree this package is in (examples/python/ward_client
    of it), or None once installed elsewhere."""
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(os.path.dirname(os.path.dirname(here)))
    if os.path.isdir(os.path.join(top, "stdlib-policies")) and \
            os.path.isfile(os.path.join(top, "Makefile")):
        return top
    return None


def find_tool(name: str) -> str:
    """`name` on PATH, else in a build of the source tree, else `name`."""
    found = shutil.which(name)
    if found:
        return found
    tree = source_tree()
    if tree is None:
        return name
    for build in TREE_BUILDS:
        path = os.path.join(tree, build, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return name


def search_path(wardc: str, includes: Iterable[str] = ()) -> List[str]:
    """wardc's search path for `use`: the -I directories, $WARD_PATH, then
    the stdlib beside the wardc executable (symlinks resolved, as wardc
    reads /proc/self/exe)."""
    dirs = list(includes)
    dirs += [d for d in os.environ.get("WARD_PATH", "").split(":") if d]
    exe = shutil.which(wardc) if os.sep not in wardc else wardc
    if exe:
        here = os.path.dirname(os.path.realpath(exe))
        for rel in STDLIB_BESIDE_WARDC:
            cand = os.path.join(here, rel)
            if os.path.isdir(cand):
                dirs.append(os.path.realpath(cand))
                break
    return [d.rstrip("/") or "/" for d in dirs]


def find_profile(profile: str, wardc: str,
                 includes: Iterable[str] = ()) -> str:
    """The source of a profile: an existing file as given, else NAME (or
    NAME.ward) looked up as wardc looks up `use NAME;`."""
    if os.path.isfile(profile):
        return profile
    name = profile[:-len(".ward")] if profile.endswith(".ward") else profile
    dirs = search_path(wardc, includes)
    parts = name.split("/")
    if name.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise ProfileNotFound("%s: no such file, and not a profile name "
                              "(names joined by `/`, such as `python`)"
                              % profile)
    for d in dirs:
        path = os.path.join(d, name + ".ward")
        if os.path.isfile(path):
            return path
    raise ProfileNotFound(
        "cannot find `%s.ward` on the search path (searched: %s); give a "
        "file, or add a directory with -I DIR or $WARD_PATH"
        % (name, ", ".join(dirs) if dirs else "nothing: the search path is "
           "empty"))

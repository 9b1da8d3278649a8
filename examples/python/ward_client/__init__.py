# SPDX-License-Identifier: MIT
"""ward_client: an agent framework's loop around ward, standard library
only (docs/agents.md):

  1. pick a stdlib profile, compile it once, and pin its digest
     (Ward.compile);
  2. know the worst case before running (Ward.budget: (1 + N) x T_run +
     T_queue, as `wardc explain` says);
  3. put the model's code and data in the read-only `input` slot (copied);
  4. run it under ward with a report, a fresh workspace and an export dir
     (Ward.run, or Ward.start to read stdout and stderr as they arrive);
  5. read the report: why the run ended, what the policy refused
     (Run.reason, Run.security);
  6. decide by the task's own predicate, never by the exit code;
  7. take only the exported files (Run.exported: all or nothing);
  8. retry at most N times (solve).

    from ward_client import Ward, find_profile, find_tool
    ward = Ward(find_tool("ward"), find_tool("wardc"))
    digest = ward.compile(find_profile("python", ward.wardc), "py.wardb")
    run = ward.run("py.wardb", digest, {"main.py": code},
                   ["/usr/bin/python3", "/input/main.py"])
"""

from .client import (WARD_CANNOT_EXEC, WARD_NOT_FOUND, WARD_REFUSED, Budget,
                     Chunk, Execution, Run, Ward, sha256_file, solve)
from .session import Execution as SessionExecution
from .session import Session, find_driver
from .locate import (ProfileNotFound, find_profile, find_tool, search_path,
                     source_tree)

__version__ = "0.1.0"

__all__ = [
    "WARD_CANNOT_EXEC", "WARD_NOT_FOUND", "WARD_REFUSED", "Budget", "Chunk",
    "Execution", "ProfileNotFound", "Run", "Ward", "find_profile",
    "find_tool", "search_path", "sha256_file", "solve", "source_tree",
]

"""What the rest of the portal may react to in a scan's life, without the pipeline knowing who listens
(commit statuses on the git host, notifications). Sent with `send_robust`: a receiver's failure is logged by the
receiver's own code and never fails the scan.

- scan_started(scan): the commit is known and scanning begins (a worker scan) or an upload is accepted;
- scan_ended(scan): the scan reached FINISHED (after its ingestion committed), FAILED or SUPERSEDED (a newer scan
  of its branch was created); `scan.status` says which.
"""

from __future__ import annotations

from django.dispatch import Signal

scan_started = Signal()
scan_ended = Signal()
